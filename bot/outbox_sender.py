"""Drains the outbox (alerts nobody is waiting for) through the limiter at the alert priority:
every replica runs one, each message is claimed by one of them, and answers to people who are
waiting always go out first."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from datetime import timedelta

from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import InlineKeyboardMarkup

from bot.telegram_session import JsonBodySession
from core.errors import ChatBusyError, DatabaseUnavailableError, RecipientBlockedError
from services.app.sending.limits import SendLimits, alert_priority
from services.app.sending.outbox import MAX_ATTEMPTS, Outbox, QueuedMessage

log = logging.getLogger(__name__)

BATCH = 40  # a little over a second's worth at Telegram's pace
LEASE = timedelta(seconds=120)  # far longer than a batch takes, even held back by a 429
IDLE_SECONDS = 1.0
RETRY_SECONDS = 5.0


class OutboxSender:
    def __init__(self, bot: Bot, outbox: Outbox, workers: int = 4) -> None:
        self.bot = bot
        self.outbox = outbox
        self.workers = workers
        self.sent = 0

    async def run(self, stop: asyncio.Event) -> None:
        with alert_priority():
            while not stop.is_set():
                try:
                    batch = await self.outbox.claim(BATCH, LEASE)
                except DatabaseUnavailableError:
                    batch = []
                if not batch:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), IDLE_SECONDS)
                    continue
                await self._send_batch(batch)

    async def _send_batch(self, batch: list[QueuedMessage]) -> None:
        queue: asyncio.Queue[QueuedMessage] = asyncio.Queue()
        for message in batch:
            queue.put_nowait(message)

        async def worker() -> None:
            while not queue.empty():
                await self._send_one(queue.get_nowait())

        await asyncio.gather(*(worker() for _ in range(self.workers)))

    async def _send_one(self, message: QueuedMessage) -> None:
        try:
            markup = (
                InlineKeyboardMarkup.model_validate(message.keyboard) if message.keyboard else None
            )
            await self.bot.send_message(message.chat_id, message.html, reply_markup=markup)
        except ChatBusyError as busy:
            await self._quietly(self.outbox.later(message.id, busy.seconds, failed=False))
            return
        except (RecipientBlockedError, TelegramForbiddenError):
            log.info("alert %s not sent: chat %s blocked the bot", message.id, message.chat_id)
        except TelegramBadRequest as exc:
            log.warning("alert %s refused by Telegram: %s", message.id, exc.message)
        except (TelegramNetworkError, TelegramServerError, TelegramRetryAfter) as exc:
            if message.attempts < MAX_ATTEMPTS:
                await self._quietly(self.outbox.later(message.id, RETRY_SECONDS, failed=True))
                return
            log.error("alert %s given up after %s attempts: %s", message.id, message.attempts, exc)
        except DatabaseUnavailableError:
            return  # its lease runs out and it is claimed again
        else:
            self.sent += 1
        await self._quietly(self.outbox.done(message.id))

    @staticmethod
    async def _quietly(step: Awaitable[None]) -> None:
        with contextlib.suppress(DatabaseUnavailableError):
            await step  # if not: the lease runs out and the message is claimed again


def attach_limits(bot: Bot, limits: SendLimits) -> None:
    """The session takes a permit for every message (see bot/telegram_session.py)."""
    session = bot.session
    if isinstance(session, JsonBodySession):
        session.limits = limits


class OutboxTask:
    """The sender beside the bot: started once Telegram answers, stopped with the bot (the
    batch in hand finishes within the shutdown grace; what is left stays queued)."""

    def __init__(self, bot: Bot, outbox: Outbox) -> None:
        self.sender = OutboxSender(bot, outbox)
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.sender.run(self._stop), name="outbox-sender")

    async def stop(self, grace: float) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stop.set()
        try:
            await asyncio.wait_for(task, max(grace, 0.1))
        except TimeoutError:
            log.warning("outbox sender stopped mid-batch; the rest is sent after a restart")
        except Exception:
            log.exception("outbox sender failed")
