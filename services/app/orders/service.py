"""The shop's orders in: a file or URL export (`sommelier orders`, ORDERS_URL on a schedule) and
`POST /v1/orders`, through one path — read, check every row, upsert the good orders by their
id and attribute their lines — with an `order_syncs` row for each import."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.errors import CatalogFileError, OrderFileError
from repositories.orders import (
    StagedLine,
    StagedOrder,
    order_syncs,
    record_order_sync,
    upsert_orders,
)
from services.app.catalog.importer.fetch import read_source
from services.app.catalog.importer.rows import Problem
from services.app.facts.referrals import Referrals
from services.app.orders.fields import OrderFields
from services.app.orders.reading import OrderIn, read_orders

log = logging.getLogger(__name__)
MAX_REPORTED_PROBLEMS = 500
MAX_RECORDED_REASONS = 50
API_SOURCE = "api"


@dataclass
class OrderReport:
    source: str
    rows: int
    orders: int = 0
    lines: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    cancelled: int = 0
    problems: list[Problem] = field(default_factory=list)
    dry_run: bool = False

    @property
    def skipped(self) -> int:
        """Rows left out (a token that is not ours keeps its row: it is only reported)."""
        return len({(p.row, p.id) for p in self.problems if p.field != "token"})

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rows": self.rows,
            "orders": self.orders,
            "lines": self.lines,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "cancelled": self.cancelled,
            "skipped": self.skipped,
            "problems": [p.as_dict() for p in self.problems[:MAX_REPORTED_PROBLEMS]],
            "dry_run": self.dry_run,
        }

    def summary(self) -> str:
        done = "dry run: nothing was written" if self.dry_run else "applied"
        return (
            f"{self.rows} rows, {self.orders} orders: {self.inserted} new, {self.updated} "
            f"updated, {self.unchanged} unchanged, {self.cancelled} cancelled, "
            f"{self.skipped} rows skipped ({done})"
        )


def source_label(source: str) -> str:
    """A URL without its query (tokens live there), or a file's name."""
    if source.startswith(("http://", "https://")):
        return source.split("?", 1)[0][:300]
    return Path(source).name[:300]


def staged(orders: list[OrderIn]) -> tuple[list[StagedOrder], list[StagedLine]]:
    rows: list[StagedOrder] = []
    lines: list[StagedLine] = []
    for o in orders:
        total = sum((line.price_rub * line.quantity for line in o.lines), Decimal(0))
        status = "cancelled" if o.cancelled else "placed"
        rows.append((o.order_id, o.placed_at, status, o.token, bool(o.lines), total))
        lines.extend(
            (o.order_id, n, line.product, line.quantity, line.price_rub)
            for n, line in enumerate(o.lines, start=1)
        )
    return rows, lines


class Orders:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        referrals: Referrals,
        timezone: str,
        attribution_days: float,
    ) -> None:
        self.sessions = sessions
        self.referrals = referrals
        self.zone = ZoneInfo(timezone)
        self.window = timedelta(days=attribution_days)

    async def import_source(
        self,
        source: str,
        *,
        mapping: dict[str, str] | None = None,
        dry_run: bool = False,
        data: bytes | None = None,
    ) -> OrderReport:
        """A file or URL export (or its bytes). OrderFileError when nothing can be read;
        otherwise the report, bad rows listed with their reasons."""
        label = source_label(source)
        try:
            raw = data if data is not None else await read_source(source)
            return await self._apply(raw, label, mapping, dry_run)
        except CatalogFileError as exc:  # the shared readers' errors name no catalog
            if not dry_run:
                await self._remember({"source": label, "error": str(exc)[:500]})
            if isinstance(exc, OrderFileError):
                raise
            raise OrderFileError(exc.summary, exc.problems) from None

    async def receive(self, body: bytes) -> OrderReport:
        """`POST /v1/orders`: one order or {"orders": [...]}; OrderFileError for a body that
        is not JSON of orders."""
        if body.lstrip()[:1] not in (b"{", b"["):
            raise OrderFileError('the body must be a JSON order or {"orders": [...]}')
        return await self._apply(body, API_SOURCE, None, False)

    async def _apply(
        self, raw: bytes, label: str, mapping: dict[str, str] | None, dry_run: bool
    ) -> OrderReport:
        checked = read_orders(raw, OrderFields(mapping), self.zone, self.referrals.read)
        report = OrderReport(label, checked.rows, problems=checked.problems, dry_run=dry_run)
        report.orders = len(checked.orders)
        report.lines = sum(len(o.lines) for o in checked.orders)
        if checked.orders:
            orders, lines = staged(checked.orders)
            async with self.sessions() as session:
                counts = await upsert_orders(session, orders, lines, label, self.window)
                if dry_run:
                    await session.rollback()
                else:
                    await session.commit()
            report.inserted, report.updated = counts.inserted, counts.updated
            report.unchanged, report.cancelled = counts.unchanged, counts.cancelled
        if not dry_run:
            await self._remember(_sync_values(report))
        return report

    async def recent_imports(self, limit: int = 20) -> list[dict[str, Any]]:
        """The last imports, newest first (/stats shows the first, the console them all)."""
        async with self.sessions() as session:
            return await order_syncs(session, limit)

    async def _remember(self, values: dict[str, Any]) -> None:
        """The import's outcome for /stats and the console (never fails the import)."""
        try:
            async with self.sessions() as session:
                await record_order_sync(session, values)
                await session.commit()
        except Exception as exc:  # a report we could not keep is only logged
            log.warning("order import outcome not recorded: %s", type(exc).__name__)


def _sync_values(report: OrderReport) -> dict[str, Any]:
    return {
        "source": report.source,
        "rows": report.rows,
        "inserted": report.inserted,
        "updated": report.updated,
        "unchanged": report.unchanged,
        "cancelled": report.cancelled,
        "skipped": report.skipped,
        "reasons": [p.as_dict() for p in report.problems[:MAX_RECORDED_REASONS]],
        "error": None,
    }
