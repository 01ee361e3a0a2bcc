"""Starts the weekly digest beside the bot (WEEKLY_DIGEST, on by default, with ADMIN_IDS)."""

from __future__ import annotations

import asyncio

from aiogram import Bot
from aiogram.types import BufferedInputFile

from core.settings import Settings
from services.app.console.digest import WeeklyDigest
from services.app.console.reports import ConsoleService
from services.app.container import Services
from services.app.database import GuardedSessions


def weekly_digest(bot: Bot, settings: Settings, services: Services) -> WeeklyDigest:
    async def send(admin_id: int, image: bytes, caption: str) -> None:
        await bot.send_photo(
            admin_id,
            BufferedInputFile(image, filename="sommelier-week.png"),
            caption=caption,
            parse_mode=None,
        )

    console = ConsoleService(GuardedSessions(services.chat.sessions), settings)
    return WeeklyDigest(console, settings.admin_id_set, send)


def start_digest(bot: Bot, settings: Settings, services: Services) -> asyncio.Task[None] | None:
    if not settings.weekly_digest or not settings.admin_id_set:
        return None
    digest = weekly_digest(bot, settings, services)
    return asyncio.create_task(digest.run_forever(), name="weekly-digest")
