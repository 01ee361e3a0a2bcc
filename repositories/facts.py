"""Writing what the shop's console reads: a row of request facts per answer, «Купить» clicks,
catalog imports; and clearing the request wordings older than the message retention."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import AnswerFact, CatalogSync
from repositories.statements import Executor, driver_execute

# Every column but the time of writing, with the Python-side default of each (NULL for most):
# one statement for every fact, written for the driver (nothing to build and compile per answer).
FACT_COLUMNS = tuple(
    (c.key, c.default.arg if c.default is not None and c.default.is_scalar else None)
    for c in AnswerFact.__table__.columns
    if c.server_default is None
)
FACT_KEYS = frozenset(key for key, _ in FACT_COLUMNS)


def fact_insert(first: int, when: str | None = None) -> str:
    """The fact's INSERT written for the driver, its values from parameter `first` on in the
    order of FACT_COLUMNS; `when`: a condition the row is written on."""
    columns = ", ".join(key for key, _ in FACT_COLUMNS)
    values = ", ".join(f"${n}" for n in range(first, first + len(FACT_COLUMNS)))
    if when is None:
        return f"INSERT INTO answer_facts ({columns}) VALUES ({values})"
    return f"INSERT INTO answer_facts ({columns}) SELECT {values} WHERE {when}"


def fact_params(values: dict[str, Any]) -> list[Any]:
    """A fact's values in the order of FACT_COLUMNS, each left out as its default."""
    if not values.keys() <= FACT_KEYS:
        raise ValueError(f"not columns of a fact: {sorted(values.keys() - FACT_KEYS)}")
    return [values.get(key, default) for key, default in FACT_COLUMNS]


_INSERT_FACT = fact_insert(1)


async def record_fact(session: Executor, values: dict[str, Any]) -> None:
    """One INSERT in the caller's transaction (the answer's own)."""
    await driver_execute(session, _INSERT_FACT, *fact_params(values))


async def record_click(
    session: AsyncSession,
    wine_id: uuid.UUID,
    fact_id: uuid.UUID | None,
    token: str | None = None,
) -> None:
    """The click, with the person of the answer (or of the alert) it came from (so /forget
    finds it) and the referral token the shop's URL carries (an order brings it back). A click
    on an alert's «Купить» opens the alert."""
    await session.execute(
        text(
            "INSERT INTO buy_clicks (user_id, fact_id, wine_id, token) "
            "VALUES (coalesce((SELECT user_id FROM answer_facts WHERE id = :f), "
            "(SELECT user_id FROM alerts_sent WHERE id = :f)), :f, :w, :t)"
        ),
        {"f": fact_id, "w": wine_id, "t": token},
    )
    await session.execute(
        text("UPDATE alerts_sent SET opened_at = now() WHERE id = :f AND opened_at IS NULL"),
        {"f": fact_id},
    )


async def record_catalog_sync(session: AsyncSession, values: dict[str, Any]) -> None:
    session.add(CatalogSync(**values))


async def clear_wordings(session: AsyncSession, older_than: timedelta) -> int:
    """The words of requests older than the retention go; the counted facts stay."""
    result = await session.execute(
        text(
            "UPDATE answer_facts SET wording = NULL WHERE wording IS NOT NULL "
            "AND created_at < now() - make_interval(secs => :s)"
        ),
        {"s": older_than.total_seconds()},
    )
    return int(result.rowcount or 0)


async def use_console_link(session: AsyncSession, nonce: str) -> bool:
    """True the first time a link's nonce is used, False ever after (links expire in
    minutes: used nonces older than a day are dropped)."""
    await session.execute(
        text("DELETE FROM console_links WHERE used_at < now() - interval '1 day'")
    )
    inserted = await session.scalar(
        text("INSERT INTO console_links (nonce) VALUES (:n) ON CONFLICT DO NOTHING RETURNING 1"),
        {"n": nonce},
    )
    return inserted is not None
