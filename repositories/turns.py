"""One turn of a conversation in the database: what it starts from, read in one statement (its
store, in one statement too, is repositories/turn_store.py).

The conversation a turn goes on with is the person's open one that has not gone quiet for
longer than the inactivity limit. When there is none, nothing is written at read time: the
turn's store ends the quiet one and starts the new one with the turn's messages, so a turn
that fails before its store leaves the conversations as they were. The same holds for the wine
of the shop's page the web chat is on: read with the rest, it joins the conversation with the
turn's own messages.
"""

from __future__ import annotations

import contextlib
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy.dialects.postgresql import insert as pg_insert

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, Sweetness, WineType
from repositories.models import User
from repositories.statements import Executor, driver_fetchrow

HISTORY_LIMIT = 200


@dataclass(frozen=True)
class PageWine:
    """The wine of the shop's page the web chat is on, not yet in the conversation: it joins
    it with the turn, as if it had just been shown, its style what is being looked for («что-то
    похожее, но дешевле» then means this style, cheaper than this wine)."""

    wine_id: uuid.UUID
    messages: list[dict[str, Any]]  # the look at the page: a user's and an assistant's message


@dataclass(frozen=True)
class Thread:
    """Where a turn's messages go: the conversation it went on with, or (None) a new one;
    after the wine of the shop's page, when it joins the conversation with them."""

    conversation_id: uuid.UUID | None
    page_wine: PageWine | None = None


@dataclass(frozen=True)
class TurnStart:
    """What a turn starts from: the person's taste (👍/👎 merged with the quiz, as it was
    kept), and the conversation it goes on with."""

    taste: dict[str, Any] = field(default_factory=dict)
    language_code: str | None = None
    conversation_id: uuid.UUID | None = None  # None: a new conversation starts with this turn
    history: list[dict[str, Any]] = field(default_factory=list)  # OpenAI chat format, oldest first
    page_wine: PageWine | None = None  # at the end of `history` already


# Written for the driver: $1 the person, $2 the inactivity limit in seconds, $3 remember, $4
# HISTORY_LIMIT, $5 and $6 the page's wine by our id or the shop's.
_READ = (
    "SELECT u.taste, u.language_code, c.id, "
    " CASE WHEN c.id IS NOT NULL THEN ("
    "  SELECT coalesce(json_agg(json_build_object('role', m.role, 'content', m.content,"
    "   'tool_calls', m.tool_calls, 'tool_call_id', m.tool_call_id) ORDER BY m.id), '[]')"
    "  FROM (SELECT id, role, content, tool_calls, tool_call_id FROM messages"
    "   WHERE conversation_id = c.id ORDER BY id DESC LIMIT $4) m"
    " ) END AS history, "
    " p.page_id, p.page_name, p.page_type, p.page_sweetness, p.page_price "
    "FROM users u "
    "LEFT JOIN LATERAL ("
    " SELECT id FROM conversations"
    " WHERE user_id = u.id AND ended_at IS NULL"
    "  AND last_activity_at >= now() - make_interval(secs => $2)"
    " ORDER BY started_at DESC LIMIT 1"
    ") c ON $3 "
    "LEFT JOIN LATERAL ("
    " SELECT w.id AS page_id, w.name AS page_name, CAST(w.wine_type AS text) AS page_type,"
    "  CAST(w.sweetness AS text) AS page_sweetness, w.price_rub AS page_price"
    " FROM wines w WHERE w.id = $5 OR w.external_id = $6 LIMIT 1"
    ") p ON $3 AND (c.id IS NULL OR NOT EXISTS ("
    " SELECT FROM messages WHERE conversation_id = c.id AND p.page_id = ANY(wine_ids))) "
    "WHERE u.id = $1"
)


async def turn_start(
    session: Executor,
    user_id: int,
    inactivity: timedelta,
    *,
    remember: bool = True,
    page: str | None = None,
) -> TurnStart:
    """In one statement: the person's taste, their open conversation and its last
    HISTORY_LIMIT messages (`remember=False`: no conversation), and the wine of the shop's page
    (`page`: its id or the shop's own product id) unless the conversation has it already. A
    person not seen before is registered, and starts from nothing."""
    page_id: uuid.UUID | None = None
    with contextlib.suppress(ValueError):  # not an id of ours: the shop's own
        page_id = uuid.UUID(page) if page is not None else None
    row = await driver_fetchrow(
        session,
        _READ,
        user_id,
        inactivity.total_seconds(),
        remember,
        HISTORY_LIMIT,
        page_id,
        page if page_id is None else None,
    )
    if row is None:
        await session.execute(
            pg_insert(User)
            .values(id=user_id, is_active=True)
            .on_conflict_do_nothing(index_elements=[User.id])
        )
        return TurnStart()
    taste, language, conversation_id, history, *page_row = row
    page_wine = _page_wine(*page_row)
    return TurnStart(
        dict(taste or {}),
        language,
        conversation_id,
        [_chat_message(m) for m in history or ()] + (page_wine.messages if page_wine else []),
        page_wine,
    )


def _page_wine(
    wine_id: uuid.UUID | None, name: str, wine_type: str, sweetness: str, price: Decimal
) -> PageWine | None:
    if wine_id is None:
        return None
    style = f"{WINE_TYPE_RU[WineType(wine_type)]} {SWEETNESS_RU[Sweetness(sweetness)]}".strip()
    return PageWine(
        wine_id,
        [
            {"role": "user", "content": f"Смотрю на сайте магазина {style} вино"},
            {
                "role": "assistant",
                "content": f"Вы смотрите «{name}», {int(price)} ₽ [WINE:{wine_id}]",
            },
        ],
    )


def _chat_message(stored: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {"role": stored["role"], "content": stored["content"]}
    if stored.get("tool_calls"):
        item["tool_calls"] = stored["tool_calls"]
    if stored.get("tool_call_id"):
        item["tool_call_id"] = stored["tool_call_id"]
    return item
