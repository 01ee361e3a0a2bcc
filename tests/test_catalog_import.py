"""Importing a shop's catalog: YML over HTTP, a cp1251 CSV, an XLSX; sync; hostile inputs."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from aiohttp import web
from sqlalchemy import select, text

from core.domain import Sweetness, WineType
from core.errors import CatalogFileError
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._catalog_tools import build_catalog_tools
from services.agent._offline_picks import catalog_picks
from services.app.catalog.importer import import_catalog
from services.app.catalog.importer.fetch import read_source
from services.app.runtime import Runtime
from services.llm.embeddings import EmbeddingService
from tests.catalog_feeds import OFFERS, XML_BOMB, csv_cp1251, xlsx_file, yml_feed
from tests.conftest import make_settings
from tests.serving import serving


def _feed_app(feeds: dict[str, bytes]) -> web.Application:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(body=feeds[request.match_info["name"]], content_type="text/xml")

    app = web.Application()
    app.router.add_get("/{name}", handler)
    return app


async def _wines(rt: Runtime) -> dict[str, Wine]:
    async with rt.sessions() as s:
        return {w.external_id or w.slug: w for w in await s.scalars(select(Wine))}


async def test_a_yml_feed_served_over_http_imports_syncs_and_hides_removed_wines(
    clean_db: Runtime,
) -> None:
    feeds = {"full.xml": yml_feed(), "less.xml": yml_feed(o for o in OFFERS if o["id"] != "A-100")}
    async with serving(_feed_app(feeds)) as base:
        report = await import_catalog(clean_db.sessions, f"{base}/full.xml")
        assert (report.format, report.rows, report.inserted) == ("yml", 5, 4)
        assert [(p.id, p.field) for p in report.skipped] == [("E-500", "price_rub")]

        wines = await _wines(clean_db)
        red, fizz, riesling, rose = (wines[k] for k in ("A-100", "B-200", "C-300", "D-400"))
        assert (red.wine_type, red.sweetness) == (WineType.red, Sweetness.dry)
        assert (red.price_rub, red.old_price_rub) == (Decimal("1990.00"), Decimal("2490.00"))
        assert (red.volume_l, red.alcohol, red.vintage_year) == (
            Decimal("0.750"),
            Decimal("13.5"),
            2019,
        )
        assert red.grape_varieties == ["каберне совиньон", "мерло"] and red.region == "Бордо"
        assert red.url == "https://shop.example/wine/a-100" and red.available
        assert red.tasting_notes is None and red.body is None  # unknown, not invented
        # «Брют натюр» on a white-coloured sparkling wine: sparkling, dry; 750 мл is 0.75 l.
        assert (fizz.wine_type, fizz.sweetness, fizz.volume_l) == (
            WineType.sparkling,
            Sweetness.dry,
            Decimal("0.750"),
        )
        assert (riesling.sweetness, riesling.available) == (Sweetness.semi_sweet, False)
        assert (rose.wine_type, rose.sweetness, rose.price_rub) == (
            WineType.rose,
            Sweetness.semi_dry,
            Decimal("990.00"),
        )

        again = await import_catalog(clean_db.sessions, f"{base}/full.xml")
        assert (again.inserted, again.updated, again.unchanged) == (0, 0, 4)

        synced = await import_catalog(clean_db.sessions, f"{base}/less.xml", sync=True)
        assert (synced.inserted, synced.updated, synced.unchanged) == (0, 0, 3)
        assert synced.marked_unavailable == 1

    wines = await _wines(clean_db)
    assert not wines["A-100"].available and len(wines) == 4  # never deleted
    assert wines["B-200"].available and wines["D-400"].available
    await _never_recommended(clean_db, red.id, red.name)


async def _never_recommended(rt: Runtime, wine_id: object, name: str) -> None:
    """The wine is absent from every query that picks wines, but a shown card still renders."""
    async with rt.sessions() as s:
        repo = WineRepository(s)
        vector = [1.0] + [0.0] * 63
        for wine in await s.scalars(select(Wine)):
            await repo.set_embedding(wine.id, vector, "test")
        await s.commit()
        picked = [
            *await repo.search({}, limit=100),
            *await repo.search({"wine_type": "red"}, limit=100),
            *await repo.text_search("Шато Тест Каберне красное", k=50),
            *await repo.random(200),
            *[w for w, _ in await repo.nearest(vector, {}, k=50)],
            *[w for w, _ in await repo.nearest(vector, {"wine_type": "red"}, k=50)],
            *[w for w, _ in await repo.nearest(vector, {}, k=50, exact=True)],
        ]
        assert picked and wine_id not in {w.id for w in picked}
        assert await repo.find_by_name(name) is None
        assert await repo.count_matching({}) == 2
        assert [w.id for w in await repo.get_by_ids([wine_id])] == [wine_id]  # a shown card
    embeddings = EmbeddingService(make_settings())
    for query in ("красное сухое из Франции", "каберне", "Шато Тест Каберне", ""):
        wines = await catalog_picks(rt.sessions, query)
        assert wine_id not in {w.id for w in wines}
    tools = build_catalog_tools(rt.sessions, embeddings)
    for tool, args in (
        ("search_wines", {"wine_type": "red"}),
        ("semantic_search", {"query": "Шато Тест Каберне"}),
    ):
        result = await tools.execute(tool, args)
        assert str(wine_id) not in result.content


async def test_a_cp1251_csv_with_russian_headers_and_a_formula_cell(
    clean_db: Runtime, tmp_path
) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(csv_cp1251())
    report = await import_catalog(clean_db.sessions, str(path))
    assert (report.format, report.inserted) == ("csv", 3)
    assert [(p.row, p.id, p.field) for p in report.skipped] == [(5, "1C-004", "name")]
    wines = await _wines(clean_db)
    assert "1C-004" not in wines
    malbec, moscato, cava = wines["1C-001"], wines["1C-002"], wines["1C-003"]
    assert (malbec.price_rub, malbec.stock, malbec.alcohol) == (
        Decimal("1990.00"),
        12,
        Decimal("14.0"),
    )
    assert malbec.country == "Аргентина" and malbec.url == "https://shop.example/1c-001"
    assert (moscato.sweetness, moscato.price_rub, moscato.available) == (
        Sweetness.sweet,
        Decimal("890.50"),
        False,  # stock 0: not on sale
    )
    assert (cava.wine_type, cava.sweetness) == (WineType.sparkling, Sweetness.dry)
    async with clean_db.sessions() as s:
        texts = await s.scalars(text("SELECT name || producer || description FROM wines"))
        assert not any(t.lstrip().startswith(("=", "+", "-", "@")) for t in texts)


async def test_a_formula_behind_a_line_break_or_a_no_break_space_is_refused_too(
    clean_db: Runtime,
) -> None:
    """A JSON feed's strings reach the check unstripped: the name as it would be stored
    (trimmed) is what must not start a formula."""
    wine = {"country": "Италия", "wine_type": "красное", "sweetness": "сухое", "price": 900}
    names = ['\n=HYPERLINK("http://evil.example","Открыть")', "\u00a0@SUM(1+1)", " +1-1"]
    feed = [{**wine, "id": f"J-{i}", "name": name} for i, name in enumerate(names)]
    feed.append({**wine, "id": "J-ok", "name": "Кьянти «-5°»"})
    report = await import_catalog(clean_db.sessions, "feed.json", data=json.dumps(feed).encode())
    assert report.inserted == 1, report.as_dict()
    assert sorted((p.id, p.field) for p in report.skipped) == [
        ("J-0", "name"),
        ("J-1", "name"),
        ("J-2", "name"),
    ]
    assert list(await _wines(clean_db)) == ["J-ok"]


async def test_an_xlsx_export_with_english_headers(clean_db: Runtime) -> None:
    report = await import_catalog(clean_db.sessions, "upload.xlsx", data=xlsx_file())
    assert (report.format, report.inserted, report.skipped) == ("xlsx", 2, [])
    wines = await _wines(clean_db)
    assert (wines["X-1"].wine_type, wines["X-1"].price_rub) == (WineType.white, Decimal("2100.00"))
    port = wines["X-2"]
    assert (port.wine_type, port.sweetness, port.alcohol) == (
        WineType.fortified,
        Sweetness.sweet,
        Decimal("19.5"),
    )


async def test_dry_run_and_strict_write_nothing(clean_db: Runtime) -> None:
    dry = await import_catalog(clean_db.sessions, "feed.xml", data=yml_feed(), dry_run=True)
    assert dry.inserted == 4 and not dry.applied
    with pytest.raises(CatalogFileError, match="--strict"):
        await import_catalog(clean_db.sessions, "feed.xml", data=yml_feed(), strict=True)
    assert await _wines(clean_db) == {}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (XML_BOMB, "refused for safety"),
        (b"<yml_catalog><shop><offers><offer>", "not well-formed"),
        (bytes(range(256)) * 50, "encoding"),
        (b"", "empty"),
        (b"name;colour\nx;y\n", "name and price"),
    ],
)
async def test_hostile_or_broken_sources_are_refused_clearly(
    clean_db: Runtime, data: bytes, message: str
) -> None:
    with pytest.raises(CatalogFileError, match=message):
        await import_catalog(clean_db.sessions, "upload", data=data)
    assert await _wines(clean_db) == {}


async def test_a_feed_over_the_size_cap_is_refused_while_streaming() -> None:
    async def endless(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse()  # chunked: no Content-Length to trust
        await response.prepare(request)
        for _ in range(64):
            await response.write(b"x" * 65536)
        return response

    app = web.Application()
    app.router.add_get("/feed", endless)
    async with serving(app) as base:
        with pytest.raises(CatalogFileError, match="larger than"):
            await read_source(f"{base}/feed", limit=1024 * 1024)


async def test_a_mapping_names_unusual_headers(clean_db: Runtime, tmp_path) -> None:
    csv = (
        "Поз.;Наим. позиции;Винодел;Откуда;Окрас;Сладость вина;Розница;Урожай\n"
        "7;Тест Совиньон;Тест Хаус;Чили;белое;сухое;1 100;NV\n"
    ).encode()
    mapping = {
        "Поз.": "external_id",
        "Наим. позиции": "name",
        "Винодел": "producer",
        "Откуда": "country",
        "Окрас": "wine_type",
        "Сладость вина": "sweetness",
        "Розница": "price_rub",
        "Урожай": "vintage_year",
    }
    with pytest.raises(CatalogFileError, match="--mapping"):
        await import_catalog(clean_db.sessions, "x.csv", data=csv)
    report = await import_catalog(clean_db.sessions, "x.csv", data=csv, mapping=mapping)
    assert (report.inserted, report.skipped) == (1, [])
    wine = (await _wines(clean_db))["7"]
    assert (wine.wine_type, wine.price_rub, wine.vintage_year) == (
        WineType.white,
        Decimal("1100.00"),
        None,
    )
