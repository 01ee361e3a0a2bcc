"""Runs the real aiogram Dispatcher against the fake Telegram server (and optionally the fake
OpenAI server), polling in a background task."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from aiogram import Bot, Dispatcher

from bot.factory import create_bot
from bot.intake import UpdateWorker
from bot.runner import create_worker
from core.settings import Settings
from fakes.telegram_server import FakeTelegramServer, SentCall
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.serving import with_settings

ADMIN_ID = 900001


@dataclass
class BotHarness:
    tg: FakeTelegramServer
    settings: Settings
    bot: Bot
    dp: Dispatcher
    order: UpdateWorker
    services: Services

    def texts(self, chat_id: int) -> list[str]:
        return [
            c.visible_text or ""
            for c in self.tg.sent(chat_id=chat_id)
            if c.method in ("sendMessage", "sendPhoto")
        ]

    async def say(self, chat_id: int, text: str, **extra: Any) -> None:
        self.tg.push_update(self.tg.message_update(chat_id, text, **extra))

    async def press(self, chat_id: int, data: str, message_id: int) -> None:
        self.tg.push_update(self.tg.callback_update(chat_id, data, message_id=message_id))

    async def wait_messages(
        self, chat_id: int, count: int, timeout: float = 15.0
    ) -> list[SentCall]:
        def enough(calls: list[SentCall]) -> bool:
            return (
                len(
                    [
                        c
                        for c in calls
                        if c.chat_id == chat_id and c.method in ("sendMessage", "sendPhoto")
                    ]
                )
                >= count
            )

        await self.tg.wait_for(enough, timeout)
        return [
            c for c in self.tg.sent(chat_id=chat_id) if c.method in ("sendMessage", "sendPhoto")
        ]

    async def idle(self, timeout: float = 15.0) -> None:
        """Wait until every pushed update was fetched and handled."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if not self.tg.pending_updates and self.order.in_flight == 0:
                await asyncio.sleep(0.05)
                if not self.tg.pending_updates and self.order.in_flight == 0:
                    return
            await asyncio.sleep(0.02)
        raise AssertionError("the bot did not finish handling its updates")


@contextlib.asynccontextmanager
async def running_bot(
    runtime: Runtime, *, telegram_token: str = "123456:TEST-token", **overrides: Any
) -> AsyncIterator[BotHarness]:
    async with FakeTelegramServer(telegram_token) as tg:
        values: dict[str, Any] = {
            "telegram_bot_token": tg.token,
            "telegram_api_url": tg.base_url,
            "admin_ids": str(ADMIN_ID),
        }
        values.update(overrides)
        settings = make_settings(**values)
        services = build_services(with_settings(runtime, settings))
        bot = create_bot(settings)
        dp, worker = create_worker(bot, settings, services)
        stop = asyncio.Event()
        await bot.me()
        task = asyncio.create_task(
            worker.poll(stop, polling_timeout=1, allowed_updates=dp.resolve_used_update_types())
        )
        leases = asyncio.create_task(worker.keep_leases(stop))
        harness = BotHarness(tg, settings, bot, dp, worker, services)
        try:
            yield harness
        finally:
            stop.set()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)
            await worker.wait_idle(5)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(leases, 5)
            await bot.session.close()
            await services.close()
