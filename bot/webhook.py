"""Webhook mode: Telegram posts updates to an aiohttp application (shared with the HTTP API).

Each update is claimed in the database before Telegram gets its 200, so a duplicate delivery
to another replica is dropped and the order in which Telegram delivered a chat's updates is
the order they are answered in, whichever replica handles them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import urlparse

from aiogram import Bot, Dispatcher
from aiogram.methods import TelegramMethod
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from services.app.coordination import Coordinator

log = logging.getLogger(__name__)
CLAIMED_KEY = "update_claimed"


def webhook_path(webhook_url: str) -> str:
    return urlparse(webhook_url).path or "/webhook"


def _chat_id(update: dict[str, Any]) -> int | None:
    for key in ("message", "edited_message"):
        if isinstance(update.get(key), dict):
            return update[key].get("chat", {}).get("id")
    query = update.get("callback_query")
    if isinstance(query, dict) and isinstance(query.get("message"), dict):
        return query["message"].get("chat", {}).get("id")
    return None


class ClaimingRequestHandler(SimpleRequestHandler):
    def __init__(
        self,
        dispatcher: Dispatcher,
        bot: Bot,
        coordinator: Coordinator,
        secret_token: str | None,
        max_concurrent: int = 100,
    ) -> None:
        super().__init__(dispatcher=dispatcher, bot=bot, secret_token=secret_token)
        self.coordinator = coordinator
        # Like polling's tasks_concurrency_limit: a burst beyond this waits before it touches
        # the database, instead of every update holding a pooled connection at once.
        self._slots = asyncio.Semaphore(max_concurrent)

    async def handle(self, request: web.Request) -> web.Response:
        header = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if not self.verify_secret(header, self.bot):
            log.warning(
                "webhook request refused: %s secret from %s",
                "missing" if not header else "wrong",
                request.remote,
            )
            return web.Response(body="Unauthorized", status=401)
        return await super().handle(request)

    async def _handle_request_background(self, bot: Bot, request: web.Request) -> web.Response:
        try:
            update = await request.json(loads=bot.session.json_loads)
            update_id = int(update["update_id"])
        except (ValueError, KeyError, TypeError):
            return web.Response(body="Bad Request", status=400)
        if not await self.coordinator.claim(update_id, _chat_id(update)):
            log.info("update %s was already delivered to a replica; dropping it", update_id)
            return web.json_response({})
        task = asyncio.create_task(self._feed_claimed(bot, update))
        self._background_feed_update_tasks.add(task)
        task.add_done_callback(self._background_feed_update_tasks.discard)
        return web.json_response({})

    async def _feed_claimed(self, bot: Bot, update: dict[str, Any]) -> None:
        async with self._slots:
            await self._feed(bot, update)

    async def _feed(self, bot: Bot, update: dict[str, Any]) -> None:
        result = await self.dispatcher.feed_raw_update(
            bot=bot, update=update, **{CLAIMED_KEY: True}, **self.data
        )
        if isinstance(result, TelegramMethod):
            await self.dispatcher.silent_call_request(bot=bot, result=result)


def add_webhook(
    app: web.Application,
    dp: Dispatcher,
    bot: Bot,
    coordinator: Coordinator,
    path: str,
    secret: str | None,
    max_concurrent: int = 100,
) -> None:
    ClaimingRequestHandler(dp, bot, coordinator, secret, max_concurrent).register(app, path=path)
    setup_application(app, dp, bot=bot)
