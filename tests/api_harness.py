"""Serves the real HTTP API application on 127.0.0.1 over the test database."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from api.app import build_app
from core.settings import Settings
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.serving import serving, with_settings


@dataclass
class ApiHarness:
    base_url: str
    services: Services
    settings: Settings


@contextlib.asynccontextmanager
async def running_api(runtime: Runtime, **overrides: Any) -> AsyncIterator[ApiHarness]:
    settings = make_settings(**overrides)
    services = build_services(with_settings(runtime, settings))
    try:
        async with serving(build_app(services), handler_cancellation=True) as base:
            yield ApiHarness(base, services, settings)
    finally:
        await services.close()
