"""Mounting the web pages on the bot's HTTP server (the aiohttp application of `api.app`)."""

from __future__ import annotations

from aiohttp import web

from services.app.container import Services
from web.chat.routes import add_chat
from web.console.routes import add_console
from web.pages import add_static


def add_web(app: web.Application, services: Services) -> None:
    """The shared assets; each feature adds its routes here."""
    add_static(app)
    add_chat(app, services)
    add_console(app, services)
