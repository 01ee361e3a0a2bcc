"""Starts the weekly digest beside the bot (WEEKLY_DIGEST, on by default, with ADMIN_IDS)."""

from __future__ import annotations

import asyncio

from aiogram import Bot
from aiogram.types import BufferedInputFile

from core.settings import Settings
from services.app.console.digest import Send
from services.app.container import Services


def digest_sender(bot: Bot) -> Send:
    """How the digest reaches an admin: one photo with its caption."""

    async def send(admin_id: int, image: bytes, caption: str) -> None:
        await bot.send_photo(
            admin_id,
            BufferedInputFile(image, filename="sommelier-week.png"),
            caption=caption,
            parse_mode=None,
        )

    return send


def start_digest(bot: Bot, settings: Settings, services: Services) -> asyncio.Task[None] | None:
    if not settings.weekly_digest or not settings.admin_id_set:
        return None
    return asyncio.create_task(
        services.digest.run_forever(digest_sender(bot)), name="weekly-digest"
    )
