"""Serves the real HTTP API application on 127.0.0.1 over the test database."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from api.app import build_app
from services.chat_service import ChatService
from sommelier.app import Services, build_services
from sommelier.runtime import Runtime
from sommelier.settings import Settings
from tests.conftest import make_settings
from tests.serving import serving, with_settings


@dataclass
class ApiHarness:
    base_url: str
    chat: ChatService
    services: Services
    settings: Settings


@contextlib.asynccontextmanager
async def running_api(runtime: Runtime, **overrides: Any) -> AsyncIterator[ApiHarness]:
    settings = make_settings(**overrides)
    services = build_services(with_settings(runtime, settings))
    chat = services.chat
    try:
        async with serving(build_app(chat, settings), handler_cancellation=True) as base:
            yield ApiHarness(base, chat, services, settings)
    finally:
        await services.close()
