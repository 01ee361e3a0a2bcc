"""SQL for sending within Telegram's limits: a permit per message (one statement, the
function of migration 0016), a 429's hold for the whole bot, a person who blocked the bot,
and the outbox of alerts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from repositories.statements import Executor, driver_execute, driver_fetchall, driver_fetchrow


@dataclass(frozen=True)
class Pace:
    """The pace a permit keeps: the bot's slot and each chat's (seconds), a chat's burst."""

    bot_seconds: float
    private_seconds: float
    group_seconds: float
    chat_burst: int

    def chat_seconds(self, chat_id: int) -> float:
        return self.private_seconds if chat_id > 0 else self.group_seconds


@dataclass(frozen=True)
class PartsSent:
    """The first `parts` parts of an update's answer went out: recorded in the update ledger
    (as `UpdateLedger.mark_sent` records them, while `owner` holds the update) by the statement
    that takes the permit for the answer's next part, instead of a round trip of its own."""

    update_id: int
    parts: int
    owner: str


class Permit(NamedTuple):
    verdict: str
    wait: float
    held: bool | None  # with `PartsSent`: whether its owner still held the update


_PERMIT = "telegram_send_permit($1, $2, $3, $4, $5, $6, $7, $8)"
_PERMIT_ALONE = f"SELECT verdict, wait FROM {_PERMIT}"
# The parts sent recorded in the same statement ($9-$11), while their owner holds the update.
_PERMIT_RECORDING = (
    "WITH marked AS (UPDATE telegram_updates SET sent_parts = $10"
    " WHERE update_id = $9 AND lease_owner = $11 RETURNING 1) "
    f"SELECT p.verdict, p.wait, EXISTS (SELECT 1 FROM marked) FROM {_PERMIT} p"
)


async def take_permit(
    executor: Executor,
    bot_id: int,
    chat_id: int,
    alert: bool,
    pace: Pace,
    chat_not_before: float = 0.0,
    bot_not_before: float = 0.0,
    parts_sent: PartsSent | None = None,
) -> Permit:
    """(verdict, seconds): see alembic/versions/0016_telegram_limits.py. `chat_not_before`,
    `bot_not_before`: seconds before which this process will not send to the chat, or at all,
    by its own count. `parts_sent` is recorded in the same statement."""
    args: list[Any] = [
        bot_id,
        chat_id,
        alert,
        pace.bot_seconds,
        pace.chat_seconds(chat_id),
        pace.chat_burst,
        chat_not_before,
        bot_not_before,
    ]
    if parts_sent is None:
        sql = _PERMIT_ALONE
    else:
        sql = _PERMIT_RECORDING
        args += [parts_sent.update_id, parts_sent.parts, parts_sent.owner]
    row = await driver_fetchrow(executor, sql, *args)
    assert row is not None
    return Permit(str(row[0]), float(row[1]), None if parts_sent is None else bool(row[2]))


async def hold_bot(executor: Executor, bot_id: int, seconds: float) -> None:
    """Nothing goes out from any replica for `seconds` (a 429's retry_after)."""
    await driver_execute(
        executor,
        "INSERT INTO telegram_send_pace AS p (bot_id, hold_until) "
        "VALUES ($1, clock_timestamp() + make_interval(secs => $2)) "
        "ON CONFLICT (bot_id) DO UPDATE SET hold_until = "
        "greatest(p.hold_until, EXCLUDED.hold_until)",
        bot_id,
        seconds,
    )


async def mark_blocked(executor: Executor, user_id: int) -> bool:
    """The person blocked the bot; True when that is news."""
    touched = await driver_execute(
        executor,
        "UPDATE users SET is_active = false, updated_at = now() WHERE id = $1 AND is_active",
        user_id,
    )
    return touched > 0


async def forget_pace(executor: Executor, older_than: timedelta) -> int:
    """Chats whose pace ran out long ago hold nothing back: their rows go."""
    return await driver_execute(
        executor,
        "DELETE FROM telegram_chat_pace WHERE next_at < now() - make_interval(secs => $1)",
        older_than.total_seconds(),
    )


@dataclass(frozen=True)
class QueuedMessage:
    id: int
    chat_id: int
    html: str  # Telegram HTML
    keyboard: dict[str, Any] | None  # an InlineKeyboardMarkup as JSON
    attempts: int


async def enqueue(
    executor: Executor, kind: str, messages: Sequence[tuple[int, str, dict[str, Any] | None]]
) -> int:
    """Queue (chat, HTML text, keyboard) messages, in their order (ids are given in it, and
    the outbox is sent oldest first); people who blocked the bot are left out. Returns how
    many were queued."""
    if not messages:
        return 0
    chats = [chat for chat, _, _ in messages]
    texts = [text for _, text, _ in messages]
    markups = [json.dumps(markup) if markup is not None else None for _, _, markup in messages]
    return await driver_execute(
        executor,
        "INSERT INTO outbox_messages (chat_id, kind, text, reply_markup) "
        "SELECT m.chat_id, $1, m.text, m.markup::jsonb "
        "FROM unnest($2::bigint[], $3::text[], $4::text[]) WITH ORDINALITY "
        "AS m(chat_id, text, markup, n) "
        "WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.chat_id AND NOT u.is_active) "
        "ORDER BY m.n",  # a hashed anti-join would give the ids in another order
        kind,
        chats,
        texts,
        markups,
    )


async def claim(executor: Executor, limit: int, lease: timedelta) -> list[QueuedMessage]:
    """Up to `limit` due messages, oldest first, each leased for `lease` (a process that dies
    holding them leaves them to the others once the lease runs out)."""
    rows = await driver_fetchall(
        executor,
        "UPDATE outbox_messages o SET not_before = now() + make_interval(secs => $2), "
        "attempts = o.attempts + 1 "
        "FROM (SELECT id FROM outbox_messages WHERE not_before <= now() "
        "      ORDER BY not_before, id LIMIT $1 FOR UPDATE SKIP LOCKED) due "
        "WHERE o.id = due.id RETURNING o.id, o.chat_id, o.text, o.reply_markup, o.attempts",
        limit,
        lease.total_seconds(),
    )
    rows.sort(key=lambda row: int(row[0]))
    return [QueuedMessage(int(r[0]), int(r[1]), str(r[2]), _markup(r[3]), int(r[4])) for r in rows]


async def finish(executor: Executor, message_id: int) -> None:
    """Sent (or never to be sent): the message leaves the outbox."""
    await driver_execute(executor, "DELETE FROM outbox_messages WHERE id = $1", message_id)


async def postpone(executor: Executor, message_id: int, seconds: float, counted: bool) -> None:
    """Due again in `seconds`; a wait for its chat's pace is not an attempt (`counted`)."""
    await driver_execute(
        executor,
        "UPDATE outbox_messages SET not_before = now() + make_interval(secs => $2), "
        "attempts = greatest(attempts - $3, 0) WHERE id = $1",
        message_id,
        float(seconds),
        0 if counted else 1,
    )


async def waiting(executor: Executor) -> int:
    row = await driver_fetchrow(executor, "SELECT count(*) FROM outbox_messages")
    return int(row[0]) if row is not None else 0


def _markup(raw: Any) -> dict[str, Any] | None:
    if raw is None:
        return None
    value = json.loads(raw) if isinstance(raw, str) else raw
    return value if isinstance(value, dict) else None
