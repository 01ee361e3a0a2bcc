"""Scheduled re-read of ORDERS_URL every ORDERS_SYNC_MINUTES: one replica at a time (a
PostgreSQL advisory lock), the admins told only when a read failed or skipped rows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from sqlalchemy import text

from core.errors import SommelierError
from services.app.orders.service import OrderReport, Orders
from services.app.texts import T

log = logging.getLogger(__name__)
SYNC_LOCK_KEY = 72_6578_0042
Notify = Callable[[str], Awaitable[None]]


class OrderSync:
    def __init__(self, orders: Orders, url: str, interval_minutes: float) -> None:
        self.orders = orders
        self.url = url
        self.interval = interval_minutes * 60

    async def run_once(self, notify: Notify) -> OrderReport | None:
        """Read now unless another replica is reading (then None); never raises for a bad
        export: the admins get the reason instead."""
        async with self.orders.sessions() as lock_session:
            got = await lock_session.scalar(
                text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": SYNC_LOCK_KEY}
            )
            if not got:
                log.info("order sync skipped: another replica is reading")
                return None
            try:
                report = await self.orders.import_source(self.url)
            except SommelierError as exc:
                log.warning("order sync failed: %s", exc)
                await _tell(notify, T.orders_sync_failed.format(error=exc))
                return None
        log.info("order sync: %s", report.summary())
        if report.skipped:
            lines = "\n".join(str(p) for p in report.problems[:15])
            await _tell(notify, T.orders_sync_skipped.format(skipped=report.skipped, lines=lines))
        return report

    async def run_forever(self, notify: Notify) -> None:
        while True:
            await self.run_once(notify)
            await asyncio.sleep(self.interval)


async def _tell(notify: Notify, message: str) -> None:
    try:
        await notify(message)
    except Exception:  # telling the admins must never stop the schedule
        log.exception("cannot tell the admins about the order sync")
