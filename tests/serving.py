"""Serving an aiohttp app on 127.0.0.1 for a test, and ports nothing listens on."""

from __future__ import annotations

import contextlib
import dataclasses
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.runner import TelegramWebhook
from core.settings import Settings
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from sommelier.serve import build_served_app


def free_port() -> int:
    """A local port nothing listens on (bound and released), for 'connection refused'."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def serving(app: web.Application, **runner_options: Any) -> AsyncIterator[str]:
    """Serve `app` on a free local port; yields its base URL (http://127.0.0.1:PORT)."""
    runner = web.AppRunner(app, **runner_options)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        host, port = runner.addresses[0][:2]
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


def with_settings(runtime: Runtime, settings: Settings) -> Runtime:
    """The test database's runtime (engines and sessions) under other settings."""
    return dataclasses.replace(runtime, settings=settings)


@dataclass
class ServedApp:
    base: str
    telegram: TelegramWebhook
    services: Services


@contextlib.asynccontextmanager
async def serving_with_webhook(runtime: Runtime, settings: Settings) -> AsyncIterator[ServedApp]:
    """What `sommelier serve` runs when WEBHOOK_URL is set: the HTTP API with the bot mounted,
    on the test database; answers in flight are drained before it stops."""
    services = build_services(with_settings(runtime, settings))
    app, telegram = build_served_app(settings, services)
    assert telegram is not None, "set webhook_url and telegram_bot_token"
    try:
        async with serving(app) as base:
            try:
                yield ServedApp(base, telegram, services)
            finally:
                await telegram.drain()
    finally:
        await telegram.close()
        await services.close()
