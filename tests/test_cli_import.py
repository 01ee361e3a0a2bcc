"""`sommelier import` from a fresh data dir: a YML feed on 127.0.0.1 and a cp1251 CSV file."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp import web

from repositories.migrations import head_revision
from tests.catalog_feeds import OFFERS, XML_BOMB, csv_cp1251, yml_feed
from tests.serving import serving
from tests.test_cli import SEED_COUNT, sommelier


async def test_import_command_from_a_fresh_data_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    feeds = {"full": yml_feed(), "less": yml_feed(o for o in OFFERS if o["id"] != "D-400")}

    async def handler(request: web.Request) -> web.Response:
        return web.Response(body=feeds[request.match_info["name"]], content_type="text/xml")

    app = web.Application()
    app.router.add_get("/{name}.xml", handler)
    csv_path = tmp_path / "export.csv"
    csv_path.write_bytes(csv_cp1251())
    bomb = tmp_path / "bomb.xml"
    bomb.write_bytes(XML_BOMB)
    async with serving(app) as base:
        run = await sommelier(data_dir, "import", f"{base}/full.xml", "--json")
        assert run.code == 0, str(run)
        first = json.loads(run.out)
        assert (first["inserted"], first["updated"], first["unchanged"]) == (4, 0, 0)
        assert first["skipped"] == [
            {"row": 5, "id": "E-500", "field": "price_rub", "problem": "not a price: 'по запросу'"}
        ]

        run = await sommelier(data_dir, "import", str(csv_path))
        assert run.code == 0, str(run)
        assert "3 inserted" in run.out and "1 skipped" in run.out
        assert "row 5 (id 1C-004): name: looks like a spreadsheet formula" in run.out

        run = await sommelier(data_dir, "import", f"{base}/full.xml", "--json")
        assert json.loads(run.out)["unchanged"] == 4, str(run)

        run = await sommelier(data_dir, "import", f"{base}/less.xml", "--sync", "--json")
        synced = json.loads(run.out)
        # The feed becomes the whole catalog: D-400, the CSV's two wines on sale and the demo
        # wines a fresh install starts with all go off sale (none is deleted).
        assert synced["unchanged"] == 3, str(run)
        assert synced["marked_unavailable"] == 1 + 2 + SEED_COUNT, str(run)

    run = await sommelier(data_dir, "ask", "розовое полусухое из Испании", "--json")
    assert run.code == 0, str(run)
    assert "Ганаш" not in run.out

    # The schema moves down and up again with imported rows that leave body/notes unknown.
    run = await sommelier(data_dir, "migrate", "--revision", "0002")
    assert run.code == 0 and "revision 0002" in run.out, str(run)
    run = await sommelier(data_dir, "migrate")
    assert run.code == 0 and f"revision {head_revision()}" in run.out, str(run)
    run = await sommelier(data_dir, "import", str(csv_path), "--json")
    assert run.code == 0 and json.loads(run.out)["inserted"] == 0, str(run)

    run = await sommelier(data_dir, "import", str(bomb))
    assert run.code != 0 and "refused for safety" in run.err, str(run)
    run = await sommelier(data_dir, "import", str(csv_path), "--strict")
    assert run.code != 0 and "--strict" in run.err, str(run)
