"""SQL for the shop's orders (migration 0014): an idempotent upsert by the shop's order id —
the batch is COPYed into temporary tables and applied with a few set statements, so 100,000
orders take seconds — and each changed order's lines attributed to the sommelier.

A line is *led* when the order's referral token names a «Купить» click on that line's wine,
made within the window before the order; *assisted* when the token's person was shown that
wine (`answer_facts.wine_ids`) within the window; otherwise *none*. A cancelled order's lines
count nothing (attribution none), so revenue never includes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import OrderSync

# Imports of orders take turns (a transaction-level lock): two webhooks carrying the same order
# at once would otherwise both replace its lines and one would fail on the other's.
IMPORT_LOCK_KEY = 72_6578_0043
# A click may be stamped a little after the shop's own time of the order (two clocks).
CLOCK_SKEW = timedelta(hours=1)

StagedOrder = tuple[str, datetime | None, str, str | None, bool, Decimal]
StagedLine = tuple[str, int, str, int, Decimal]


@dataclass
class UpsertCounts:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    cancelled: int = 0


_STAGE = (
    "CREATE TEMP TABLE staged_orders (order_id text PRIMARY KEY, placed_at timestamptz, "
    "status text NOT NULL, token text, has_lines boolean NOT NULL, total_rub numeric(14, 2)) "
    "ON COMMIT DROP",
    "CREATE TEMP TABLE staged_lines (order_id text, line_no smallint, product text, "
    "quantity integer, price_rub numeric(12, 2)) ON COMMIT DROP",
)
_LINE_SIGNATURE = (
    "string_agg(line_no || ':' || product || ':' || quantity || ':' || price_rub, '|' "
    "ORDER BY line_no)"
)
# Orders new or different from what is stored (a cancellation alone compares only its status).
_CHANGED = f"""
CREATE TEMP TABLE changed_orders ON COMMIT DROP AS
SELECT s.order_id, o.order_id IS NULL AS is_new, s.has_lines, s.status
FROM staged_orders s
LEFT JOIN orders o USING (order_id)
LEFT JOIN (SELECT order_id, {_LINE_SIGNATURE} AS sig FROM staged_lines GROUP BY order_id) n
  USING (order_id)
LEFT JOIN (SELECT l.order_id, {_LINE_SIGNATURE} AS sig FROM order_lines l
           JOIN staged_orders s2 ON s2.order_id = l.order_id AND s2.has_lines
           GROUP BY l.order_id) c USING (order_id)
WHERE o.order_id IS NULL OR o.status <> s.status
   OR (s.has_lines AND (o.placed_at <> s.placed_at OR o.token IS DISTINCT FROM s.token
                        OR n.sig IS DISTINCT FROM c.sig))
"""
_UPSERT_FULL = """
INSERT INTO orders (order_id, placed_at, status, token, source, total_rub)
SELECT s.order_id, s.placed_at, s.status, s.token, :source, s.total_rub
FROM staged_orders s JOIN changed_orders c USING (order_id) WHERE s.has_lines
ON CONFLICT (order_id) DO UPDATE SET placed_at = excluded.placed_at, status = excluded.status,
  token = excluded.token, source = excluded.source, total_rub = excluded.total_rub,
  updated_at = now()
"""
_UPSERT_STATUS = """
INSERT INTO orders (order_id, placed_at, status, token, source, total_rub)
SELECT s.order_id, coalesce(s.placed_at, now()), s.status, s.token, :source, 0
FROM staged_orders s JOIN changed_orders c USING (order_id) WHERE NOT s.has_lines
ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, source = excluded.source,
  updated_at = now()
"""
_REPLACE_LINES = (
    "DELETE FROM order_lines l USING changed_orders c "
    "WHERE l.order_id = c.order_id AND c.has_lines",
    """
    INSERT INTO order_lines (order_id, line_no, product, wine_id, quantity, price_rub)
    SELECT l.order_id, l.line_no, l.product,
           coalesce(w.id, (SELECT id FROM wines WHERE id::text = l.product)),
           l.quantity, l.price_rub
    FROM staged_lines l JOIN changed_orders c USING (order_id)
    LEFT JOIN wines w ON w.external_id = l.product
    """,
)
# Every line of a changed order, attributed afresh (`:window` before the order, `:skew` after).
_ATTRIBUTE = """
UPDATE order_lines l SET attribution = a.attribution, user_id = a.user_id, click_id = a.click_id
FROM (
  SELECT l.order_id, l.line_no,
    CASE WHEN o.status = 'cancelled' THEN 'none'
         WHEN led THEN 'led' WHEN shown THEN 'assisted' ELSE 'none' END AS attribution,
    CASE WHEN o.status <> 'cancelled' AND (led OR shown) THEN b.user_id END AS user_id,
    CASE WHEN o.status <> 'cancelled' AND led THEN b.id END AS click_id
  FROM order_lines l
  JOIN changed_orders c ON c.order_id = l.order_id
  JOIN orders o ON o.order_id = l.order_id
  CROSS JOIN (SELECT make_interval(secs => :window) AS back,
                     make_interval(secs => :skew) AS ahead) w
  LEFT JOIN buy_clicks b ON b.token = o.token
    AND b.created_at BETWEEN o.placed_at - w.back AND o.placed_at + w.ahead
  CROSS JOIN LATERAL (SELECT b.wine_id = l.wine_id AS led) k
  CROSS JOIN LATERAL (SELECT b.user_id IS NOT NULL AND l.wine_id IS NOT NULL AND EXISTS (
      SELECT 1 FROM answer_facts f WHERE f.user_id = b.user_id AND l.wine_id = ANY(f.wine_ids)
        AND f.created_at BETWEEN o.placed_at - w.back AND o.placed_at + w.ahead) AS shown) s
) a
WHERE l.order_id = a.order_id AND l.line_no = a.line_no
"""
_COUNTS = (
    "SELECT count(*) FILTER (WHERE is_new), count(*) FILTER (WHERE NOT is_new), "
    "count(*) FILTER (WHERE status = 'cancelled') FROM changed_orders"
)


async def upsert_orders(
    session: AsyncSession,
    orders: Sequence[StagedOrder],
    lines: Sequence[StagedLine],
    source: str,
    window: timedelta,
) -> UpsertCounts:
    """Apply the batch in the session's transaction (the caller commits or rolls back)."""
    await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": IMPORT_LOCK_KEY})
    for statement in _STAGE:
        await session.execute(text(statement))
    raw = await (await session.connection()).get_raw_connection()
    copy = raw.driver_connection
    assert copy is not None
    await copy.copy_records_to_table(
        "staged_orders",
        records=orders,
        columns=["order_id", "placed_at", "status", "token", "has_lines", "total_rub"],
    )
    await copy.copy_records_to_table(
        "staged_lines",
        records=lines,
        columns=["order_id", "line_no", "product", "quantity", "price_rub"],
    )
    await session.execute(text("ANALYZE staged_orders"))
    await session.execute(text("ANALYZE staged_lines"))
    await session.execute(text(_CHANGED))
    await session.execute(text(_UPSERT_FULL), {"source": source})
    await session.execute(text(_UPSERT_STATUS), {"source": source})
    for statement in _REPLACE_LINES:
        await session.execute(text(statement))
    await session.execute(
        text(_ATTRIBUTE), {"window": window.total_seconds(), "skew": CLOCK_SKEW.total_seconds()}
    )
    inserted, updated, cancelled = (await session.execute(text(_COUNTS))).one()
    await session.execute(text("DROP TABLE changed_orders, staged_lines, staged_orders"))
    return UpsertCounts(
        inserted=int(inserted),
        updated=int(updated),
        unchanged=len(orders) - int(inserted) - int(updated),
        cancelled=int(cancelled),
    )


async def record_order_sync(session: AsyncSession, values: dict[str, Any]) -> None:
    session.add(OrderSync(**values))


async def order_syncs(session: AsyncSession, limit: int = 20) -> list[dict[str, Any]]:
    result = await session.execute(
        text(
            "SELECT created_at, source, rows, inserted, updated, unchanged, cancelled, skipped, "
            "reasons, error FROM order_syncs ORDER BY created_at DESC, id DESC LIMIT :limit"
        ),
        {"limit": limit},
    )
    return [dict(r) for r in result.mappings()]


async def attributed_revenue(session: AsyncSession) -> dict[str, dict[str, Any]]:
    """Lines and roubles per attribution over orders that stand (not cancelled)."""
    result = await session.execute(
        text(
            "SELECT l.attribution, count(*) AS lines, sum(l.quantity * l.price_rub) AS rub "
            "FROM order_lines l JOIN orders o USING (order_id) "
            "WHERE o.status <> 'cancelled' GROUP BY l.attribution"
        )
    )
    return {
        str(r["attribution"]): {"lines": int(r["lines"]), "rub": Decimal(r["rub"] or 0)}
        for r in result.mappings()
    }
