"""`sommelier health`: is this deployment serving? Exit 0 when it is (the image's healthcheck).

- the database answers `SELECT 1`;
- a polling bot reached Telegram recently (its heartbeat file, `HEALTH_FILE`);
- a webhook bot or `serve` answers its own `/healthz` on HTTP_PORT.
"""

from __future__ import annotations

import asyncio
import time

import aiohttp
from sqlalchemy import text

from bot.heartbeat import last_telegram_success
from core.settings import Settings
from services.app.runtime import open_runtime

TELEGRAM_MAX_AGE_SECONDS = 120.0
CHECK_TIMEOUT_SECONDS = 5.0


async def check_health(settings: Settings) -> tuple[bool, list[str]]:
    """(healthy, one line per check)."""
    lines: list[str] = []
    database = await _database_ok(settings)
    lines.append(f"database: {'ok' if database else 'unavailable'}")
    ok = database
    if settings.webhook_url:
        served = await _healthz_ok(settings)
        lines.append(f"webhook server on port {settings.http_port}: {'ok' if served else 'down'}")
        ok = ok and served
    elif settings.telegram_bot_token:
        at = last_telegram_success(settings.health_file)
        age = None if at is None else time.time() - at
        if age is None:
            lines.append("telegram: no successful request yet")
        else:
            lines.append(f"telegram: last successful request {age:.0f} s ago")
        ok = ok and age is not None and age <= TELEGRAM_MAX_AGE_SECONDS
    return ok, lines


async def _database_ok(settings: Settings) -> bool:
    try:
        async with open_runtime(settings) as rt, rt.engine.connect() as conn:
            await asyncio.wait_for(conn.execute(text("SELECT 1")), CHECK_TIMEOUT_SECONDS)
    except Exception:  # whatever the failure, the database is not serving
        return False
    return True


async def _healthz_ok(settings: Settings) -> bool:
    url = f"http://127.0.0.1:{settings.http_port}/healthz"
    timeout = aiohttp.ClientTimeout(total=CHECK_TIMEOUT_SECONDS)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as http, http.get(url) as response:
            return response.status == 200
    except (aiohttp.ClientError, TimeoutError):
        return False
