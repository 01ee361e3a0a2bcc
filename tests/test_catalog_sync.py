"""CATALOG_FEED_URL: the bot syncs on its own, one replica at a time, and tells the admins
only about failures and skipped rows."""

from __future__ import annotations

from aiohttp import web
from sqlalchemy import select, text

from bot.catalog_schedule import start_catalog_sync, stop_catalog_sync
from repositories.models import Wine
from services.app.catalog.sync import SYNC_LOCK_KEY, CatalogSync
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.bot_harness import ADMIN_ID, running_bot
from tests.catalog_feeds import OFFERS, yml_feed
from tests.conftest import make_settings
from tests.serving import serving, with_settings


def _app(feeds: dict[str, bytes]) -> web.Application:
    async def handler(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in feeds:
            return web.Response(status=404)
        return web.Response(body=feeds[name], content_type="text/xml")

    app = web.Application()
    app.router.add_get("/{name}", handler)
    return app


async def test_one_sync_at_a_time_and_admins_hear_only_about_problems(clean_db: Runtime) -> None:
    good = [o for o in OFFERS if o["id"] != "E-500"]
    feeds = {"good.xml": yml_feed(good), "broken.xml": yml_feed()}
    told: list[str] = []

    async def notify(message: str) -> None:
        told.append(message)

    services = build_services(with_settings(clean_db, make_settings()))
    try:
        async with serving(_app(feeds)) as base:
            sync = CatalogSync(services.catalog_admin, f"{base}/good.xml", 1)
            report = await sync.run_once(notify)
            assert report is not None and report.inserted == 4 and told == []

            # Another replica holds the lock: this one does nothing.
            async with clean_db.sessions() as other:
                await other.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SYNC_LOCK_KEY})
                assert await sync.run_once(notify) is None

            sync.url = f"{base}/missing.xml"
            assert await sync.run_once(notify) is None
            assert len(told) == 1 and "HTTP 404" in told[0]

            sync.url = f"{base}/broken.xml"
            report = await sync.run_once(notify)
            assert report is not None and report.unchanged == 4
            assert len(told) == 2 and "E-500" in told[1]
    finally:
        await services.close()


async def test_the_bot_syncs_the_feed_on_start_and_messages_the_admin(clean_db: Runtime) -> None:
    feeds = {"feed.xml": yml_feed()}
    async with (
        serving(_app(feeds)) as base,
        running_bot(clean_db, catalog_feed_url=f"{base}/feed.xml") as h,
    ):
        task = start_catalog_sync(h.bot, h.settings, h.services)
        try:
            await h.tg.wait_for(lambda calls: any(c.chat_id == ADMIN_ID for c in calls), timeout=30)
        finally:
            await stop_catalog_sync(task)
        (message,) = [c for c in h.tg.sent(chat_id=ADMIN_ID)]
        assert "E-500" in (message.visible_text or "")
    async with clean_db.sessions() as s:
        assert len((await s.scalars(select(Wine))).all()) == 4
