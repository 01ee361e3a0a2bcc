"""Cross-process coordination for bot replicas that share only PostgreSQL.

- Each Telegram update is claimed once in a ledger table: a duplicate delivery (the same
  update_id sent to two replicas, or redelivered) is answered once.
- Updates of one chat are handled in update_id order: a handler waits while an earlier update of
  its chat is still unfinished. Nothing holds a database connection while waiting or while the
  LLM works, so a thousand chats in flight need only a handful of connections. (A session-level
  advisory lock would pin one connection per busy chat for the whole answer.)
- Rate limits are counted in the database per one-minute window, with the previous window
  weighted in (a sliding-window estimate), so every replica sees the same count.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from repositories.coordination import RateCounter, UpdateLedger
from services.app.sessions import SessionFactory

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
STALE_AFTER = timedelta(minutes=5)
LEDGER_RETENTION = timedelta(days=2)


class Coordinator:
    def __init__(
        self,
        sessions: SessionFactory,
        stale_after: timedelta = STALE_AFTER,
    ) -> None:
        self.sessions = sessions
        self.stale_after = stale_after

    async def claim(self, update_id: int, chat_id: int | None) -> bool:
        async with self.sessions() as s:
            claimed = await UpdateLedger(s).claim(update_id, chat_id)
            if claimed:
                await _sometimes_forget_old_rows(s)
            await s.commit()
        return claimed

    async def claim_in_turn(self, update_id: int, chat_id: int) -> tuple[bool, bool]:
        """Claim an update of a chat and learn, in the same round trip, whether an earlier update
        of that chat is still being handled: (claimed, must wait)."""
        async with self.sessions() as s:
            claimed, pending = await UpdateLedger(s).claim_in_turn(
                update_id, chat_id, self.stale_after
            )
            if claimed:
                await _sometimes_forget_old_rows(s)
            await s.commit()
        return claimed, pending

    async def wait_turn(
        self,
        update_id: int,
        chat_id: int,
        before_each_check: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Return once no earlier update of this chat is still being handled.

        `before_each_check` runs before every look at the ledger: the caller's chance to mark
        finished the updates it could not mark while the database was away, which would
        otherwise hold this chat back until they count as abandoned.
        """
        delay = POLL_SECONDS
        while True:
            if before_each_check is not None:
                await before_each_check()
            async with self.sessions() as s:
                if not await UpdateLedger(s).earlier_pending(update_id, chat_id, self.stale_after):
                    return
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.5)

    async def finish(self, update_id: int) -> None:
        async with self.sessions() as s:
            await UpdateLedger(s).finish(update_id)
            await s.commit()

    async def allow(self, key: str, limit: int, window: timedelta = timedelta(minutes=1)) -> bool:
        async with self.sessions() as s:
            hits = await RateCounter(s).hit(key, window)
            await s.commit()
        return hits <= limit


async def _sometimes_forget_old_rows(session: AsyncSession) -> None:
    """About once per thousand claims: drop ledger rows and rate counters nobody reads again."""
    if random.random() < 0.001:
        await UpdateLedger(session).forget_older_than(LEDGER_RETENTION)
        await RateCounter(session).forget_older_than(timedelta(hours=1))
