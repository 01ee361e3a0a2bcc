"""Starts the scheduled catalog sync beside the bot when CATALOG_FEED_URL is set, and the
scheduled re-read of the shop's orders when ORDERS_URL is set (one task for both)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError

from core.settings import Settings
from services.app.container import Services

log = logging.getLogger(__name__)


def start_catalog_sync(
    bot: Bot, settings: Settings, services: Services
) -> asyncio.Task[None] | None:
    runs = [s for s in (services.catalog_sync, services.order_sync) if s is not None]
    if not runs:
        return None

    async def notify(message: str) -> None:
        for admin_id in settings.admin_id_set:
            try:
                await bot.send_message(admin_id, message[:4000], parse_mode=None)
            except TelegramAPIError as exc:
                log.warning("cannot message admin %s: %s", admin_id, exc)

    async def run_all() -> None:
        await asyncio.gather(*(s.run_forever(notify) for s in runs))

    return asyncio.create_task(run_all(), name="catalog-sync")


async def stop_catalog_sync(task: asyncio.Task[None] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
