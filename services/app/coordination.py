"""Cross-process coordination for bot processes that share only PostgreSQL.

- **Durable intake.** Every Telegram update is stored (body, chat, order) before Telegram is
  told it arrived: before the webhook's 200, before polling's next offset. A duplicate delivery
  finds the row and is dropped.
- **Leases.** The process working on an update holds a lease on its row and renews it while it
  works (one statement per process for all its updates). When a process dies its leases
  expire, and any live process takes those updates over and answers them.
- **Heartbeats.** Each process also beats every third of `process_timeout`; one silent for
  longer is dead, and its updates are taken over at once rather than when each lease ends.
  A process judges the others only after beating without a gap for that long itself, so a
  database outage (no one could beat) does not make every live process look dead after it.
- **Order.** Updates of one chat are answered in update_id order: a handler waits while an
  earlier update of its chat is unanswered. Nothing holds a database connection while waiting
  or while the LLM works, so a thousand chats in flight need only a handful of connections.
- **One answer.** The answer planned for an update is stored with the turn, and each part is
  recorded as it goes out: a takeover sends only what is missing — and the part in flight
  when the process died, which Telegram may or may not have accepted, once more.
- **Poison.** An update taken over `max_attempts` times (its handler keeps dying) is parked
  with its reason instead of being retried forever.
- Rate limits are counted per one-minute window with the previous window weighted in (a
  sliding-window estimate), so every replica sees the same count.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import random
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from core.errors import DatabaseUnavailableError, LeaseLostError
from repositories.coordination import (
    Executor,
    Intake,
    LeasedUpdate,
    Processes,
    RateCounter,
    UpdateLedger,
)

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
LEASE = timedelta(seconds=30)
PROCESS_TIMEOUT = timedelta(seconds=5)
LEDGER_RETENTION = timedelta(days=2)

__all__ = ["Coordinator", "Delivery", "Intake", "LeasedUpdate", "current_delivery"]


@dataclass
class Delivery:
    """One update being answered by this process: the parts of its answer already sent (by
    this process or a dead one) and the answer planned for it, if one was."""

    update_id: int
    attempts: int = 1
    plan: dict[str, Any] | None = None
    sent_parts: int = 0
    coordinator: Coordinator | None = field(default=None, repr=False)

    @property
    def is_takeover(self) -> bool:
        return self.attempts > 1

    async def mark_sent(self, parts: int) -> None:
        """Record that the first `parts` parts of the answer went out. Best effort: with the
        database away the answer still goes out whole (a process taking it over later might
        resend a part, which beats leaving the rest unsent now). Raises LeaseLostError when
        another process has taken the update over: the rest is its to send."""
        self.sent_parts = parts
        if self.coordinator is None:
            return
        try:
            held = await self.coordinator.mark_sent(self.update_id, parts)
        except DatabaseUnavailableError:
            log.warning("update %s: part %d sent but not recorded", self.update_id, parts)
            return
        if not held:
            raise LeaseLostError(f"update {self.update_id} was taken over after part {parts}")


#: The update the current task answers: the facade stores the answer's plan with the turn.
current_delivery: contextvars.ContextVar[Delivery | None] = contextvars.ContextVar(
    "current_delivery", default=None
)


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Coordinator:
    def __init__(
        self,
        sessions: Callable[[], AbstractAsyncContextManager[Executor]],
        lease: timedelta = LEASE,
        max_attempts: int = 3,
        owner: str | None = None,
        process_timeout: timedelta = PROCESS_TIMEOUT,
    ) -> None:
        self.sessions = sessions
        self.lease = lease
        self.max_attempts = max_attempts
        self.owner = owner or process_name()
        self.process_timeout = process_timeout
        self.beat_every = process_timeout.total_seconds() / 3
        self._beating_since: float | None = None  # monotonic; the current run of heartbeats
        self._last_beat: float | None = None
        # Updates answered while the database was unreachable (or answered from memory when it
        # could not store them): finished as soon as it answers again, before anything else, so
        # that their rows neither hold their chats back nor get taken over and answered twice.
        self.unfinished: set[int] = set()

    async def intake(self, updates: Sequence[Intake]) -> tuple[set[int], set[int]]:
        """Store updates leased to this process, in one round trip: (stored now, those whose
        chat has an earlier unanswered update). Ids not stored were delivered before."""
        if not updates:
            return set(), set()
        async with self.sessions() as s:
            stored, behind = await UpdateLedger(s).intake(updates, self.owner, self.lease)
            if stored:
                await _sometimes_forget_old_rows(s)
            await s.commit()
        return stored, behind

    async def wait_turn(
        self,
        update_id: int,
        chat_id: int,
        before_each_check: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Return once no earlier update of this chat is unanswered. An earlier one whose
        process died is taken over when its lease expires, so this waits at most about one
        lease behind it.

        `before_each_check` runs before every look at the ledger: the caller's chance to mark
        finished the updates it could not mark while the database was away.
        """
        delay = POLL_SECONDS
        while True:
            if before_each_check is not None:
                await before_each_check()
            async with self.sessions() as s:
                if not await UpdateLedger(s).earlier_pending(update_id, chat_id):
                    return
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.5)

    async def renew(self, update_ids: Sequence[int]) -> set[int]:
        if not update_ids:
            return set()
        async with self.sessions() as s:
            held = await UpdateLedger(s).renew(update_ids, self.owner, self.lease)
            await s.commit()
        return held

    async def heartbeat(self) -> None:
        """Tell the other processes this one is alive."""
        async with self.sessions() as s:
            await Processes(s).beat(self.owner)
            await s.commit()
        now = time.monotonic()
        if self._last_beat is None or now - self._last_beat > 2 * self.beat_every:
            self._beating_since = now  # a gap (outage, stall): others may have one too
        self._last_beat = now

    def judges_heartbeats(self) -> bool:
        """Has this process beaten without a gap for a whole `process_timeout`? Only then is a
        silent process surely dead rather than cut off from the database like this one."""
        if self._beating_since is None or self._last_beat is None:
            return False
        now = time.monotonic()
        return (
            now - self._last_beat <= 2 * self.beat_every
            and now - self._beating_since >= self.process_timeout.total_seconds()
        )

    async def leave(self) -> None:
        async with self.sessions() as s:
            await Processes(s).leave(self.owner)
            await s.commit()

    async def take_expired(self, held: Sequence[int] = (), limit: int = 50) -> list[LeasedUpdate]:
        """Updates whose lease expired or whose process died, never this process's `held`."""
        dead_after = self.process_timeout if self.judges_heartbeats() else None
        async with self.sessions() as s:
            taken = await UpdateLedger(s).take_expired(
                self.owner, self.lease, limit, held, dead_after
            )
            await s.commit()
        return taken

    async def claim_notice(self, update_id: int) -> bool:
        """True for the first takeover that would tell the person their answer is late."""
        async with self.sessions() as s:
            claimed = await UpdateLedger(s).claim_notice(update_id)
            await s.commit()
        return claimed

    async def release(self, update_ids: Sequence[int]) -> None:
        if not update_ids:
            return
        async with self.sessions() as s:
            await UpdateLedger(s).release(update_ids, self.owner)
            await s.commit()

    async def mark_sent(self, update_id: int, parts: int) -> bool:
        """False when the update is no longer this process's (taken over meanwhile)."""
        async with self.sessions() as s:
            held = await UpdateLedger(s).mark_sent(update_id, parts, self.owner)
            await s.commit()
        return held

    async def finish(self, update_id: int) -> None:
        async with self.sessions() as s:
            await UpdateLedger(s).finish(update_id)
            await s.commit()

    async def finish_unfinished(self) -> None:
        for update_id in sorted(self.unfinished):
            try:
                await self.finish(update_id)
            except Exception:
                return  # still away: the next look tries again
            self.unfinished.discard(update_id)

    async def park(self, update_id: int, error: str) -> None:
        async with self.sessions() as s:
            await UpdateLedger(s).park(update_id, error)
            await s.commit()

    async def parked(self, limit: int = 5) -> tuple[int, list[tuple[int, str]]]:
        async with self.sessions() as s:
            return await UpdateLedger(s).parked(limit)

    async def backlog(self) -> int:
        async with self.sessions() as s:
            return await UpdateLedger(s).backlog()

    async def allow(self, key: str, limit: int, window: timedelta = timedelta(minutes=1)) -> bool:
        async with self.sessions() as s:
            hits = await RateCounter(s).hit(key, window)
            await s.commit()
        return hits <= limit


async def save_plan_with_turn(session: Executor, plan: dict[str, Any]) -> None:
    """Inside the transaction that stores a turn: the answer planned for the update being
    answered (if any), so a takeover resends this answer instead of writing another. Raises
    LeaseLostError (the turn is rolled back) when another process has taken the update over
    meanwhile: its answer is the one the person gets."""
    delivery = current_delivery.get()
    if delivery is None:
        return
    owner = delivery.coordinator.owner if delivery.coordinator is not None else None
    if not await UpdateLedger(session).save_plan(delivery.update_id, plan, owner):
        raise LeaseLostError(f"update {delivery.update_id} was taken over before its answer")
    delivery.plan = plan


async def _sometimes_forget_old_rows(session: Executor) -> None:
    """About once per thousand intakes: drop ledger rows, rate counters and processes nobody
    reads."""
    if random.random() < 0.001:
        await UpdateLedger(session).forget_older_than(LEDGER_RETENTION)
        await RateCounter(session).forget_older_than(timedelta(hours=1))
        await Processes(session).forget_older_than(LEDGER_RETENTION)
