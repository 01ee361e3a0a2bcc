"""The update ledger as the bot's coordination (bot/coordination.py) stores it: every
Telegram update, who holds its lease, the answer planned for it and how much of it went out;
and the processes' heartbeats. Each method is one unit of work, most of them one statement on
a Core connection.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

from repositories.coordination import Executor, Intake, LeasedUpdate, Processes, RateCounter
from repositories.coordination import UpdateLedger as LedgerRows
from services.app.database import Database, commit

LEDGER_RETENTION = timedelta(days=2)

__all__ = ["Intake", "LeasedUpdate", "Ledger"]


class Ledger:
    def __init__(self, database: Database) -> None:
        self._statements = database.statements

    async def intake(
        self, updates: Sequence[Intake], owner: str, lease: timedelta
    ) -> tuple[set[int], set[int]]:
        """Store updates leased to `owner`, in one round trip: (stored now, those whose chat
        has an earlier unanswered update). Ids not stored were delivered before."""
        if not updates:
            return set(), set()
        async with self._statements() as s:
            stored, behind = await LedgerRows(s).intake(updates, owner, lease)
            if stored:
                await _sometimes_forget_old_rows(s)
            await commit(s)
        return stored, behind

    async def earlier_pending(self, update_id: int, chat_id: int) -> bool:
        async with self._statements() as s:
            return await LedgerRows(s).earlier_pending(update_id, chat_id)

    async def renew(self, update_ids: Sequence[int], owner: str, lease: timedelta) -> set[int]:
        if not update_ids:
            return set()
        async with self._statements() as s:
            held = await LedgerRows(s).renew(update_ids, owner, lease)
            await commit(s)
        return held

    async def beat(self, owner: str) -> None:
        async with self._statements() as s:
            await Processes(s).beat(owner)
            await commit(s)

    async def leave(self, owner: str) -> None:
        async with self._statements() as s:
            await Processes(s).leave(owner)
            await commit(s)

    async def take_expired(
        self,
        owner: str,
        lease: timedelta,
        limit: int,
        held: Sequence[int],
        dead_after: timedelta | None,
    ) -> list[LeasedUpdate]:
        async with self._statements() as s:
            taken = await LedgerRows(s).take_expired(owner, lease, limit, held, dead_after)
            await commit(s)
        return taken

    async def claim_notice(self, update_id: int) -> bool:
        async with self._statements() as s:
            claimed = await LedgerRows(s).claim_notice(update_id)
            await commit(s)
        return claimed

    async def release(self, update_ids: Sequence[int], owner: str) -> None:
        if not update_ids:
            return
        async with self._statements() as s:
            await LedgerRows(s).release(update_ids, owner)
            await commit(s)

    async def mark_sent(self, update_id: int, parts: int, owner: str) -> bool:
        """False when the update is no longer `owner`'s (taken over meanwhile)."""
        async with self._statements() as s:
            held = await LedgerRows(s).mark_sent(update_id, parts, owner)
            await commit(s)
        return held

    async def finish(self, update_id: int) -> None:
        async with self._statements() as s:
            await LedgerRows(s).finish(update_id)
            await commit(s)

    async def park(self, update_id: int, error: str) -> None:
        async with self._statements() as s:
            await LedgerRows(s).park(update_id, error)
            await commit(s)

    async def parked(self, limit: int = 5) -> tuple[int, list[tuple[int, str]]]:
        """How many updates are parked, and the latest ones with their reasons."""
        async with self._statements() as s:
            return await LedgerRows(s).parked(limit)

    async def backlog(self) -> int:
        """Updates taken in and not answered yet, across every process."""
        async with self._statements() as s:
            return await LedgerRows(s).backlog()


async def _sometimes_forget_old_rows(session: Executor) -> None:
    """About once per thousand intakes: drop ledger rows, rate counters and processes nobody
    reads."""
    if random.random() < 0.001:
        await LedgerRows(session).forget_older_than(LEDGER_RETENTION)
        await RateCounter(session).forget_older_than(timedelta(hours=1))
        await Processes(session).forget_older_than(LEDGER_RETENTION)
