"""Mounting the web pages on the bot's HTTP server (the aiohttp application of `api.app`)."""

from __future__ import annotations

from aiohttp import web

from services.app.container import Services
from web.chat.routes import add_chat
from web.console.routes import add_console
from web.pages import add_static
from web.sessions import Signer, signing_key

SIGNER_KEY = web.AppKey("web_signer", Signer)


def add_web(app: web.Application, services: Services) -> None:
    """The shared assets and signer; each feature adds its routes here."""
    app[SIGNER_KEY] = Signer(signing_key(services.settings))
    add_static(app)
    add_chat(app, services)
    add_console(app, services)
