"""SQL for alerts (migration 0017): subscriptions, claiming the ones a catalog change made due
(each claimed by one transaction however many replicas look at once: the claim deletes the
subscription, or moves a price subscription's reference price down, and a second claimant's
statement then finds nothing left to take), the alerts sent and what became of them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from repositories.statements import Executor, driver_execute, driver_fetchall, driver_fetchrow

# A person who blocked the bot is not written to: their subscriptions wait (they may unblock).
_REACHABLE = "NOT EXISTS (SELECT 1 FROM users u WHERE u.id = s.user_id AND NOT u.is_active)"


@dataclass(frozen=True)
class Subscription:
    id: int
    kind: str  # 'name', 'wine', 'price'
    wine_id: uuid.UUID | None
    asked_name: str | None
    wine_name: str | None
    ref_price: Decimal | None
    expires_at: datetime


@dataclass(frozen=True)
class NameWanted:
    id: int
    user_id: int
    asked_name: str


@dataclass(frozen=True)
class Claimed:
    """A subscription claimed for one alert: the person, the wine, the price it was measured
    from (a price drop's previous price)."""

    subscription_id: int
    user_id: int
    kind: str
    wine_id: uuid.UUID
    before: Decimal | None


async def subscribe(
    executor: Executor,
    user_id: int,
    kind: str,
    days: float,
    *,
    wine_id: uuid.UUID | None = None,
    asked_name: str | None = None,
    name_key: str | None = None,
    ref_price: Decimal | None = None,
) -> bool:
    """True when new; an existing one only runs longer (and keeps its reference price)."""
    target = "(user_id, name_key) WHERE kind = 'name'"
    if kind != "name":
        target = "(user_id, kind, wine_id) WHERE wine_id IS NOT NULL"
    row = await driver_fetchrow(
        executor,
        "INSERT INTO alert_subscriptions "
        "(user_id, kind, wine_id, asked_name, name_key, ref_price, expires_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7)) "
        f"ON CONFLICT {target} DO UPDATE SET expires_at = EXCLUDED.expires_at "
        "RETURNING (xmax = 0)",
        user_id,
        kind,
        wine_id,
        asked_name,
        name_key,
        ref_price,
        days * 86400.0,
    )
    return bool(row and row[0])


async def asked_name(executor: Executor, fact_id: uuid.UUID, user_id: int) -> str | None:
    """The wine name an answer to this person lacked (its fact row), if any."""
    row = await driver_fetchrow(
        executor,
        "SELECT asked_name FROM answer_facts WHERE id = $1 AND user_id = $2",
        fact_id,
        user_id,
    )
    return str(row[0]) if row and row[0] else None


async def of_person(executor: Executor, user_id: int) -> list[Subscription]:
    rows = await driver_fetchall(
        executor,
        "SELECT s.id, s.kind, s.wine_id, s.asked_name, w.name, s.ref_price, s.expires_at "
        "FROM alert_subscriptions s LEFT JOIN wines w ON w.id = s.wine_id "
        "WHERE s.user_id = $1 AND s.expires_at > now() ORDER BY s.created_at, s.id",
        user_id,
    )
    return [Subscription(*row) for row in rows]


async def cancel(executor: Executor, user_id: int, subscription_id: int) -> bool:
    return (
        await driver_execute(
            executor,
            "DELETE FROM alert_subscriptions WHERE id = $1 AND user_id = $2",
            subscription_id,
            user_id,
        )
        > 0
    )


async def cancel_price(executor: Executor, user_id: int, wine_id: uuid.UUID) -> bool:
    return (
        await driver_execute(
            executor,
            "DELETE FROM alert_subscriptions WHERE user_id = $1 AND kind = 'price' "
            "AND wine_id = $2",
            user_id,
            wine_id,
        )
        > 0
    )


async def price_watched(executor: Executor, user_id: int) -> set[uuid.UUID]:
    rows = await driver_fetchall(
        executor,
        "SELECT wine_id FROM alert_subscriptions WHERE user_id = $1 AND kind = 'price' "
        "AND expires_at > now()",
        user_id,
    )
    return {row[0] for row in rows}


async def expire(executor: Executor) -> int:
    return await driver_execute(
        executor, "DELETE FROM alert_subscriptions WHERE expires_at <= now()"
    )


async def catalog_version(executor: Executor) -> tuple[int, str]:
    """Read fresh (not the per-process cache): another process may have just changed it."""
    row = await driver_fetchrow(executor, "SELECT count(*), max(updated_at)::text FROM wines")
    assert row is not None
    return int(row[0]), str(row[1])


async def names_wanted(executor: Executor, after_id: int) -> list[NameWanted]:
    rows = await driver_fetchall(
        executor,
        "SELECT id, user_id, asked_name FROM alert_subscriptions "
        "WHERE kind = 'name' AND id > $1 AND expires_at > now() ORDER BY id",
        after_id,
    )
    return [NameWanted(int(r[0]), int(r[1]), str(r[2])) for r in rows]


async def claim_names(executor: Executor, found: dict[int, uuid.UUID]) -> list[Claimed]:
    """Name subscriptions whose name the index now finds (subscription → the wine on sale it
    found); those another transaction took first are left out."""
    if not found:
        return []
    rows = await driver_fetchall(
        executor,
        "DELETE FROM alert_subscriptions s USING unnest($1::bigint[], $2::uuid[]) AS f(id, wine) "
        f"WHERE s.id = f.id AND s.kind = 'name' AND {_REACHABLE} RETURNING s.id, s.user_id, f.wine",
        list(found),
        list(found.values()),
    )
    return [Claimed(int(r[0]), int(r[1]), "name", r[2], None) for r in rows]


async def claim_back_in_stock(executor: Executor, limit: int) -> list[Claimed]:
    rows = await driver_fetchall(
        executor,
        "DELETE FROM alert_subscriptions s USING ("
        "  SELECT s2.id FROM alert_subscriptions s2 JOIN wines w ON w.id = s2.wine_id "
        "  WHERE s2.kind = 'wine' AND w.available AND s2.expires_at > now() "
        f"  AND {_REACHABLE.replace('s.', 's2.')} "
        "  ORDER BY s2.id LIMIT $1 FOR UPDATE OF s2 SKIP LOCKED) due "
        "WHERE s.id = due.id RETURNING s.id, s.user_id, s.wine_id",
        limit,
    )
    return [Claimed(int(r[0]), int(r[1]), "wine", r[2], None) for r in rows]


async def claim_price_drops(executor: Executor, drop: Decimal, limit: int) -> list[Claimed]:
    """Favourites whose price fell by `drop` (0.10 = 10 %) or more from the reference price:
    the reference moves to the new price, so one drop alerts once. A price that rose first
    raises the reference (a later fall is measured from the higher price)."""
    await driver_execute(
        executor,
        "UPDATE alert_subscriptions s SET ref_price = w.price_rub FROM wines w "
        "WHERE s.kind = 'price' AND w.id = s.wine_id AND w.price_rub > s.ref_price",
    )
    rows = await driver_fetchall(
        executor,
        "UPDATE alert_subscriptions s SET ref_price = w.price_rub "
        "FROM wines w, ("
        "  SELECT s2.id, s2.ref_price FROM alert_subscriptions s2 JOIN wines w2 "
        "  ON w2.id = s2.wine_id WHERE s2.kind = 'price' AND w2.available "
        "  AND s2.expires_at > now() AND w2.price_rub <= s2.ref_price * (1 - $1::numeric) "
        f"  AND {_REACHABLE.replace('s.', 's2.')} "
        "  ORDER BY s2.id LIMIT $2 FOR UPDATE OF s2 SKIP LOCKED) due "
        "WHERE s.id = due.id AND w.id = s.wine_id "
        "AND w.price_rub <= s.ref_price * (1 - $1::numeric) "
        "RETURNING s.id, s.user_id, s.wine_id, due.ref_price",
        drop,
        limit,
    )
    return [Claimed(int(r[0]), int(r[1]), "price", r[2], r[3]) for r in rows]


async def record_sent(
    executor: Executor, alerts: list[tuple[uuid.UUID, int, str, uuid.UUID, Decimal]]
) -> None:
    """(alert id, person, kind, wine, its price) of each alert queued."""
    if not alerts:
        return
    await driver_execute(
        executor,
        "INSERT INTO alerts_sent (id, user_id, kind, wine_id, price_rub) "
        "SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::uuid[], $5::numeric[])",
        [a[0] for a in alerts],
        [a[1] for a in alerts],
        [a[2] for a in alerts],
        [a[3] for a in alerts],
        [a[4] for a in alerts],
    )


async def opened_wine(executor: Executor, user_id: int, wine_id: uuid.UUID) -> None:
    """A button pressed on a wine's card: the person's unopened alerts of that wine opened."""
    await driver_execute(
        executor,
        "UPDATE alerts_sent SET opened_at = now() "
        "WHERE user_id = $1 AND wine_id = $2 AND opened_at IS NULL",
        user_id,
        wine_id,
    )


async def counts(executor: Executor, since: datetime, until: datetime) -> tuple[int, int, int]:
    """Alerts sent in the window, opened, and ordered (an order's line led by the alert's own
    «Купить» click)."""
    row = await driver_fetchrow(
        executor,
        "SELECT count(*), count(a.opened_at), count(*) FILTER (WHERE EXISTS ("
        "  SELECT 1 FROM buy_clicks b JOIN order_lines l ON l.click_id = b.id "
        "  WHERE b.fact_id = a.id AND l.attribution = 'led')) "
        "FROM alerts_sent a WHERE a.created_at >= $1 AND a.created_at < $2",
        since,
        until,
    )
    assert row is not None
    return int(row[0]), int(row[1]), int(row[2])
