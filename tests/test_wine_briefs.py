"""The catalog reads written for the driver find what the ORM's find, against the real
embedded PostgreSQL: the search tools' pool as briefs, the picked wines by id."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import inspect

from core.domain import Sweetness, WineType
from repositories.wine_search import WineBrief
from repositories.wines import WineRepository

FILTERS: list[dict[str, Any]] = [
    {},
    {"wine_type": "red"},
    {"wine_type": WineType.white, "sweetness": Sweetness.dry},
    {"price_min": 1400, "price_max": 1600},
    {"body_min": 2, "body_max": 2},
    {"grape_variety": "каберне"},
    {"food_pairing": "стейку", "price_max": 2000},
    {"country": "Франция"},
    {"region": "мозель"},
    {"wine_type": "red", "food_pairing": "steak", "body_min": 3},
]


@pytest.mark.parametrize("filters", FILTERS)
@pytest.mark.parametrize("order", ["price_desc", "price_asc", "name", "newest"])
async def test_briefs_are_the_search_in_its_order(
    repo: WineRepository, filters: dict[str, Any], order: Any
) -> None:
    wines = await repo.search(filters, limit=50, order=order)
    briefs = await repo.search_briefs(filters, 50, order)
    assert [b.id for b in briefs] == [w.id for w in wines]
    for brief, wine in zip(briefs, wines, strict=True):
        assert brief == WineBrief(*(getattr(wine, name) for name in WineBrief._fields))
        assert isinstance(brief.wine_type, WineType) and isinstance(brief.sweetness, Sweetness)


async def test_briefs_keep_to_the_limit_and_to_unmatched_words(repo: WineRepository) -> None:
    assert len(await repo.search_briefs({}, 3)) == 3
    assert await repo.search_briefs({"grape_variety": "неббиоло"}, 10) == []


async def test_wines_read_by_id_are_the_sessions_wines(repo: WineRepository) -> None:
    a, b = await repo.search({"wine_type": "white"}, limit=2, order="price_asc")
    asked = [b.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000", str(a.id), b.id]
    read = await repo.read_by_ids(asked)
    loaded = await repo.get_by_ids(asked)
    assert [w.slug for w in read] == [w.slug for w in loaded] == [b.slug, a.slug]
    for mine, theirs in zip(read, loaded, strict=True):
        columns = [c.key for c in inspect(theirs).mapper.column_attrs if not c.deferred]
        assert {k: getattr(mine, k) for k in columns} == {k: getattr(theirs, k) for k in columns}
        assert inspect(mine).detached and not inspect(mine).modified
    assert await repo.read_by_ids(["not-a-uuid"]) == []
