"""Webhook mode: an aiohttp application that Telegram posts updates to."""

from __future__ import annotations

from urllib.parse import urlparse

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler, setup_application
from aiohttp import web

from services.chat_service import ChatService


def webhook_path(webhook_url: str) -> str:
    return urlparse(webhook_url).path or "/webhook"


def add_webhook(
    app: web.Application, dp: Dispatcher, bot: Bot, path: str, secret: str | None
) -> None:
    # SimpleRequestHandler answers 401 to any request whose
    # X-Telegram-Bot-Api-Secret-Token header does not match the secret.
    SimpleRequestHandler(dispatcher=dp, bot=bot, secret_token=secret).register(app, path=path)
    setup_application(app, dp, bot=bot)


def add_healthz(app: web.Application, chat: ChatService, llm_configured: bool) -> None:
    async def healthz(request: web.Request) -> web.Response:
        ok = await chat.database_ok()
        body = {"database": "ok" if ok else "unavailable", "llm_configured": llm_configured}
        return web.json_response(body, status=200 if ok else 503)

    app.router.add_get("/healthz", healthz)
