"""Webhook mode: Telegram posts updates to an aiohttp application (shared with the HTTP API).

Each update is stored in the database (its body, leased to this replica) before Telegram gets
its 200: a duplicate delivery to another replica is dropped, the order in which Telegram
delivered a chat's updates is the order they are answered in, and if this replica dies the
others answer what it had taken.
"""

from __future__ import annotations

import logging
from urllib.parse import urlparse

from aiogram import Bot, Dispatcher
from aiogram.types import Update
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from bot.intake import UpdateWorker

log = logging.getLogger(__name__)


def webhook_path(webhook_url: str) -> str:
    return urlparse(webhook_url).path or "/webhook"


class StoringRequestHandler(SimpleRequestHandler):
    def __init__(
        self, dispatcher: Dispatcher, bot: Bot, worker: UpdateWorker, secret_token: str | None
    ) -> None:
        super().__init__(dispatcher=dispatcher, bot=bot, secret_token=secret_token)
        self.worker = worker

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
            body = await request.json(loads=bot.session.json_loads)
            update = Update.model_validate(body, context={"bot": bot})
        except (ValueError, TypeError):
            return web.Response(body="Bad Request", status=400)
        await self.worker.receive([update], [body])  # stored before the 200
        return web.json_response({})


def add_webhook(
    app: web.Application,
    dp: Dispatcher,
    bot: Bot,
    worker: UpdateWorker,
    path: str,
    secret: str | None,
) -> None:
    StoringRequestHandler(dp, bot, worker, secret).register(app, path=path)
    setup_application(app, dp, bot=bot)
