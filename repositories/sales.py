"""What the console reads of the shop's sales (SQL only): the order lines attributed to the
sommelier — *led* or *assisted* (`repositories/orders.py` sets it) — of orders placed in whole
UTC days [first, last]. A cancelled order counts nothing, whatever its lines say; a line's
revenue is quantity × price_rub.

These read `orders` and `order_lines` directly (no rollup): an order can arrive, change or be
cancelled days after it was placed, so a past day's sales are never final; the index on
`orders.placed_at` keeps a period's orders together, and each order's lines are found by its
primary key."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

ATTRIBUTED = ("led", "assisted")

_PLACED = (
    "o.status = 'placed' "
    "AND o.placed_at >= (CAST(:first AS date)::timestamp AT TIME ZONE 'UTC') "
    "AND o.placed_at < ((CAST(:last AS date) + 1)::timestamp AT TIME ZONE 'UTC')"
)
_LINES = (
    "FROM orders o JOIN order_lines l ON l.order_id = o.order_id "
    f"WHERE {_PLACED} AND l.attribution IN ('led', 'assisted')"
)
_REVENUE = (
    "coalesce(sum(l.quantity * l.price_rub) FILTER (WHERE l.attribution = 'led'), 0) AS led, "
    "coalesce(sum(l.quantity * l.price_rub) FILTER (WHERE l.attribution = 'assisted'), 0) "
    "AS assisted, count(DISTINCT o.order_id) AS orders, count(*) AS lines"
)


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(row) for row in result.mappings().all()]


async def daily_sales(session: AsyncSession, first: date, last: date) -> list[dict[str, Any]]:
    """Per UTC day with attributed sales: led and assisted revenue (₽), the orders with an
    attributed line, and the attributed lines."""
    result = await session.execute(
        text(
            f"SELECT (o.placed_at AT TIME ZONE 'UTC')::date AS day, {_REVENUE} {_LINES} "
            "GROUP BY 1 ORDER BY 1"
        ),
        {"first": first, "last": last},
    )
    return _rows(result)


async def sales_totals(session: AsyncSession, first: date, last: date) -> dict[str, Any]:
    """The period's led and assisted revenue, orders with an attributed line (an order with
    several lines counts once) and attributed lines."""
    result = await session.execute(
        text(f"SELECT {_REVENUE} {_LINES}"), {"first": first, "last": last}
    )
    return dict(result.mappings().one())


# Per wine (a CTE of the Wines view's query, `repositories/console.py`): the orders with a line
# of it attributed led or assisted, and that revenue.
WINE_SALES = f"SELECT l.wine_id, {_REVENUE} {_LINES} AND l.wine_id IS NOT NULL GROUP BY l.wine_id"
