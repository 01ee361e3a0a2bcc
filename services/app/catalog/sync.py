"""Scheduled catalog sync from CATALOG_FEED_URL: one replica at a time, admins told only when
a sync failed or skipped rows."""

from __future__ import annotations

import logging

from core.errors import SommelierError
from services.app.catalog.admin import CatalogAdmin
from services.app.catalog.importer import ImportReport
from services.app.ops.schedule import Notify, every, on_one_replica, tell
from services.app.texts import T

log = logging.getLogger(__name__)
SYNC_LOCK_KEY = 72_6578_0013
NAME = "catalog sync"


class CatalogSync:
    """`notify` (how the admins are told: the bot's) is given at each run."""

    def __init__(self, catalog_admin: CatalogAdmin, url: str, interval_hours: float) -> None:
        self.catalog_admin = catalog_admin
        self.url = url
        self.interval = interval_hours * 3600

    async def run_once(self, notify: Notify) -> ImportReport | None:
        """Sync now unless another replica is syncing (then None). Never raises for a bad
        feed: the admins get the reason instead."""
        return await on_one_replica(
            self.catalog_admin.sessions, SYNC_LOCK_KEY, NAME, lambda: self._sync(notify)
        )

    async def _sync(self, notify: Notify) -> ImportReport | None:
        try:
            report = await self.catalog_admin.import_catalog(self.url, sync=True)
        except SommelierError as exc:
            log.warning("catalog sync failed: %s", exc)
            await tell(notify, NAME, T.catalog_sync_failed.format(error=exc))
            return None
        log.info("catalog sync: %s", report.summary())
        if report.skipped:
            lines = "\n".join(str(p) for p in report.skipped[:15])
            skipped = len({(p.row, p.id) for p in report.skipped})
            await tell(notify, NAME, T.catalog_sync_skipped.format(skipped=skipped, lines=lines))
        return report

    async def run_forever(self, notify: Notify) -> None:
        await every(self.interval, lambda: self.run_once(notify))
