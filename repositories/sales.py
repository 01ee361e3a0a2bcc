"""What the console reads of the shop's sales (SQL only): the order lines attributed to the
sommelier — *led* or *assisted* (`repositories/orders.py` sets it) — of orders placed in whole
UTC days [first, last]. A cancelled order counts nothing, whatever its lines say; a line's
revenue is quantity × price_rub.

The views read the per-day rollup `sales_days` (migration 0015): per day, its total (wine '*')
and each wine's part. An order can arrive, change or be cancelled long after its day, so no day
is final: triggers on `orders` and `order_lines` list the days a statement touched in
`sales_stale_days`, and `refresh_sales` recomputes just those before a view."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.database import row_dicts

SALES_LOCK = 72_6578_0044  # its own: the order sync holds 72_6578_0042 for a whole read

_DAY = "(o.placed_at AT TIME ZONE 'UTC')::date"
_RECOMPUTE = f"""
INSERT INTO sales_days (day, wine, led, assisted, orders, lines)
SELECT {_DAY}, CASE WHEN GROUPING(l.wine_id) = 1 THEN '*' ELSE l.wine_id::text END,
  coalesce(sum(l.quantity * l.price_rub) FILTER (WHERE l.attribution = 'led'), 0),
  coalesce(sum(l.quantity * l.price_rub) FILTER (WHERE l.attribution = 'assisted'), 0),
  count(DISTINCT o.order_id), count(*)
FROM orders o JOIN order_lines l ON l.order_id = o.order_id
WHERE o.status = 'placed' AND l.attribution IN ('led', 'assisted')
  AND o.placed_at >= (CAST(:first AS date)::timestamp AT TIME ZONE 'UTC')
  AND o.placed_at < ((CAST(:last AS date) + 1)::timestamp AT TIME ZONE 'UTC')
  AND {_DAY} = ANY(:days)
GROUP BY GROUPING SETS (({_DAY}, l.wine_id), ({_DAY}))
HAVING GROUPING(l.wine_id) = 1 OR l.wine_id IS NOT NULL
"""
_PERIOD = "day BETWEEN :first AND :last"


async def refresh_sales(session: AsyncSession) -> int:
    """Recompute the days whose orders changed since the last time; returns how many. The
    caller commits. Each stale mark is taken by one caller; the recomputing is one replica at
    a time (a day marked again meanwhile is recomputed after, from what is committed then),
    and a view with nothing to recompute — the usual case — pays one statement."""
    days = list(
        (await session.execute(text("DELETE FROM sales_stale_days RETURNING day"))).scalars()
    )
    if days:
        await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SALES_LOCK})
        await session.execute(text("DELETE FROM sales_days WHERE day = ANY(:days)"), {"days": days})
        await session.execute(
            text(_RECOMPUTE), {"days": days, "first": min(days), "last": max(days)}
        )
    return len(days)


async def daily_sales(session: AsyncSession, first: date, last: date) -> list[dict[str, Any]]:
    """Per UTC day with attributed sales: led and assisted revenue (₽), the orders with an
    attributed line, and the attributed lines."""
    result = await session.execute(
        text(
            "SELECT day, led, assisted, orders, lines FROM sales_days "
            f"WHERE wine = '*' AND {_PERIOD} ORDER BY day"
        ),
        {"first": first, "last": last},
    )
    return row_dicts(result)


async def sales_totals(session: AsyncSession, first: date, last: date) -> dict[str, Any]:
    """The period's led and assisted revenue, orders with an attributed line (an order with
    several lines counts once) and attributed lines."""
    result = await session.execute(
        text(
            "SELECT coalesce(sum(led), 0) AS led, coalesce(sum(assisted), 0) AS assisted, "
            "coalesce(sum(orders), 0) AS orders, coalesce(sum(lines), 0) AS lines "
            f"FROM sales_days WHERE wine = '*' AND {_PERIOD}"
        ),
        {"first": first, "last": last},
    )
    return dict(result.mappings().one())


# Per wine (a CTE of the Wines view's query, `repositories/console.py`): the orders with a line
# of it attributed led or assisted (an order is on one day, so the days' counts add up), and
# that revenue.
WINE_SALES = (
    "SELECT wine::uuid AS wine_id, sum(led) AS led, sum(assisted) AS assisted, "
    f"sum(orders) AS orders FROM sales_days WHERE wine <> '*' AND {_PERIOD} GROUP BY wine"
)
