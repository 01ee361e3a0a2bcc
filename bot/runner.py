"""`sommelier bot`: long polling by default, webhook mode when WEBHOOK_URL is set."""

from __future__ import annotations

import asyncio
import logging
import signal
from datetime import timedelta

from aiogram import Bot, Dispatcher
from aiogram.types import BotCommand
from aiohttp import web

from bot.factory import create_bot, create_dispatcher
from bot.middlewares import ChatOrderMiddleware
from bot.webhook import add_healthz, add_webhook, webhook_path
from services.catalog_admin import CatalogAdmin
from services.chat_service import ChatService
from sommelier.app import build_services
from sommelier.runtime import open_runtime
from sommelier.settings import Settings

log = logging.getLogger(__name__)

COMMANDS = [
    BotCommand(command="start", description="Начать"),
    BotCommand(command="help", description="Что умеет бот"),
    BotCommand(command="profile", description="Мой вкусовой профиль"),
    BotCommand(command="new", description="Новый разговор"),
]


async def run_bot(settings: Settings) -> int:
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        services = build_services(rt)
        chat = ChatService(
            rt.sessions,
            services.sommelier,
            services.embeddings,
            inactivity=timedelta(hours=settings.conversation_inactivity_hours),
        )
        bot = create_bot(settings)
        dp, order = create_dispatcher(
            settings, chat, CatalogAdmin(rt.sessions, services.embeddings)
        )
        try:
            await bot.set_my_commands(COMMANDS)
            if settings.webhook_url:
                await _run_webhook(settings, dp, bot, chat, order, services.llm.configured)
            else:
                log.info("bot started: long polling")
                await dp.start_polling(bot, handle_signals=True, close_bot_session=False)
        finally:
            await _drain(order, settings.shutdown_grace_seconds)
            await bot.session.close()
            await services.close()
    return 0


async def _drain(order: ChatOrderMiddleware, grace: float) -> None:
    """Let answers in flight finish before the process exits."""
    if order.in_flight:
        log.info("waiting for %d answers in flight", order.in_flight)
        if not await order.wait_idle(grace):
            log.warning("shutdown grace period over with %d answers unfinished", order.in_flight)


async def _run_webhook(
    settings: Settings,
    dp: Dispatcher,
    bot: Bot,
    chat: ChatService,
    order: ChatOrderMiddleware,
    llm_configured: bool,
) -> None:
    assert settings.webhook_url is not None
    app = web.Application()
    add_webhook(app, dp, bot, webhook_path(settings.webhook_url), settings.webhook_secret)
    add_healthz(app, chat, llm_configured)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, settings.http_host, settings.http_port)
    await site.start()
    await bot.set_webhook(
        settings.webhook_url,
        secret_token=settings.webhook_secret,
        allowed_updates=dp.resolve_used_update_types(),
    )
    log.info("bot started: webhook on port %d", settings.http_port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await _drain(order, settings.shutdown_grace_seconds)
        await runner.cleanup()
