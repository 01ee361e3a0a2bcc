"""`sommelier bot`: long polling by default, webhook mode when WEBHOOK_URL is set."""

from __future__ import annotations

import logging

from aiogram.types import BotCommand
from aiohttp import web

from bot.factory import create_bot, create_dispatcher
from bot.middlewares import ChatOrderMiddleware
from bot.webhook import add_webhook, webhook_path
from sommelier.app import Services, build_services
from sommelier.memory import releasing_free_memory
from sommelier.runtime import open_runtime
from sommelier.settings import Settings

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
        self.dp, self.order = create_dispatcher(settings, services.chat, services.catalog_admin)

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

    async def drain(self) -> None:
        await drain(self.order, self.settings.shutdown_grace_seconds)

    async def close(self) -> None:
        await self.bot.session.close()


async def run_bot(settings: Settings) -> int:
    if settings.webhook_url:
        from api.server import serve

        return await serve(settings)
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        services = build_services(rt)
        chat = services.chat
        bot = create_bot(settings)
        dp, order = create_dispatcher(settings, chat, services.catalog_admin)
        try:
            await bot.set_my_commands(COMMANDS)
            await bot.delete_webhook()
            log.info("bot started: long polling")
            async with releasing_free_memory():
                await dp.start_polling(
                    bot,
                    handle_signals=True,
                    close_bot_session=False,
                    tasks_concurrency_limit=settings.max_concurrent_updates,
                )
        finally:
            await drain(order, settings.shutdown_grace_seconds)
            await bot.session.close()
            await services.close()
    return 0


async def drain(order: ChatOrderMiddleware, grace: float) -> None:
    """Let answers in flight finish before the process exits."""
    if order.in_flight:
        log.info("waiting for %d answers in flight", order.in_flight)
        if not await order.wait_idle(grace):
            log.warning("shutdown grace period over with %d answers unfinished", order.in_flight)
