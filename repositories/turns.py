"""One turn of a conversation in the database: what it starts from, read in one statement, and
the turn stored in the caller's one transaction (its messages and the answer's row).

The conversation a turn goes on with is the person's open one that has not gone quiet for
longer than the inactivity limit. When there is none, nothing is written at read time: the
turn's store ends the quiet one and starts the new one with the turn's messages, so a turn
that fails before its store leaves the conversations as they were.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.dialects.postgresql import JSON, JSONB, UUID
from sqlalchemy.dialects.postgresql import insert as pg_insert

from core.recommendation import Recommendation
from repositories.database import Executor
from repositories.models import Answer, Message, User

HISTORY_LIMIT = 200


@dataclass(frozen=True)
class Thread:
    """Where a turn's messages go: the conversation it went on with, or (None) a new one."""

    conversation_id: uuid.UUID | None


@dataclass(frozen=True)
class TurnStart:
    """What a turn starts from: the person's taste, and the conversation it goes on with."""

    taste_profile: dict[str, Any] = field(default_factory=dict)
    quiz: dict[str, Any] = field(default_factory=dict)
    language_code: str | None = None
    conversation_id: uuid.UUID | None = None  # None: a new conversation starts with this turn
    history: list[dict[str, Any]] = field(default_factory=list)  # OpenAI chat format, oldest first


_READ = text(
    "SELECT u.taste_profile, u.language_code, q.answers, c.id, "
    " CASE WHEN c.id IS NOT NULL THEN ("
    "  SELECT coalesce(json_agg(json_build_object('role', m.role, 'content', m.content,"
    "   'tool_calls', m.tool_calls, 'tool_call_id', m.tool_call_id) ORDER BY m.id), '[]')"
    "  FROM (SELECT id, role, content, tool_calls, tool_call_id FROM messages"
    "   WHERE conversation_id = c.id ORDER BY id DESC LIMIT :limit) m"
    " ) END AS history "
    "FROM users u "
    "LEFT JOIN quiz_answers q ON q.user_id = u.id "
    "LEFT JOIN LATERAL ("
    " SELECT id FROM conversations"
    " WHERE user_id = u.id AND ended_at IS NULL"
    "  AND last_activity_at >= now() - make_interval(secs => :quiet)"
    " ORDER BY started_at DESC LIMIT 1"
    ") c ON :remember "
    "WHERE u.id = :user"
).columns(
    taste_profile=JSONB,
    answers=JSONB,
    id=UUID(as_uuid=True),
    history=JSON,
)


async def turn_start(
    session: Executor, user_id: int, inactivity: timedelta, *, remember: bool = True
) -> TurnStart:
    """In one statement: the person, their quiz, their open conversation and its last
    HISTORY_LIMIT messages (`remember=False`: no conversation). A person not seen before is
    registered, and starts from nothing."""
    row = (
        await session.execute(
            _READ,
            {
                "user": user_id,
                "quiet": inactivity.total_seconds(),
                "remember": remember,
                "limit": HISTORY_LIMIT,
            },
        )
    ).one_or_none()
    if row is None:
        await session.execute(
            pg_insert(User)
            .values(id=user_id, is_active=True)
            .on_conflict_do_nothing(index_elements=[User.id])
        )
        return TurnStart()
    profile, language, quiz, conversation_id, history = row
    return TurnStart(
        dict(profile or {}),
        dict(quiz or {}),
        language,
        conversation_id,
        [_chat_message(m) for m in history or ()],
    )


def _chat_message(stored: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {"role": stored["role"], "content": stored["content"]}
    if stored.get("tool_calls"):
        item["tool_calls"] = stored["tool_calls"]
    if stored.get("tool_call_id"):
        item["tool_call_id"] = stored["tool_call_id"]
    return item


async def store_turn(
    session: Executor, user_id: int | None, thread: Thread | None, rec: Recommendation
) -> None:
    """In the caller's transaction: the turn's messages, when it is remembered (`thread`; the
    last message carries the wines shown), and the answer's row (what /stats counts)."""
    if thread is not None and user_id is not None:
        await _store_messages(
            session, user_id, thread.conversation_id, rec.new_messages, [w.id for w in rec.wines]
        )
    await session.execute(
        insert(Answer).values(
            user_id=user_id,
            path=rec.path,
            llm_calls=rec.llm_calls,
            duration_ms=int(rec.timings_ms.get("total", 0)),
        )
    )


async def _store_messages(
    session: Executor,
    user_id: int,
    conversation_id: uuid.UUID | None,
    messages: list[dict[str, Any]],
    wine_ids: list[uuid.UUID],
) -> None:
    """The messages in the conversation the turn went on with, or in a new one that ends the
    person's open one."""
    if conversation_id is None:
        conversation_id = (
            await session.execute(
                text(
                    "WITH ended AS (UPDATE conversations SET ended_at = now()"
                    " WHERE user_id = :u AND ended_at IS NULL) "
                    "INSERT INTO conversations (user_id) VALUES (:u) RETURNING id"
                ),
                {"u": user_id},
            )
        ).scalar_one()
    else:
        await session.execute(
            text("UPDATE conversations SET last_activity_at = now() WHERE id = :c"),
            {"c": conversation_id},
        )
    if messages:
        last = len(messages) - 1
        await session.execute(
            insert(Message.__table__),
            [
                {
                    "conversation_id": conversation_id,
                    "role": m["role"],
                    "content": m.get("content"),
                    "tool_calls": m.get("tool_calls"),
                    "tool_call_id": m.get("tool_call_id"),
                    "wine_ids": wine_ids if index == last and wine_ids else None,
                }
                for index, m in enumerate(messages)
            ],
        )
