"""`POST /v1/orders`: the shop platform's webhook — one order or {"orders": [...]} as JSON.

Accepted with `Authorization: Bearer <API_TOKEN>` or `X-Signature: sha256=<hex HMAC-SHA256 of
the raw body under ORDERS_WEBHOOK_SECRET>`, both compared in constant time; anything else is
401 and nothing is read into the database. Bad orders are 400 with their reasons, while the
good ones of the same batch are stored."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from core.errors import DatabaseUnavailableError, OrderFileError
from services.app.container import Services

log = logging.getLogger(__name__)
ORDERS_PATH = "/v1/orders"
MAX_ORDERS_BODY = 5 * 1024 * 1024
SIGNATURE_HEADER = "X-Signature"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _error(status: int, message: str, **extra: object) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


def _bearer_ok(request: web.Request, token: str | None) -> bool:
    given = request.headers.get("Authorization", "")
    return bool(token and given) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def signature_of(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _signature_ok(given: str, secret: str | None, body: bytes) -> bool:
    if not secret or not given:
        return False
    return hmac.compare_digest(given.strip().encode(), signature_of(secret, body).encode())


def orders_handler(services: Services) -> Handler:
    settings = services.settings

    async def receive(request: web.Request) -> web.StreamResponse:
        if not (settings.api_token or settings.orders_webhook_secret):
            return _error(403, "receiving orders needs API_TOKEN or ORDERS_WEBHOOK_SECRET")
        bearer = _bearer_ok(request, settings.api_token)
        signature = request.headers.get(SIGNATURE_HEADER, "")
        if not bearer and not (signature and settings.orders_webhook_secret):
            log.warning("orders refused: no valid token or signature from %s", request.remote)
            return _error(401, "unauthorized")
        try:
            body = await request.clone(client_max_size=MAX_ORDERS_BODY).read()
        except web.HTTPRequestEntityTooLarge:
            return _error(413, f"the body is larger than {MAX_ORDERS_BODY // 2**20} MB")
        if not bearer and not _signature_ok(signature, settings.orders_webhook_secret, body):
            log.warning("orders refused: a forged signature from %s", request.remote)
            return _error(401, "unauthorized")
        try:
            report = await services.orders.receive(body)
        except OrderFileError as exc:
            problems = [getattr(p, "as_dict", lambda p=p: str(p))() for p in exc.problems]
            return _error(400, exc.summary, problems=problems)
        except DatabaseUnavailableError:
            return _error(503, "service temporarily unavailable")
        if report.skipped:
            return web.json_response(
                {"error": f"{report.skipped} rows were not stored", **report.as_dict()},
                status=400,
            )
        return web.json_response(report.as_dict())

    return receive
