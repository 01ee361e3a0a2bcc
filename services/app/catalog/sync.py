"""Scheduled catalog sync from CATALOG_FEED_URL: one replica at a time (a PostgreSQL advisory
lock), admins told only when a sync failed or skipped rows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import text

from core.errors import SommelierError
from services.app.catalog.admin import CatalogAdmin
from services.app.catalog.importer import ImportReport

log = logging.getLogger(__name__)
SYNC_LOCK_KEY = 72_6578_0013
Notify = Callable[[str], Awaitable[None]]


class CatalogSync:
    """`notify` (how the admins are told: the bot's) is given at each run."""

    def __init__(self, catalog_admin: CatalogAdmin, url: str, interval_hours: float) -> None:
        self.catalog_admin = catalog_admin
        self.url = url
        self.interval = interval_hours * 3600

    async def run_once(self, notify: Notify) -> ImportReport | None:
        """Sync now unless another replica is syncing (then None). Never raises for a bad
        feed: the admins get the reason instead."""
        # A transaction-level lock held by this session's open transaction for the whole sync;
        # closing the session (even on cancellation) rolls back and releases it.
        async with self.catalog_admin.sessions() as lock_session:
            got = await lock_session.scalar(
                text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": SYNC_LOCK_KEY}
            )
            if not got:
                log.info("catalog sync skipped: another replica is syncing")
                return None
            return await self._sync(notify)

    async def _sync(self, notify: Notify) -> ImportReport | None:
        try:
            report = await self.catalog_admin.import_catalog(self.url, sync=True)
        except SommelierError as exc:
            log.warning("catalog sync failed: %s", exc)
            await _tell(notify, f"Синхронизация каталога не удалась: {exc}")
            return None
        log.info("catalog sync: %s", report.summary())
        if report.skipped:
            lines = "\n".join(str(p) for p in report.skipped[:15])
            await _tell(
                notify,
                "Синхронизация каталога: пропущено строк "
                f"{len({(p.row, p.id) for p in report.skipped})}.\n{lines}",
            )
        return report

    async def run_forever(self, notify: Notify) -> None:
        while True:
            await self.run_once(notify)
            await asyncio.sleep(self.interval)


async def _tell(notify: Notify, message: str) -> None:
    try:
        await notify(message)
    except Exception:  # telling the admins must never stop the schedule
        log.exception("cannot tell the admins about the catalog sync")
