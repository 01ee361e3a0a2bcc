"""The outbox: messages nobody is waiting for (alerts), queued in PostgreSQL and sent by the
bot's outbox sender at the alert priority. Durable: a message is sent once across replicas
and restarts — a process that dies holding some leaves them to the others when their lease
runs out (at most the one it was sending goes twice, as with answers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from repositories import telegram_limits as sql
from repositories.telegram_limits import QueuedMessage
from services.app.database import Database, commit

MAX_ATTEMPTS = 5

__all__ = ["MAX_ATTEMPTS", "Outbox", "OutgoingMessage", "QueuedMessage"]


@dataclass(frozen=True)
class OutgoingMessage:
    chat_id: int
    html: str  # Telegram HTML
    keyboard: dict[str, Any] | None = None  # an InlineKeyboardMarkup as JSON


class Outbox:
    def __init__(self, database: Database) -> None:
        self._statements = database.statements

    async def enqueue(self, kind: str, messages: Sequence[OutgoingMessage]) -> int:
        """Queue messages of one kind («alert», …); people who blocked the bot are left out.
        Returns how many were queued."""
        rows = [(m.chat_id, m.html, m.keyboard) for m in messages]
        async with self._statements() as s:
            queued = await sql.enqueue(s, kind, rows)
            await commit(s)
        return queued

    async def claim(self, limit: int, lease: timedelta) -> list[QueuedMessage]:
        async with self._statements() as s:
            claimed = await sql.claim(s, limit, lease)
            await commit(s)
        return claimed

    async def done(self, message_id: int) -> None:
        """Sent, or never to be sent (blocked, refused by Telegram, out of attempts)."""
        async with self._statements() as s:
            await sql.finish(s, message_id)
            await commit(s)

    async def later(self, message_id: int, seconds: float, *, failed: bool) -> None:
        """Due again in `seconds`: after a failure (counted against MAX_ATTEMPTS), or because
        its chat is at its pace (not counted)."""
        async with self._statements() as s:
            await sql.postpone(s, message_id, seconds, counted=failed)
            await commit(s)

    async def waiting(self) -> int:
        async with self._statements() as s:
            return await sql.waiting(s)
