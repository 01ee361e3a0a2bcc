"""The bot's two ways to receive updates: long polling, or a webhook on an aiohttp app."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable
from datetime import timedelta

from aiogram import Bot, Dispatcher
from aiogram.exceptions import (
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import BotCommand
from aiohttp import web

from bot.alert_schedule import AlertTask
from bot.catalog_schedule import start_catalog_sync, stop_catalog_sync
from bot.coordination import Coordinator
from bot.digest_schedule import start_digest
from bot.factory import create_bot, create_dispatcher
from bot.intake import UpdateWorker
from bot.outbox_sender import OutboxTask, attach_limits
from bot.webhook import add_webhook, webhook_path
from core.errors import SettingsError
from core.settings import Settings
from services.app.container import Services
from services.app.texts import T

log = logging.getLogger(__name__)

COMMANDS = [BotCommand(command=command, description=what) for command, what in T.commands]


class TelegramWebhook:
    """The bot mounted on an aiohttp application (shared with the HTTP API)."""

    def __init__(self, settings: Settings, services: Services) -> None:
        self.settings = settings
        self.bot = create_bot(settings)
        self.dp, self.order = create_worker(self.bot, settings, services)
        self.outbox = OutboxTask(self.bot, services.outbox)
        self.alerts = AlertTask(services.alerts, settings.alert_check_seconds)
        self.services = services
        self.sync: asyncio.Task[None] | None = None
        self.digest: asyncio.Task[None] | None = None
        self._stop_leases = asyncio.Event()
        self._leases: asyncio.Task[None] | None = None

    def mount(self, app: web.Application) -> None:
        assert self.settings.webhook_url is not None
        add_webhook(
            app,
            self.dp,
            self.bot,
            self.order,
            webhook_path(self.settings.webhook_url),
            self.settings.webhook_secret,
        )
        # Leases are kept (and dead replicas' updates taken over) from the first request on.
        self._leases = asyncio.create_task(self.order.keep_leases(self._stop_leases))

    async def register(self, stop: asyncio.Event | None = None) -> bool:
        """Set the commands and the webhook, retrying while Telegram is unreachable; False
        when `stop` was set first."""
        url = self.settings.webhook_url
        assert url is not None

        async def register() -> None:
            await self.bot.set_my_commands(COMMANDS)
            await self.bot.set_webhook(
                url,
                secret_token=self.settings.webhook_secret,
                allowed_updates=self.dp.resolve_used_update_types(),
            )

        if not await until_telegram_answers(register, stop):
            return False
        log.info("bot started: webhook %s", webhook_path(url))
        self.sync = start_catalog_sync(self.bot, self.settings, self.services)
        self.digest = start_digest(self.bot, self.settings, self.services)
        self.outbox.start()
        self.alerts.start()
        return True

    async def drain(self) -> None:
        await stop_catalog_sync(self.sync)
        await stop_catalog_sync(self.digest)  # the same cancellation
        await self.alerts.stop()
        await self.outbox.stop(self.settings.shutdown_grace_seconds)
        await self.order.drain(self.settings.shutdown_grace_seconds)
        self._stop_leases.set()
        if self._leases is not None:
            await self._leases

    async def close(self) -> None:
        await self.bot.session.close()


async def run_polling(settings: Settings, services: Services) -> None:
    """Long polling until SIGTERM/SIGINT, then let the answers in flight finish."""
    bot = create_bot(settings)
    dp, worker = create_worker(bot, settings, services)
    sync = start_catalog_sync(bot, settings, services)
    digest = start_digest(bot, settings, services)
    outbox = OutboxTask(bot, services.outbox)
    alerts = AlertTask(services.alerts, settings.alert_check_seconds)
    stop = _stop_on_signals()

    async def prepare() -> None:
        await bot.set_my_commands(COMMANDS)
        await bot.delete_webhook()

    leases: asyncio.Task[None] | None = None
    stop_leases = asyncio.Event()  # set only after the drain: leases outlive SIGTERM
    try:
        if not await until_telegram_answers(prepare, stop):
            return  # stopped while Telegram was unreachable
        me = await bot.me()
        log.info("bot started: long polling as @%s", me.username)
        leases = asyncio.create_task(worker.keep_leases(stop_leases))
        outbox.start()
        alerts.start()
        await worker.poll(stop, allowed_updates=dp.resolve_used_update_types())
    finally:
        await stop_catalog_sync(sync)
        await stop_catalog_sync(digest)
        await alerts.stop()
        await outbox.stop(settings.shutdown_grace_seconds)
        await worker.drain(settings.shutdown_grace_seconds)
        stop_leases.set()
        if leases is not None:
            await leases
        await bot.session.close()


def create_worker(
    bot: Bot, settings: Settings, services: Services
) -> tuple[Dispatcher, UpdateWorker]:
    """The dispatcher and the worker that feeds it, around this process's coordination over
    the shared ledger."""
    coordinator = Coordinator(
        services.ledger,
        lease=timedelta(seconds=settings.update_lease_seconds),
        max_attempts=settings.update_max_attempts,
        process_timeout=timedelta(seconds=settings.process_timeout_seconds),
    )
    dp, _ = create_dispatcher(settings, services, coordinator)
    attach_limits(bot, services.send_limits)
    return dp, UpdateWorker(bot, dp, coordinator, settings.max_concurrent_updates)


async def until_telegram_answers(
    call: Callable[[], Awaitable[None]],
    stop: asyncio.Event | None = None,
    first_delay: float = 1.0,
    max_delay: float = 60.0,
) -> bool:
    """Run `call` until Telegram answers it, waiting longer after each failure (one log line
    each, no traceback): an unreachable or hanging Telegram at start is retried inside the
    process instead of crashing it into a restart loop. False when stopped (SIGTERM, SIGINT
    or `stop`) before it succeeded. A token Telegram rejects is a setting error."""
    stop = stop or _stop_on_signals()
    delay = first_delay
    while not stop.is_set():
        try:
            await call()
            return True
        except TelegramUnauthorizedError:
            raise SettingsError("Telegram rejects TELEGRAM_BOT_TOKEN (401 Unauthorized)") from None
        except (TelegramNetworkError, TelegramServerError, TelegramRetryAfter, TimeoutError) as exc:
            reason = f"{type(exc).__name__}: {exc}".strip().rstrip(":")
            log.warning("Telegram is unreachable (%s); retrying in %.0f s", reason, delay)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
        delay = min(delay * 2, max_delay)
    return False


def _stop_on_signals() -> asyncio.Event:
    """An event set by SIGTERM/SIGINT (aiogram installs its own handlers once polling runs)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop
