"""From Telegram to the dispatcher without losing an update when a process dies.

Updates are stored in the ledger first (polling: before the next getUpdates confirms them;
webhook: before the 200), leased to this process, and only then handed to the dispatcher.
While this process works on them it renews their leases and beats a heartbeat of its own;
every second it also takes over the updates whose holder died (its heartbeat stopped) or
stopped renewing, and answers them. An update whose handler keeps killing its process is
parked and its user gets an apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from aiogram import Bot, Dispatcher
from aiogram.exceptions import TelegramUnauthorizedError
from aiogram.methods import GetUpdates, TelegramMethod
from aiogram.types import Update

from bot.coordination import Coordinator, Delivery, Intake, LeasedUpdate
from bot.middlewares import DELIVERY_KEY, MUST_WAIT_KEY, chat_id_of, user_id_of
from core.errors import DatabaseUnavailableError, SettingsError
from core.failpoints import failpoint
from services.app.texts import T

log = logging.getLogger(__name__)

RECOVERY_SECONDS = 1.0
GATHER_SECONDS = 0.05  # after a batch, before the next long poll (see `poll`)


def body_of(update: Update) -> dict[str, Any]:
    return update.model_dump(mode="json", by_alias=True, exclude_none=True)


class UpdateWorker:
    """Takes updates in (durably), hands them to the dispatcher, keeps their leases, and
    recovers the updates of processes that died."""

    def __init__(
        self, bot: Bot, dp: Dispatcher, coordinator: Coordinator, max_concurrent: int = 200
    ) -> None:
        self.bot = bot
        self.dp = dp
        self.coordinator = coordinator
        # Like polling's tasks_concurrency_limit: a burst beyond this waits, stored, before it
        # touches anything else, instead of every update holding a pooled connection at once.
        self._slots = asyncio.Semaphore(max_concurrent)
        self._held: dict[int, Delivery] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._idle = asyncio.Event()
        self._idle.set()
        self._draining = False
        self._answering = 0

    @property
    def in_flight(self) -> int:
        """Updates taken in and not yet done (answering, or waiting for a slot)."""
        return len(self._tasks)

    @property
    def answering(self) -> int:
        """Updates past the MAX_CONCURRENT_UPDATES cap, in the dispatcher now."""
        return self._answering

    # ---- intake ------------------------------------------------------------------------

    async def receive(
        self, updates: Sequence[Update], bodies: Sequence[dict[str, Any]] | None = None
    ) -> list[int]:
        """Store updates, then start answering the ones not seen before; returns their ids.

        When the database cannot store them, they are answered from memory all the same (each
        user is told the service is unavailable), rather than left without a word."""
        if not updates:
            return []
        raw = bodies if bodies is not None else [body_of(u) for u in updates]
        intakes = [
            Intake(u.update_id, chat_id_of(u), user_id_of(u), body)
            for u, body in zip(updates, raw, strict=True)
        ]
        try:
            stored, behind = await self.coordinator.intake(intakes)
        except DatabaseUnavailableError:
            log.warning(
                "database unavailable: %d updates answered without being stored", len(updates)
            )
            # Perhaps stored after all (the reply was lost, not the write): closed once the
            # database answers again, so no other process answers them a second time.
            self.coordinator.unfinished.update(u.update_id for u in updates)
            for update in updates:
                self._start(update, None, must_wait=False)
            return [u.update_id for u in updates]
        earlier_in_batch: set[int] = set()
        for update in updates:
            if update.update_id not in stored:
                log.info(
                    "update %s was already delivered; dropping the duplicate", update.update_id
                )
                continue
            chat_id = chat_id_of(update)
            must_wait = update.update_id in behind or chat_id in earlier_in_batch
            if chat_id is not None:
                earlier_in_batch.add(chat_id)
            delivery = Delivery(update.update_id, coordinator=self.coordinator)
            self._held[update.update_id] = delivery
            self._start(update, delivery, must_wait=must_wait)
        return sorted(stored)

    def _start(self, update: Update, delivery: Delivery | None, *, must_wait: bool) -> None:
        task = asyncio.create_task(self._handle(update, delivery, must_wait))
        self._tasks.add(task)
        self._idle.clear()
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not self._tasks:
            self._idle.set()

    async def _handle(self, update: Update, delivery: Delivery | None, must_wait: bool) -> None:
        try:
            async with self._slots:
                self._answering += 1
                try:
                    if delivery is not None:
                        failpoint("stored")
                    result = await self.dp.feed_update(
                        self.bot,
                        update,
                        **{DELIVERY_KEY: delivery, MUST_WAIT_KEY: must_wait},
                    )
                    if isinstance(result, TelegramMethod):
                        await self.dp.silent_call_request(bot=self.bot, result=result)
                finally:
                    self._answering -= 1
        except Exception:
            log.exception("update %s was not handled", update.update_id)
        finally:
            if delivery is not None:
                self._held.pop(delivery.update_id, None)

    # ---- leases and recovery -------------------------------------------------------------

    async def keep_leases(self, stop: asyncio.Event) -> None:
        """Until `stop`: beat this process's heartbeat, renew its leases, take over the updates
        of processes that died, park the ones that keep killing their handler."""
        beating = asyncio.create_task(self._keep_beating(stop))
        try:
            await self._keep_leases(stop)
        finally:
            stop.set()
            await beating
            with contextlib.suppress(Exception):  # gone for good: a stopped process, not a dead one
                await self.coordinator.leave()

    async def _keep_leases(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        renew_every = self.coordinator.lease.total_seconds() / 3
        recover_every = min(RECOVERY_SECONDS, renew_every)
        renew_at = loop.time() + renew_every
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), recover_every)
            if stop.is_set():
                return
            try:
                await self.coordinator.finish_unfinished()
                # By the clock, not by rounds: after a stall (a blocked event loop, a slow
                # database) the leases are renewed before anything else; a failed renewal is
                # tried again next round.
                if loop.time() >= renew_at:
                    await self._renew()
                    renew_at = loop.time() + renew_every
                if not self._draining:
                    await self.recover()
            except DatabaseUnavailableError:
                log.warning("database unavailable: leases not renewed this round")
            except Exception:
                log.exception("lease keeping failed this round")

    async def _keep_beating(self, stop: asyncio.Event) -> None:
        """The heartbeat by which the other processes know this one is alive: its own task, so
        that nothing slow in the lease round (a takeover, an apology) can make it late."""
        failing = False
        while not stop.is_set():
            try:
                await self.coordinator.heartbeat()
                failing = False
            except Exception as exc:
                if not failing:
                    log.warning("heartbeat not written: %s", type(exc).__name__)
                failing = True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.coordinator.beat_every)

    async def _renew(self) -> None:
        ids = list(self._held)
        held = await self.coordinator.renew(ids)
        for lost in set(ids) - held:
            if lost in self._held:
                log.warning("update %s: lease lost (finished or taken over elsewhere)", lost)

    async def recover(self) -> int:
        """Take over the updates of processes that died (their heartbeat stopped) or stopped
        renewing their leases, never this process's own; returns how many were taken (parked
        ones included)."""
        taken = await self.coordinator.take_expired(list(self._held))
        for leased in taken:
            if leased.attempts > self.coordinator.max_attempts:
                await self._park(leased)
                continue
            try:
                update = Update.model_validate(leased.body, context={"bot": self.bot})
            except Exception as exc:
                await self._park(leased, f"unreadable update: {type(exc).__name__}")
                continue
            log.warning(
                "update %s taken over (attempt %d, %d parts already sent)",
                leased.update_id,
                leased.attempts,
                leased.sent_parts,
            )
            delivery = Delivery(
                leased.update_id,
                attempts=leased.attempts,
                plan=leased.plan,
                sent_parts=leased.sent_parts,
                coordinator=self.coordinator,
            )
            self._held[leased.update_id] = delivery
            self._start(update, delivery, must_wait=True)
        return len(taken)

    async def _park(self, leased: LeasedUpdate, reason: str | None = None) -> None:
        why = reason or (
            f"its handler did not finish in {leased.attempts - 1} attempts "
            "(the process answering it died each time)"
        )
        await self.coordinator.park(leased.update_id, why)
        log.error("update %s parked: %s", leased.update_id, why)
        if leased.chat_id is not None:
            with contextlib.suppress(Exception):
                await self.bot.send_message(leased.chat_id, T.apology)

    # ---- polling -------------------------------------------------------------------------

    async def poll(
        self,
        stop: asyncio.Event,
        *,
        polling_timeout: int = 30,
        allowed_updates: Iterable[str] | None = None,
        first_delay: float = 1.0,
        max_delay: float = 30.0,
    ) -> None:
        """Long polling until `stop`. The offset moves past a batch only once it is stored,
        so the next getUpdates confirms to Telegram only what is safe."""
        get_updates = GetUpdates(
            timeout=polling_timeout,
            allowed_updates=list(allowed_updates) if allowed_updates is not None else None,
        )
        request_timeout = int((self.bot.session.timeout or 0) + polling_timeout)
        delay = first_delay
        stopped = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set():
                fetch = asyncio.create_task(self.bot(get_updates, request_timeout=request_timeout))
                await asyncio.wait({fetch, stopped}, return_when=asyncio.FIRST_COMPLETED)
                if stop.is_set():
                    fetch.cancel()  # unconfirmed: Telegram gives them to the next process
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await fetch
                    return
                try:
                    updates = fetch.result()
                except TelegramUnauthorizedError:
                    raise SettingsError(
                        "Telegram rejects TELEGRAM_BOT_TOKEN (401 Unauthorized)"
                    ) from None
                except Exception as exc:
                    log.warning(
                        "getUpdates failed (%s); retrying in %.0f s", type(exc).__name__, delay
                    )
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), delay)
                    delay = min(delay * 2, max_delay)
                    continue
                delay = first_delay
                if updates:
                    await self.receive(updates)
                    get_updates.offset = updates[-1].update_id + 1
                    # Busy: the next long poll would return at the first update again. A moment
                    # lets the ones arriving meanwhile come in one call and one intake statement
                    # (at 20 messages a second about two a batch) for at most that much wait.
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), GATHER_SECONDS)
        finally:
            stopped.cancel()

    # ---- stopping ------------------------------------------------------------------------

    async def wait_idle(self, grace_seconds: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), grace_seconds)
        except TimeoutError:
            return False
        return True

    async def drain(self, grace_seconds: float) -> None:
        """Let answers in flight finish; hand what is left to the other processes at once. Its
        handlers are stopped first (a stopped answer is not marked finished), so nothing more
        goes out from here once another process may take it over."""
        self._draining = True
        if self.in_flight:
            log.info("waiting for %d answers in flight", self.in_flight)
            if not await self.wait_idle(grace_seconds):
                log.warning(
                    "shutdown grace period over with %d answers unfinished; releasing them",
                    self.in_flight,
                )
        left = list(self._held)  # each handler lets go of its update as it stops
        unfinished = list(self._tasks)
        for task in unfinished:
            task.cancel()
        await asyncio.gather(*unfinished, return_exceptions=True)
        if left:
            with contextlib.suppress(Exception):
                await self.coordinator.release(left)
