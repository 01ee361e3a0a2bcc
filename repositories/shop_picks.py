"""The shop's boost and bury rules (`merch_rules`, migration 0014): stored, listed, resolved
against the catalog, and what the boosted and buried wines did (shows, votes, clicks, orders).

The rules in force are read once a minute per database (and at once after this process
changes them or the catalog): each answer asks `active_picks`, which costs nothing between.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, delete, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from core.shop_picks import NO_PICKS, PickRule, ShopPicks, make_rule, resolve
from repositories.catalog_cache import VOCABULARY_TTL_SECONDS, database_key, shop_picks_cache
from repositories.console import Period
from repositories.matching import canonical_country
from repositories.models import MerchRule, Wine
from repositories.wine_filters import ON_SALE


def _key(session: AsyncSession) -> str:
    return database_key(session.bind)


def _rule(row: MerchRule) -> PickRule:
    rule = make_rule(row.action, row.field, row.value, row.starts_on, row.ends_on, row.note)
    return PickRule(**{**rule.__dict__, "id": row.id})


async def list_rules(session: AsyncSession) -> list[PickRule]:
    rows = await session.scalars(select(MerchRule).order_by(MerchRule.id))
    return [_rule(r) for r in rows]


async def add_rules(
    session: AsyncSession, rules: Sequence[PickRule], admin_id: int | None = None
) -> list[int]:
    """Store the rules (the caller commits); their new ids, in order."""
    added = [
        MerchRule(
            action=r.action,
            field=r.field,
            value=r.value,
            starts_on=r.starts_on,
            ends_on=r.ends_on,
            note=r.note,
            admin_id=admin_id,
        )
        for r in rules
    ]
    session.add_all(added)
    await session.flush()
    forget_shop_picks(session)
    return [r.id for r in added]


async def delete_rule(session: AsyncSession, rule_id: int) -> bool:
    result = await session.execute(delete(MerchRule).where(MerchRule.id == rule_id))
    forget_shop_picks(session)
    return bool(getattr(result, "rowcount", 0))


async def delete_all_rules(session: AsyncSession) -> int:
    result = await session.execute(delete(MerchRule))
    forget_shop_picks(session)
    return int(getattr(result, "rowcount", 0) or 0)


def forget_shop_picks(session: AsyncSession) -> None:
    shop_picks_cache.pop(_key(session), None)


def _named_by(rule: PickRule) -> ColumnElement[bool]:
    """The wines a rule names, case-blind for names and tags."""
    value = rule.value
    if rule.field == "wine":  # the catalog's id, the feed's product id, the slug or the name
        return (
            (func.cast(Wine.id, Wine.slug.type) == value)
            | (Wine.external_id == value)
            | (Wine.slug == value)
            | (func.lower(Wine.name) == value.lower())
        )
    if rule.field == "producer":
        return func.lower(Wine.producer) == value.lower()
    if rule.field == "country":
        return func.lower(Wine.country) == canonical_country(value).lower()  # «USA» is США
    if rule.field == "tag":
        return text("EXISTS (SELECT 1 FROM unnest(wines.tags) t WHERE lower(t) = :tag)").bindparams(
            tag=value.lower()
        )
    return Wine.margin >= func.cast(value, Wine.margin.type)


async def wines_named(session: AsyncSession, rule: PickRule) -> list[uuid.UUID]:
    """The wines on sale the rule names."""
    return list(await session.scalars(select(Wine.id).where(ON_SALE, _named_by(rule))))


async def resolve_rules(session: AsyncSession, rules: Sequence[PickRule]) -> ShopPicks:
    return resolve([(r, await wines_named(session, r)) for r in rules])


async def active_picks(session: AsyncSession, today: date) -> ShopPicks:
    """The rules in force today, resolved (cached for a minute; `NO_PICKS` without rules)."""
    key = _key(session)
    cached = shop_picks_cache.get(key)
    now = time.monotonic()
    if cached is not None and cached[1] == today and now - cached[2] < VOCABULARY_TTL_SECONDS:
        return cached[0]
    rules = [r for r in await list_rules(session) if r.active_on(today)]
    picks = await resolve_rules(session, rules) if rules else NO_PICKS
    shop_picks_cache[key] = (picks, today, now)
    return picks


_DAYS = "day BETWEEN :first AND :last AND path = :path"
_STAMPS = (
    "{col} >= (CAST(:first AS date)::timestamp AT TIME ZONE 'UTC') "
    "AND {col} < ((CAST(:last AS date) + 1)::timestamp AT TIME ZONE 'UTC')"
)


async def wine_activity(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Per wine with any activity in the period: shows (the rollups), 👍, 👎, «Купить» clicks
    and the orders (placed, not cancelled) that hold it."""
    result = await session.execute(
        text(
            "WITH shown AS (SELECT value::uuid AS wine_id, sum(n) AS shown FROM fact_day_values "
            f"  WHERE dim = 'wine' AND {_DAYS} GROUP BY value), "
            "voted AS (SELECT wine_id, count(*) FILTER (WHERE vote > 0) AS up, "
            "  count(*) FILTER (WHERE vote < 0) AS down FROM feedback "
            f"  WHERE {_STAMPS.format(col='updated_at')} GROUP BY wine_id), "
            "clicked AS (SELECT wine_id, count(*) AS clicks FROM buy_clicks "
            f"  WHERE {_STAMPS.format(col='created_at')} GROUP BY wine_id), "
            "ordered AS (SELECT l.wine_id, count(DISTINCT o.order_id) AS orders "
            "  FROM order_lines l JOIN orders o ON o.order_id = l.order_id "
            f"  WHERE l.wine_id IS NOT NULL AND o.status <> 'cancelled' "
            f"  AND {_STAMPS.format(col='o.placed_at')} GROUP BY l.wine_id), "
            "ids AS (SELECT wine_id FROM shown UNION SELECT wine_id FROM voted "
            "  UNION SELECT wine_id FROM clicked UNION SELECT wine_id FROM ordered) "
            "SELECT ids.wine_id, coalesce(s.shown, 0) AS shown, coalesce(v.up, 0) AS up, "
            "coalesce(v.down, 0) AS down, coalesce(c.clicks, 0) AS clicks, "
            "coalesce(o.orders, 0) AS orders FROM ids "
            "LEFT JOIN shown s ON s.wine_id = ids.wine_id "
            "LEFT JOIN voted v ON v.wine_id = ids.wine_id "
            "LEFT JOIN clicked c ON c.wine_id = ids.wine_id "
            "LEFT JOIN ordered o ON o.wine_id = ids.wine_id"
        ),
        p.params(),
    )
    return [dict(row) for row in result.mappings().all()]


async def wine_names(session: AsyncSession, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
    if not ids:
        return {}
    rows = await session.execute(select(Wine.id, Wine.name).where(Wine.id.in_(list(ids))))
    return {wine_id: name for wine_id, name in rows}
