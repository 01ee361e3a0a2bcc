"""The one place that combines the adapters: the bot (polling or webhook) and the HTTP API.

`sommelier bot` runs long polling, or — with WEBHOOK_URL — the webhook mounted on the HTTP API's
aiohttp application; `sommelier serve` runs that application (with the webhook when configured).
"""

from __future__ import annotations

import asyncio
import logging
import signal

from aiohttp import web

from api.app import build_app
from bot.runner import TelegramWebhook, run_polling
from core.errors import SettingsError
from core.language.reading import prepare as prepare_language
from core.settings import Settings
from services.app.container import Services, build_services
from services.app.runtime import open_runtime
from sommelier.memory import freeze_start_up, releasing_free_memory
from web.app import add_web

log = logging.getLogger(__name__)


def build_served_app(
    settings: Settings, services: Services, *, api: bool = True
) -> tuple[web.Application, TelegramWebhook | None]:
    """The HTTP API app (`/healthz` only when `api` is False), with the Telegram webhook
    mounted on it when WEBHOOK_URL is set."""
    app = build_app(services, api=api)
    add_web(app, services)
    if not (settings.webhook_url and settings.telegram_bot_token):
        return app, None
    telegram = TelegramWebhook(settings, services)
    telegram.mount(app)
    return app, telegram


async def run_bot(settings: Settings) -> int:
    if not settings.telegram_bot_token:  # said before anything starts, in one line
        raise SettingsError("TELEGRAM_BOT_TOKEN is not set (the token @BotFather gave the bot)")
    if settings.webhook_url:
        # The webhook's port is public: the HTTP API shares it only behind API_TOKEN.
        if not settings.api_token:
            log.info("HTTP API off on the webhook port (set API_TOKEN to serve it there)")
        return await serve(settings, api=bool(settings.api_token))
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        services = build_services(rt)
        stop = asyncio.Event()
        keeper = asyncio.create_task(services.housekeeping.run(stop))
        # With HTTP_PORT or PUBLIC_URL set the polling bot serves its HTTP server too: the web
        # chat, the console, «Купить» redirects (the API only behind API_TOKEN).
        serve_web = http_port_set(settings) or bool(settings.public_url)
        runner = await _start_web(settings, services) if serve_web else None
        try:
            prepare_language()
            freeze_start_up()
            async with releasing_free_memory():
                await run_polling(settings, services)
        finally:
            stop.set()
            await keeper
            if runner is not None:
                await runner.cleanup()
            await services.close()
    return 0


def http_port_set(settings: Settings) -> bool:
    """HTTP_PORT was given (environment, .env or an option), not just its default."""
    return "http_port" in settings.model_fields_set


async def _start_web(settings: Settings, services: Services) -> web.AppRunner:
    app, _ = build_served_app(settings, services, api=bool(settings.api_token))
    runner = web.AppRunner(app, handler_cancellation=True)
    await runner.setup()
    await web.TCPSite(runner, settings.http_host, settings.http_port).start()
    log.info("web chat and console on %s:%d", settings.http_host, settings.http_port)
    return runner


async def serve(
    settings: Settings, host: str | None = None, port: int | None = None, *, api: bool = True
) -> int:
    stop = _stop_on_signals()
    async with open_runtime(settings) as rt:
        await rt.ensure_ready()
        services = build_services(rt)
        app, telegram = build_served_app(settings, services, api=api)
        runner = web.AppRunner(app, handler_cancellation=True)
        await runner.setup()
        bind_host, bind_port = host or settings.http_host, port or settings.http_port
        await web.TCPSite(runner, bind_host, bind_port).start()
        log.info("HTTP API and web chat (/chat) on %s:%d", bind_host, bind_port)
        keeper = asyncio.create_task(services.housekeeping.run(stop))
        try:
            if telegram is not None:
                await telegram.register(stop)
            prepare_language()
            freeze_start_up()
            async with releasing_free_memory():
                await stop.wait()
        finally:
            stop.set()
            await keeper
            if telegram is not None:
                await telegram.drain()
            await runner.cleanup()
            if telegram is not None:
                await telegram.close()
            await services.close()
    return 0


def _stop_on_signals() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop
