"""Scheduled re-read of ORDERS_URL every ORDERS_SYNC_MINUTES: one replica at a time, the admins
told only when a read failed or skipped rows."""

from __future__ import annotations

import logging

from core.errors import SommelierError
from services.app.ops.schedule import Notify, every, on_one_replica, tell
from services.app.orders.service import OrderReport, Orders
from services.app.texts import T

log = logging.getLogger(__name__)
SYNC_LOCK_KEY = 72_6578_0042
NAME = "order sync"


class OrderSync:
    def __init__(self, orders: Orders, url: str, interval_minutes: float) -> None:
        self.orders = orders
        self.url = url
        self.interval = interval_minutes * 60

    async def run_once(self, notify: Notify) -> OrderReport | None:
        """Read now unless another replica is reading (then None); never raises for a bad
        export: the admins get the reason instead."""
        return await on_one_replica(
            self.orders.sessions, SYNC_LOCK_KEY, NAME, lambda: self._read(notify)
        )

    async def _read(self, notify: Notify) -> OrderReport | None:
        try:
            report = await self.orders.import_source(self.url)
        except SommelierError as exc:
            log.warning("order sync failed: %s", exc)
            await tell(notify, NAME, T.orders_sync_failed.format(error=exc))
            return None
        log.info("order sync: %s", report.summary())
        if report.skipped:
            lines = "\n".join(str(p) for p in report.problems[:15])
            message = T.orders_sync_skipped.format(skipped=report.skipped, lines=lines)
            await tell(notify, NAME, message)
        return report

    async def run_forever(self, notify: Notify) -> None:
        await every(self.interval, lambda: self.run_once(notify))
