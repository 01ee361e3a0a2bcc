"""A permit for every message the bot sends, taken in PostgreSQL so that every replica keeps
the same limits: the bot's ~30 messages a second, one a second per private chat and twenty a
minute per group (after a short burst), a 429's `retry_after` for everyone, and no alert to a
person who blocked the bot. Answers to people who are waiting go ahead of alerts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from contextvars import ContextVar
from enum import Enum

from core.errors import (
    ChatBusyError,
    DatabaseUnavailableError,
    LeaseLostError,
    RecipientBlockedError,
)
from core.failpoints import failpoint
from core.settings import Settings
from repositories.telegram_limits import Pace, PartsSent, hold_bot, mark_blocked, take_permit
from services.app.database import Database, commit
from services.app.sending.local_pace import LocalPace

log = logging.getLogger(__name__)

PRIVATE_CHAT_SECONDS = 1.0  # Telegram: about one message a second in a chat
GROUP_CHAT_SECONDS = 3.0  # Telegram: twenty messages a minute in a group
MIN_WAIT_SECONDS = 0.005


class Priority(Enum):
    ANSWER = "answer"  # someone is waiting for it
    ALERT = "alert"  # nobody is: it goes out when answers leave room


SENDING_PRIORITY: ContextVar[Priority] = ContextVar("sending_priority", default=Priority.ANSWER)


@contextlib.contextmanager
def alert_priority() -> Iterator[None]:
    """Everything this task (and the tasks it starts) sends goes out as alerts."""
    token = SENDING_PRIORITY.set(Priority.ALERT)
    try:
        yield
    finally:
        SENDING_PRIORITY.reset(token)


class PermitRider:
    """What the next permit taken in this task records in the same statement: the parts of
    an answer sent so far (`PartsSent`), and the failpoint that follows their record. One
    object for the whole answer, so that a task started meanwhile takes it from the same one."""

    __slots__ = ("failpoint", "parts_sent")

    def __init__(self) -> None:
        self.parts_sent: PartsSent | None = None
        self.failpoint: str | None = None

    def take(self) -> tuple[PartsSent | None, str | None]:
        taken = self.parts_sent, self.failpoint
        self.parts_sent = self.failpoint = None
        return taken


_RIDER: ContextVar[PermitRider | None] = ContextVar("permit_rider", default=None)


@contextlib.contextmanager
def riding_with_permits() -> Iterator[PermitRider]:
    """The permits this task takes meanwhile carry what the rider holds."""
    rider = PermitRider()
    token = _RIDER.set(rider)
    try:
        yield rider
    finally:
        _RIDER.reset(token)


class SendLimits:
    def __init__(self, database: Database, settings: Settings) -> None:
        self._statements = database.statements
        per_second = settings.telegram_messages_per_second
        self.enabled = per_second > 0
        self._pace = Pace(
            bot_seconds=1.0 / per_second if per_second > 0 else 0.0,
            private_seconds=PRIVATE_CHAT_SECONDS,
            group_seconds=GROUP_CHAT_SECONDS,
            chat_burst=settings.telegram_chat_burst,
        )
        self._local = LocalPace(self._pace)  # this process alone: the permit's floor
        self._database_warned = False
        self._unshared_hold: tuple[int, float] | None = None  # (bot, until): DB was away

    async def before_send(self, bot_id: int, chat_id: int) -> None:
        """Wait for this message's slot. An alert to a person who blocked the bot raises
        RecipientBlockedError; an alert whose chat is at its pace raises ChatBusyError (its
        sender sends others meanwhile). With the database away this process paces alone (a
        person is better told that the service is unavailable than not at all)."""
        if not self.enabled:
            return
        alert = SENDING_PRIORITY.get() is Priority.ALERT
        rider = _RIDER.get()
        parts_sent, then = rider.take() if rider is not None else (None, None)
        while True:
            # This process's own count is the floor: the shared one misses what was sent while
            # the database was away, and a 429's hold it could not store.
            chat_ahead, bot_ahead = self._local.chat_ready_in(chat_id), self._local.bot_ready_in()
            asked = time.monotonic()
            try:
                async with self._statements() as s:
                    verdict, wait, held = await take_permit(
                        s, bot_id, chat_id, alert, self._pace, chat_ahead, bot_ahead, parts_sent
                    )
                    await commit(s)
            except DatabaseUnavailableError:
                if not self._database_warned:
                    log.warning("database unavailable: this process paces its messages alone")
                    self._database_warned = True
                verdict, wait = "alone", self._local.reserve(chat_id)
                if parts_sent is not None:  # a takeover may send that part once more
                    log.warning(
                        "update %s: part %d sent but not recorded",
                        parts_sent.update_id,
                        parts_sent.parts,
                    )
                    parts_sent = then = None
            else:
                self._database_warned = False
                if parts_sent is not None:
                    if not held:
                        raise LeaseLostError(
                            f"update {parts_sent.update_id} was taken over after part "
                            f"{parts_sent.parts}"
                        )
                    parts_sent = None
                    if then is not None:
                        failpoint(then)
                        then = None
                if self._unshared_hold is not None:
                    await self._share_hold()
                if verdict == "send":
                    # Counted from before the request: never later than the shared count (or,
                    # as its floor, it would hold that back by a round trip at every message).
                    self._local.take(chat_id, asked + wait)
            if verdict in ("send", "alone"):
                if wait > 0:
                    await asyncio.sleep(wait)
                await self._local.settle(chat_id)  # the messages before it answered
                if self._local.held_for() <= 0:
                    self._local.sending(chat_id)
                    return
                continue  # a 429 came while it waited for its slot: it goes after the hold
            if verdict == "blocked":
                raise RecipientBlockedError(f"chat {chat_id} blocked the bot")
            if verdict == "chat" and alert:
                raise ChatBusyError(chat_id, wait)
            await asyncio.sleep(max(wait, MIN_WAIT_SECONDS))

    def answered(self, chat_id: int) -> None:
        """Telegram has answered a message to this chat (whatever it said)."""
        if self.enabled:
            self._local.answered(chat_id, time.monotonic())

    async def hold(self, bot_id: int, seconds: float) -> None:
        """Telegram answered 429: no replica sends anything for `seconds`."""
        log.warning("telegram asked to wait %.0fs: every replica holds back", seconds)
        self._local.hold(float(seconds))
        try:
            async with self._statements() as s:
                await hold_bot(s, bot_id, float(seconds))
                await commit(s)
        except DatabaseUnavailableError:
            # Shared with the other replicas as soon as the database is back, if still running.
            self._unshared_hold = (bot_id, time.monotonic() + float(seconds))

    async def _share_hold(self) -> None:
        assert self._unshared_hold is not None
        bot_id, until = self._unshared_hold
        with contextlib.suppress(DatabaseUnavailableError):
            if (left := until - time.monotonic()) > 0:
                async with self._statements() as s:
                    await hold_bot(s, bot_id, left)
                    await commit(s)
            self._unshared_hold = None

    async def blocked(self, chat_id: int) -> None:
        """Telegram answered 403 for this chat: a person's is marked, alerts skip them until
        they write again."""
        if chat_id <= 0:
            return  # a group the bot was removed from: no person to mark
        with contextlib.suppress(DatabaseUnavailableError):
            async with self._statements() as s:
                news = await mark_blocked(s, chat_id)
                await commit(s)
            if news:
                log.info("user %s blocked the bot: no alerts until they write", chat_id)
