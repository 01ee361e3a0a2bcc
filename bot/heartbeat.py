"""The bot's last successful round trip to Telegram, kept in a small file for `sommelier
health` (the container's healthcheck): a polling bot that cannot reach Telegram is not healthy
even though its process runs."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.methods import Response, TelegramMethod
from aiogram.methods.base import TelegramType

WRITE_EVERY_SECONDS = 5.0


class Heartbeat(BaseRequestMiddleware):
    """Records (at most every few seconds) that a Bot API request succeeded."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._written = 0.0

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        response = await make_request(bot, method)
        now = time.time()
        if now - self._written >= WRITE_EVERY_SECONDS:
            self._written = now
            write_heartbeat(self.path, now)
        return response


def write_heartbeat(path: Path, at: float) -> None:
    with contextlib.suppress(OSError):  # a full or read-only disk must not break an answer
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"telegram_ok_at": at}))
        tmp.replace(path)


def last_telegram_success(path: Path) -> float | None:
    try:
        return float(json.loads(path.read_text())["telegram_ok_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
