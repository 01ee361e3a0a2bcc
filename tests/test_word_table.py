"""One table of the words people and models write, run through every path that reads them:
the `search_wines` tool (what a model sends), the offline reader of a message (`parse_query`,
then the repository) and the repository given the raw word. All three must find the same
wines, and those wines must be what the word means."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest

from core.domain import WineFilters
from core.language.request import parse_query
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._catalog_tools import build_catalog_tools
from services.agent._tool_registry import ToolRegistry
from services.app.runtime import Runtime
from services.llm.embeddings import EmbeddingService
from tests.conftest import make_settings


@dataclass(frozen=True)
class Case:
    field: str  # the search_wines argument / WineFilters field
    word: str  # what a person or a model writes
    means: Callable[[Wine], bool]  # what every wine found must be
    at_least: int  # how many such wines the demo catalog has


def grape(name: str) -> Callable[[Wine], bool]:
    return lambda wine: name in wine.grape_varieties


def foods(*words: str) -> Callable[[Wine], bool]:
    return lambda wine: any(w in dish for dish in wine.food_pairings for w in words)


def food(word: str) -> Callable[[Wine], bool]:
    return lambda wine: any(word in dish for dish in wine.food_pairings)


def country(name: str) -> Callable[[Wine], bool]:
    return lambda wine: wine.country == name


SHIRAZ = grape("шираз")
ZINFANDEL = grape("зинфандель")
CASES = [
    *[Case("grape_variety", w, SHIRAZ, 5) for w in ("syrah", "Shiraz", "сира", "сиры", "Шираз")],
    *[Case("grape_variety", w, ZINFANDEL, 2) for w in ("primitivo", "Zinfandel", "зинфандель")],
    *[Case("grape_variety", w, grape("пино гриджо"), 1) for w in ("пино гри", "Pinot Grigio")],
    *[Case("grape_variety", w, grape("каберне совиньон"), 9) for w in ("каберне", "Cabernet")],
    *[Case("grape_variety", w, grape("мерло"), 6) for w in ("мерло", "Merlot", "мерлоу")],
    *[Case("grape_variety", w, grape("рислинг"), 7) for w in ("рислинг", "Riesling")],
    *[Case("food_pairing", w, food("стейк"), 16) for w in ("стейку", "к стейку", "steak")],
    # salmon is a fish too: «к рыбе» reaches the wines for salmon (a red among them)
    *[Case("food_pairing", w, foods("рыб", "лосос"), 20) for w in ("рыбы", "fish")],
    *[
        Case("food_pairing", w, lambda wine: bool(wine.food_pairings), 23)
        for w in ("морепродуктами", "seafood")
    ],
    *[Case("country", w, country("США"), 5) for w in ("USA", "США", "Америка", "American")],
]


@pytest.fixture
async def registry(seeded: Runtime) -> AsyncIterator[ToolRegistry]:
    embeddings = EmbeddingService(make_settings())
    yield build_catalog_tools(seeded.sessions, embeddings)
    await embeddings.close()


async def _by_tool(registry: ToolRegistry, case: Case) -> set[str]:
    result = await registry.execute(
        "search_wines", json.dumps({case.field: case.word, "limit": 10})
    )
    assert result.ok, result.content
    return {str(i) for i in result.wine_ids}


async def _by_repository(runtime: Runtime, filters: WineFilters) -> list[Wine]:
    async with runtime.sessions() as session:
        return await WineRepository(session).search(filters, limit=10)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.field}={c.word}" for c in CASES])
async def test_every_path_reads_the_word_the_same_way(
    seeded: Runtime, registry: ToolRegistry, case: Case
) -> None:
    raw = await _by_repository(seeded, WineFilters(**{case.field: case.word}))
    read = parse_query(case.word).filters
    assert getattr(read, case.field) is not None, f"the offline reader missed {case.word!r}"
    offline = await _by_repository(seeded, read)
    tool = await _by_tool(registry, case)

    assert raw, f"nothing found for {case.word!r}"
    assert all(case.means(w) for w in raw), [w.name for w in raw]
    assert len(raw) >= min(case.at_least, 10)
    assert {str(w.id) for w in offline} == {str(w.id) for w in raw} == tool


async def test_syrah_is_not_petite_sirah(seeded: Runtime) -> None:
    found = await _by_repository(seeded, WineFilters(grape_variety="syrah"))
    assert found and all("пти сира" not in w.grape_varieties for w in found)
    petite = await _by_repository(seeded, WineFilters(grape_variety="petite sirah"))
    assert [w.grape_varieties for w in petite] and all(
        "пти сира" in w.grape_varieties for w in petite
    )


async def test_a_food_category_means_its_dishes(seeded: Runtime) -> None:
    """«к мясу» finds the wines for steak, lamb, pork and game, not only dishes named «мясо»."""
    found = await _by_repository(seeded, WineFilters(food_pairing="мясу"))
    kinds = ("стейк", "баранин", "свинин", "дичь", "говядин", "телятин", "мяс", "оленин")
    assert len(found) == 10
    assert all(any(k in dish for dish in w.food_pairings for k in kinds) for w in found)
    cabernet = await _by_repository(
        seeded, WineFilters(grape_variety="каберне совиньон", food_pairing="мясо")
    )
    assert cabernet, "каберне совиньон к мясу"
