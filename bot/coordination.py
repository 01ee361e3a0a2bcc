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
- **One answer.** The answer planned for an update is stored in the turn's own transaction
  (`plan_with_turn`, which the handlers hand to the turn's store), and each part is
  recorded as it goes out: a takeover sends only what is missing — and the part in flight
  when the process died, which Telegram may or may not have accepted, once more.
- **Poison.** An update taken over `max_attempts` times (its handler keeps dying) is parked
  with its reason instead of being retried forever.

What is stored, and how, is the ledger's (services/app/ops/ledger.py); the policy is here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from bot.delivery_plan import delivery_plan
from core.errors import DatabaseUnavailableError, LeaseLostError
from core.recommendation import Recommendation
from services.app.ops.ledger import Intake, LeasedUpdate, Ledger
from services.app.sending.limits import PartsSent
from services.app.turns.turns import WithTurn

log = logging.getLogger(__name__)

POLL_SECONDS = 0.05
LEASE = timedelta(seconds=30)
PROCESS_TIMEOUT = timedelta(seconds=5)

__all__ = ["Coordinator", "Delivery", "Intake", "LeasedUpdate", "plan_with_turn"]


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Coordinator:
    def __init__(
        self,
        ledger: Ledger,
        lease: timedelta = LEASE,
        max_attempts: int = 3,
        owner: str | None = None,
        process_timeout: timedelta = PROCESS_TIMEOUT,
    ) -> None:
        self.ledger = ledger
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
        return await self.ledger.intake(updates, self.owner, self.lease)

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
            if not await self.ledger.earlier_pending(update_id, chat_id):
                return
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 0.5)

    async def renew(self, update_ids: Sequence[int]) -> set[int]:
        return await self.ledger.renew(update_ids, self.owner, self.lease)

    async def heartbeat(self) -> None:
        """Tell the other processes this one is alive."""
        await self.ledger.beat(self.owner)
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
        await self.ledger.leave(self.owner)

    async def take_expired(self, held: Sequence[int] = (), limit: int = 50) -> list[LeasedUpdate]:
        """Updates whose lease expired or whose process died, never this process's `held`."""
        dead_after = self.process_timeout if self.judges_heartbeats() else None
        return await self.ledger.take_expired(self.owner, self.lease, limit, held, dead_after)

    async def claim_notice(self, update_id: int) -> bool:
        """True for the first takeover that would tell the person their answer is late."""
        return await self.ledger.claim_notice(update_id)

    async def release(self, update_ids: Sequence[int]) -> None:
        await self.ledger.release(update_ids, self.owner)

    async def mark_sent(self, update_id: int, parts: int) -> bool:
        """False when the update is no longer this process's (taken over meanwhile)."""
        return await self.ledger.mark_sent(update_id, parts, self.owner)

    async def finish(self, update_id: int) -> None:
        await self.ledger.finish(update_id)

    async def finish_unfinished(self) -> None:
        for update_id in sorted(self.unfinished):
            try:
                await self.finish(update_id)
            except Exception:
                return  # still away: the next look tries again
            self.unfinished.discard(update_id)

    async def park(self, update_id: int, error: str) -> None:
        await self.ledger.park(update_id, error)


@dataclass
class Delivery:
    """One update being answered by this process: the parts of its answer already sent (by
    this process or a dead one) and the answer planned for it, if one was."""

    update_id: int
    coordinator: Coordinator = field(repr=False)
    attempts: int = 1
    plan: dict[str, Any] | None = None
    sent_parts: int = 0

    @property
    def is_takeover(self) -> bool:
        return self.attempts > 1

    def planned(self, rec: Recommendation) -> dict[str, Any]:
        """The plan of this update's answer, stored with the turn (`Turns.keep`'s `with_turn`),
        so that a takeover resends this answer instead of writing another. The turn is not
        kept (LeaseLostError) when another process has taken the update over meanwhile: its
        answer is the one the person gets, and this one is never sent."""
        self.plan = delivery_plan(rec)
        return self.plan

    def sent(self, parts: int) -> PartsSent:
        """The first `parts` parts went out: what records it (`mark_sent`, or the statement of
        the next part's permit)."""
        self.sent_parts = parts
        return PartsSent(self.update_id, parts, self.coordinator.owner)

    async def mark_sent(self, parts: int) -> None:
        """Record that the first `parts` parts of the answer went out. Best effort: with the
        database away the answer still goes out whole (a process taking it over later might
        resend a part, which beats leaving the rest unsent now). Raises LeaseLostError when
        another process has taken the update over: the rest is its to send."""
        self.sent_parts = parts
        try:
            held = await self.coordinator.mark_sent(self.update_id, parts)
        except DatabaseUnavailableError:
            log.warning("update %s: part %d sent but not recorded", self.update_id, parts)
            return
        if not held:
            raise LeaseLostError(f"update {self.update_id} was taken over after part {parts}")


def plan_with_turn(delivery: Delivery | None) -> WithTurn | None:
    """What a handler hands the service that stores its turn: the update's plan, written in
    the turn's own statement (None for an update the ledger does not hold)."""
    if delivery is None:
        return None
    return WithTurn(delivery.update_id, delivery.coordinator.owner, delivery.planned)
