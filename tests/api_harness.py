"""Serves the real HTTP API application on 127.0.0.1 over the test database."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from api.app import build_app
from services.chat_service import ChatService
from sommelier.app import Services, build_services
from sommelier.runtime import Runtime
from sommelier.settings import Settings
from tests.conftest import make_settings


@dataclass
class ApiHarness:
    base_url: str
    chat: ChatService
    services: Services
    settings: Settings


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def running_api(runtime: Runtime, **overrides: Any) -> AsyncIterator[ApiHarness]:
    settings = make_settings(**overrides)
    rt = Runtime(settings, runtime.location, runtime.engine, runtime.sessions)
    services = build_services(rt)
    chat = services.chat
    runner = web.AppRunner(build_app(chat, settings), handler_cancellation=True)
    await runner.setup()
    port = _free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield ApiHarness(f"http://127.0.0.1:{port}", chat, services, settings)
    finally:
        await runner.cleanup()
        await services.close()
