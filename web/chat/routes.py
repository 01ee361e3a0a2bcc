"""The web chat (`/chat`) and its widget (`/chat/widget.js`): the same sommelier as in Telegram
— the same services' answers, fallbacks, conversation state, votes, «Похожие», favourites,
/forget — for an anonymous visitor known by a cookie (services/app/people/visitors.py).

The page streams an answer from `POST /chat/api/message` (server-sent events read with
fetch), the other buttons are small JSON calls; every call is same-origin only and
cookie-authenticated (web/chat/access.py), not behind API_TOKEN."""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from core.errors import DatabaseUnavailableError
from services.app.container import Services
from services.app.people.visitors import (
    LINK_CODE_VALID,
    new_token,
    parse_wine_reference,
    shown_code,
)
from services.app.texts import T
from services.app.turns.events import server_sent
from web.chat import events
from web.chat.access import (
    cookie_outdated,
    embedding_allowed,
    give_cookie,
    page_csp,
    same_origin,
    script_headers,
    visitor_token,
)
from web.pages import STATIC_DIR, render

log = logging.getLogger(__name__)

WIDGET_JS = STATIC_DIR / "chat" / "widget.js"

#: The page's error codes and what the visitor reads for each.
TEXT = {
    "empty": T.empty_text,
    "rate_limited": T.rate_limited,
    "unavailable": T.unavailable,
    "apology": T.apology,
    "age": T.age_required,
    "origin": T.web_not_from_page,
    "visitor": T.web_no_visitor,
    "wine": T.wine_gone,
}

WEB_CHAT_KEY = web.AppKey("web_chat", Services)
Api = Callable[[web.Request, Services, dict[str, Any], str], Awaitable[web.StreamResponse]]


def _error(status: int, key: str, **extra: Any) -> web.Response:
    return web.json_response({"error": key, "message": TEXT[key], **extra}, status=status)


def api(handler: Api) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """Same origin, a JSON object body, the visitor's cookie and the per-address limit."""

    async def wrapped(request: web.Request) -> web.StreamResponse:
        services = request.app[WEB_CHAT_KEY]
        if not same_origin(request):
            return _error(403, "origin")
        if request.content_type != "application/json":
            return web.json_response({"error": "body", "message": "JSON expected"}, status=415)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = None
        if not isinstance(body, dict):
            return web.json_response({"error": "body", "message": "JSON object expected"}, 422)
        token = visitor_token(request, services.signer)
        if token is None:
            return _error(401, "visitor")
        try:
            if not await services.rate_limits.allow_address(
                f"web-ip:{request.remote or 'unknown'}"
            ):
                return _error(429, "rate_limited")
            return await handler(request, services, body, token)
        except DatabaseUnavailableError:
            return _error(503, "unavailable")

    return wrapped


async def _adult(services: Services, token: str) -> int | None:
    """The visitor's user id once they have confirmed 18+, else None."""
    user_id = await services.visitors.user_of(token)
    if user_id is None:
        return None
    state = await services.people.state(user_id)
    return user_id if state is not None and state.age_confirmed else None


def _wine_id(body: dict[str, Any]) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(body.get("wine_id", "")))
    except ValueError:
        return None


async def page(request: web.Request) -> web.Response:
    services = request.app[WEB_CHAT_KEY]
    embed = request.query.get("embed") == "1"
    wine = parse_wine_reference(request.query.get("wine", "")) or ""
    token = visitor_token(request, services.signer)
    adult = False
    if token is not None:
        try:
            adult = await _adult(services, token) is not None
        except DatabaseUnavailableError:
            adult = False  # the page still opens; its first call says the service is away
    response = render(
        "chat/chat.html",
        csp=page_csp(services.settings, embed),
        embed=embed,
        wine=wine,
        adult=adult,
        max_chars=services.settings.max_message_chars,
    )
    if token is None or cookie_outdated(request, services.signer):
        give_cookie(response, request, services.signer, token or new_token())
    return response


async def widget(request: web.Request) -> web.Response:
    services = request.app[WEB_CHAT_KEY]
    if not embedding_allowed(request, services.settings):
        log.info("widget.js refused to a page of %s", request.headers.get("Origin") or "a site")
        return web.Response(status=403, text="/* this site may not embed the chat */")
    return web.Response(
        body=WIDGET_JS.read_bytes(), headers=script_headers(request, services.settings)
    )


@api
async def confirm_age(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    if body.get("adult") is not True:
        return web.json_response({"adult": False, "message": T.web_age_refused})
    user_id = await services.visitors.open(token)
    await services.people.confirm_age(user_id)
    return web.json_response({"adult": True})


@api
async def message(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.StreamResponse:
    user_id = await _adult(services, token)
    if user_id is None:
        return _error(403, "age")
    admitted = services.admission.admit(str(body.get("text") or ""), who=user_id)
    if admitted.refusal == "empty":
        return _error(422, "empty")
    if admitted.refusal == "too_long":
        message = T.web_too_long.format(limit=admitted.limit)
        return web.json_response({"error": "too_long", "message": message}, status=422)
    if not await services.rate_limits.allow(f"web:{user_id}"):
        return _error(429, "rate_limited")
    wine = parse_wine_reference(str(body.get("wine") or ""))
    return await _answer(request, services, user_id, admitted.text, wine)


async def _answer(
    request: web.Request, services: Services, user_id: int, text: str, wine: str | None
) -> web.StreamResponse:
    """The turn as server-sent events: a status, the agent's steps as the page shows them, the
    answer. The wine of the shop's page the chat is on (`wine`) joins the conversation with
    the turn."""
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
            "X-Content-Type-Options": "nosniff",
        }
    )
    await response.prepare(request)
    await response.write(server_sent("status", {"text": T.thinking_status}))
    stream = services.turns.stream(user_id, text, stream_answer=True, page=wine)
    try:
        async for event in stream:
            shown = events.page_event(event)
            if shown is not None:
                await response.write(server_sent(*shown))
    except (ConnectionResetError, asyncio.CancelledError):
        log.info("web chat visitor went away; agent run cancelled")
        await stream.aclose()
        raise
    except DatabaseUnavailableError:
        await response.write(server_sent("error", {"message": T.unavailable}))
    except Exception:
        log.exception("web chat answer failed")
        await response.write(server_sent("error", {"message": T.apology}))
    await response.write_eof()
    return response


@api
async def vote(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    user_id, wine_id = await _adult(services, token), _wine_id(body)
    if user_id is None:
        return _error(403, "age")
    if wine_id is None or body.get("vote") not in (1, -1):
        return web.json_response({"error": "body", "message": "wine_id and vote ±1"}, 422)
    change = await services.taste.vote(user_id, wine_id, int(body["vote"]))
    if change is None:
        return _error(404, "wine")
    return web.json_response({"vote": change.current, "changed": change.previous is not None})


@api
async def similar(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    about = await _adult_about_a_wine(services, token, body)
    if isinstance(about, web.Response):
        return about
    user_id, wine_id = about
    if not await services.rate_limits.allow(f"web:{user_id}"):
        return _error(429, "rate_limited")
    rec = await services.similar.similar(user_id, wine_id)
    if rec is None:
        return _error(404, "wine")
    return web.json_response(events.answer(rec))


@api
async def favourite(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    about = await _adult_about_a_wine(services, token, body)
    if isinstance(about, web.Response):
        return about
    user_id, wine_id = about
    added = await services.favourites.add(user_id, wine_id)
    if added is None:
        return _error(404, "wine")
    return web.json_response({"added": added, "kept": True})


@api
async def new_conversation(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    user_id = await services.visitors.user_of(token)
    if user_id is not None:
        await services.people.new_conversation(user_id)
    return web.json_response({"new": True})


@api
async def forget(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    """«Удалить мои данные»: everything about the visitor, as /forget does — with the row that
    tied the cookie's token to them, so the same browser is a stranger afterwards (a new
    random id on its next 18+ confirmation; nothing links it to what was deleted)."""
    user_id = await services.visitors.user_of(token)
    removed = await services.people.forget(user_id) if user_id is not None else {}
    return web.json_response({"deleted": removed})


@api
async def link_code(
    request: web.Request, services: Services, body: dict[str, Any], token: str
) -> web.Response:
    if await _adult(services, token) is None:
        return _error(403, "age")
    code = await services.visitors.link_code(token)
    if code is None:
        return web.json_response({"linked": True})
    minutes = int(LINK_CODE_VALID.total_seconds() // 60)
    return web.json_response({"code": shown_code(code), "minutes": minutes})


def add_chat(app: web.Application, services: Services) -> None:
    """`/chat`, its API under `/chat/api/` and `/chat/widget.js` on the bot's HTTP server."""
    app[WEB_CHAT_KEY] = services
    app.router.add_get("/chat", page)
    app.router.add_get("/chat/widget.js", widget)
    for name, handler in {
        "age": confirm_age,
        "message": message,
        "vote": vote,
        "similar": similar,
        "favourite": favourite,
        "new": new_conversation,
        "forget": forget,
        "link": link_code,
    }.items():
        app.router.add_post(f"/chat/api/{name}", handler)


async def _adult_about_a_wine(
    services: Services, token: str, body: dict[str, Any]
) -> tuple[int, uuid.UUID] | web.Response:
    """The visitor (past the 18+ gate) and the wine a button is about, or the refusal."""
    user_id, wine_id = await _adult(services, token), _wine_id(body)
    if user_id is None:
        return _error(403, "age")
    if wine_id is None:
        return web.json_response({"error": "body", "message": "wine_id expected"}, 422)
    return user_id, wine_id
