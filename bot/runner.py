"""The bot's two ways to receive updates: long polling, or a webhook on an aiohttp app."""

from __future__ import annotations

import asyncio
import logging

from aiogram.types import BotCommand
from aiohttp import web

from bot.catalog_schedule import start_catalog_sync, stop_catalog_sync
from bot.factory import create_bot, create_dispatcher
from bot.middlewares import ChatOrderMiddleware
from bot.webhook import add_webhook, webhook_path
from core.settings import Settings
from services.app.container import Services

log = logging.getLogger(__name__)

COMMANDS = [
    BotCommand(command="start", description="Начать"),
    BotCommand(command="help", description="Что умеет бот"),
    BotCommand(command="profile", description="Мой вкусовой профиль"),
    BotCommand(command="new", description="Новый разговор"),
]


class TelegramWebhook:
    """The bot mounted on an aiohttp application (shared with the HTTP API)."""

    def __init__(self, settings: Settings, services: Services) -> None:
        self.settings = settings
        self.bot = create_bot(settings)
        self.dp, self.order = create_dispatcher(settings, services)
        self.services = services
        self.sync: asyncio.Task[None] | None = None

    def mount(self, app: web.Application) -> None:
        assert self.settings.webhook_url is not None
        add_webhook(
            app,
            self.dp,
            self.bot,
            self.order.coordinator,
            webhook_path(self.settings.webhook_url),
            self.settings.webhook_secret,
            self.settings.max_concurrent_updates,
        )

    async def register(self) -> None:
        assert self.settings.webhook_url is not None
        await self.bot.set_my_commands(COMMANDS)
        await self.bot.set_webhook(
            self.settings.webhook_url,
            secret_token=self.settings.webhook_secret,
            allowed_updates=self.dp.resolve_used_update_types(),
        )
        log.info("bot started: webhook %s", webhook_path(self.settings.webhook_url))
        self.sync = start_catalog_sync(self.bot, self.settings, self.services)

    async def drain(self) -> None:
        await stop_catalog_sync(self.sync)
        await drain(self.order, self.settings.shutdown_grace_seconds)

    async def close(self) -> None:
        await self.bot.session.close()


async def run_polling(settings: Settings, services: Services) -> None:
    """Long polling until SIGTERM/SIGINT, then let the answers in flight finish."""
    bot = create_bot(settings)
    dp, order = create_dispatcher(settings, services)
    sync = start_catalog_sync(bot, settings, services)
    try:
        await bot.set_my_commands(COMMANDS)
        await bot.delete_webhook()
        log.info("bot started: long polling")
        await dp.start_polling(
            bot,
            handle_signals=True,
            close_bot_session=False,
            tasks_concurrency_limit=settings.max_concurrent_updates,
        )
    finally:
        await stop_catalog_sync(sync)
        await drain(order, settings.shutdown_grace_seconds)
        await bot.session.close()


async def drain(order: ChatOrderMiddleware, grace: float) -> None:
    """Let answers in flight finish before the process exits."""
    if order.in_flight:
        log.info("waiting for %d answers in flight", order.in_flight)
        if not await order.wait_idle(grace):
            log.warning("shutdown grace period over with %d answers unfinished", order.in_flight)
