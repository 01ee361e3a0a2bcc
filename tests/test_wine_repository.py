"""WineRepository against the real embedded PostgreSQL."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.domain import Sweetness, WineType
from core.errors import CatalogFilterError
from repositories import wine_vectors
from repositories.wines import WineRepository
from tests.catalog_factory import record, small_catalog


async def slugs(repo: WineRepository, **filters: object) -> set[str]:
    return {w.slug for w in await repo.search(filters, limit=50)}


async def test_filter_by_type_and_sweetness(repo: WineRepository) -> None:
    assert await slugs(repo, wine_type="white") == {"chablis", "mosel-riesling"}
    assert await slugs(repo, wine_type=WineType.red, sweetness=Sweetness.dry) == {
        "bordeaux-red",
        "chile-merlot",
        "napa-cab",
    }
    assert await slugs(repo, sweetness="semi_dry") == {"kuban-krasnostop"}


async def test_price_and_body_bounds_are_inclusive(repo: WineRepository) -> None:
    assert await slugs(repo, price_max=1300) == {"chile-merlot", "prosecco"}
    assert await slugs(repo, price_min=5400) == {"napa-cab", "tokaji"}
    assert await slugs(repo, price_min=1400, price_max=1600) == {
        "kuban-krasnostop",
        "mosel-riesling",
    }
    assert await slugs(repo, body_min=5) == {"napa-cab", "porto"}
    assert await slugs(repo, body_max=1) == {"prosecco"}
    assert await slugs(repo, body_min=2, body_max=2) == {
        "chablis",
        "mosel-riesling",
        "provence-rose",
    }


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("Мерло", {"bordeaux-red", "chile-merlot"}),
        ("каберне", {"bordeaux-red", "napa-cab"}),
        ("Cabernet Sauvignon", {"bordeaux-red", "napa-cab"}),
        ("РИСЛИНГ", {"mosel-riesling"}),
        ("riesling", {"mosel-riesling"}),
        ("неббиоло", set()),
    ],
)
async def test_grape_matching_is_tolerant(
    repo: WineRepository, term: str, expected: set[str]
) -> None:
    assert await slugs(repo, grape_variety=term) == expected


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("стейк", {"bordeaux-red", "napa-cab", "kuban-krasnostop"}),
        ("стейку", {"bordeaux-red", "napa-cab", "kuban-krasnostop"}),
        ("steak", {"bordeaux-red", "napa-cab", "kuban-krasnostop"}),
        ("рыба", {"chablis", "provence-rose"}),
        ("Устрицы", {"chablis"}),
        ("сыры", {"tokaji"}),
        ("мороженое", set()),
    ],
)
async def test_food_matching_is_tolerant(
    repo: WineRepository, term: str, expected: set[str]
) -> None:
    assert await slugs(repo, food_pairing=term) == expected


@pytest.mark.parametrize(
    ("country", "expected"),
    [
        ("США", {"napa-cab"}),
        ("USA", {"napa-cab"}),
        ("usa", {"napa-cab"}),
        ("Франция", {"bordeaux-red", "chablis", "provence-rose"}),
        ("France", {"bordeaux-red", "chablis", "provence-rose"}),
        ("россия", {"kuban-krasnostop"}),
        ("Narnia", set()),
    ],
)
async def test_country_aliases(repo: WineRepository, country: str, expected: set[str]) -> None:
    assert await slugs(repo, country=country) == expected


async def test_region_and_combined_filters(repo: WineRepository) -> None:
    assert await slugs(repo, region="мозель") == {"mosel-riesling"}
    assert await slugs(repo, region="Напа") == {"napa-cab"}
    assert await slugs(repo, wine_type="red", food_pairing="стейк", price_max=2000) == {
        "bordeaux-red",
        "kuban-krasnostop",
    }


async def test_order_limit_and_offset(repo: WineRepository) -> None:
    by_price = await repo.search({"wine_type": "red"}, limit=10, order="price_asc")
    prices = [w.price_rub for w in by_price]
    assert prices == sorted(prices)
    page = await repo.search({"wine_type": "red"}, limit=2, offset=1, order="price_asc")
    assert [w.slug for w in page] == [w.slug for w in by_price[1:3]]


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ({"price_max": -1}, "price_max must not be negative"),
        ({"price_min": 3000, "price_max": 1000}, "price_min (3000) is greater than price_max"),
        ({"body_min": 4, "body_max": 2}, "body_min (4) is greater than body_max"),
        ({"body_min": 7}, "body_min must be between 1 and 5"),
        ({"wine_type": "purple"}, "wine_type"),
        ({"sweetness": "bone-dry"}, "sweetness"),
        ({"colour": "red"}, "colour"),
    ],
)
async def test_invalid_filters_raise_typed_error(
    repo: WineRepository, filters: dict[str, object], message: str
) -> None:
    with pytest.raises(CatalogFilterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        await repo.search(filters)


async def test_invalid_limit_is_a_typed_error(repo: WineRepository) -> None:
    with pytest.raises(CatalogFilterError, match="limit"):
        await repo.search({}, limit=0)


def _unit(vec: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vec))
    return [x / norm for x in vec]


@pytest.mark.parametrize("path", ["few-by-estimate", "walk-stops-short", "index-walk"])
async def test_nearest_returns_k_rows_under_a_selective_filter(
    session: AsyncSession, settings, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    if path != "few-by-estimate":  # the filtered HNSW walk even for a filter this selective
        monkeypatch.setattr(wine_vectors, "EXACT_SCAN_BELOW", 0)
    if path == "walk-stops-short":  # it gives up before meeting 10 white wines
        monkeypatch.setattr(wine_vectors, "HNSW_EF_SEARCH", 10)
        monkeypatch.setattr(wine_vectors, "HNSW_MAX_SCAN_TUPLES", 20)
    repo = WineRepository(session)
    rng = random.Random(7)
    records = [
        record(
            f"wine-{i:04d}", wine_type="white" if i % 50 == 0 else "red", price_rub=Decimal(500 + i)
        )
        for i in range(600)
    ]
    await repo.upsert_many(records)
    dim = settings.embedding_dim
    wines = await repo.search({}, limit=1000)
    for wine in wines:
        await repo.set_embedding(wine.id, _unit([rng.gauss(0, 1) for _ in range(dim)]), "m")
    await session.commit()
    query = _unit([rng.gauss(0, 1) for _ in range(dim)])
    whites = await repo.nearest(query, {"wine_type": "white"}, k=10)
    assert len(whites) == 10  # 12 white wines exist among 600
    assert all(w.wine_type == WineType.white for w, _ in whites)
    distances = [d for _, d in whites]
    assert distances == sorted(distances)
    exact = await repo.nearest(query, {}, k=10, exact=True)
    approx = await repo.nearest(query, {}, k=10)
    assert len(approx) == 10
    overlap = {w.id for w, _ in exact} & {w.id for w, _ in approx}
    assert len(overlap) >= 8
    # The walk's planner settings do not leak into the next query of the transaction.
    assert await session.scalar(text("SHOW enable_sort")) == "on"
    assert await session.scalar(text("SHOW plan_cache_mode")) == "auto"


async def test_text_search_ranks_relevant_wines(repo: WineRepository) -> None:
    hits = await repo.text_search("минеральное белое к устрицам", k=5)
    assert hits and hits[0].slug == "chablis"
    assert await repo.text_search("!!! & | ::", k=5) == []
    assert {w.slug for w in await repo.text_search("стейк", {"price_max": 2000}, k=5)} == {
        "bordeaux-red",
        "kuban-krasnostop",
    }


async def test_random_respects_filters(repo: WineRepository) -> None:
    picks = await repo.random(3, {"wine_type": "red"})
    assert len(picks) == 3 and all(w.wine_type == WineType.red for w in picks)
    assert len(await repo.random(20)) == 10


async def test_get_by_ids_keeps_order_and_skips_unknown(repo: WineRepository) -> None:
    a, b = await repo.search({"wine_type": "white"}, limit=2, order="price_asc")
    got = await repo.get_by_ids(
        [b.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000", str(a.id)]
    )
    assert [w.slug for w in got] == [b.slug, a.slug]
    assert await repo.count() == 10


async def test_upsert_is_idempotent_and_updates_changed_rows(session: AsyncSession) -> None:
    repo = WineRepository(session)
    first = await repo.upsert_many(small_catalog())
    await session.commit()
    assert (first.inserted, first.updated, first.unchanged) == (10, 0, 0)
    again = await repo.upsert_many(small_catalog())
    await session.commit()
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 10)
    edited = [
        r if r.slug != "chablis" else r.model_copy(update={"price_rub": Decimal("4100")})
        for r in small_catalog()
    ]
    third = await repo.upsert_many(edited)
    await session.commit()
    assert (third.inserted, third.updated, third.unchanged) == (0, 1, 9)
    (chablis,) = await repo.search({"wine_type": "white", "price_min": 4000})
    assert chablis.slug == "chablis" and chablis.price_rub == Decimal("4100")
    assert await repo.count() == 10


async def test_editing_text_clears_a_stale_embedding(session: AsyncSession, settings) -> None:
    repo = WineRepository(session)
    await repo.upsert_many([record("one")])
    (wine,) = await repo.search({})
    await repo.set_embedding(wine.id, [1.0] + [0.0] * (settings.embedding_dim - 1), "m")
    await session.commit()
    assert await repo.count_embedded() == 1
    await repo.upsert_many([record("one", price_rub=Decimal("1"))])
    assert await repo.count_embedded() == 1  # price does not change the text that was embedded
    await repo.upsert_many([record("one", description="Совсем другое описание.")])
    await session.commit()
    assert await repo.count_embedded() == 0


async def test_full_text_column_is_kept_in_sync_by_the_database(session: AsyncSession) -> None:
    repo = WineRepository(session)
    await repo.upsert_many([record("one", description="Аромат черной смородины.")])
    await session.commit()
    assert [w.slug for w in await repo.text_search("смородина")] == ["one"]
    await repo.upsert_many([record("one", description="Аромат спелой вишни.")])
    await session.commit()
    assert await repo.text_search("смородина") == []
    assert [w.slug for w in await repo.text_search("вишня")] == ["one"]
