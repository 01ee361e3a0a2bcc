"""The HTTP API (aiohttp): the agent as a server-sent event stream, plus status and health.

The same aiohttp application serves the Telegram webhook when WEBHOOK_URL is set.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.errors import DatabaseUnavailableError
from core.settings import Settings
from core.text import clean_user_text
from services.agent.events import AgentEvent, ErrorEvent, Final
from services.agent.run import MAX_STEPS
from services.app.chat import ChatService
from services.app.container import Services
from services.app.rate_limit import RateLimiter

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
CHAT_KEY = web.AppKey("chat", ChatService)
SETTINGS_KEY = web.AppKey("settings", Settings)
LIMITER_KEY = web.AppKey("limiter", RateLimiter)


class AgentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    user_id: int | None = Field(default=None, ge=-(2**63), le=2**63 - 1)  # a bigint
    conversation_id: uuid.UUID | None = None
    tools_allowlist: list[str] | None = None
    max_steps: int = Field(default=MAX_STEPS, ge=1, le=MAX_STEPS)


def _app_version() -> str:
    try:
        return version("sommelier")
    except PackageNotFoundError:
        return "unknown"


def _error(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status)


async def _parse(request: web.Request) -> AgentRequest | web.Response:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error(422, "the body must be a JSON object", field="body")
    if not isinstance(body, dict):
        return _error(422, "the body must be a JSON object", field="body")
    try:
        parsed = AgentRequest.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "body"
        return _error(422, f"{field}: {first['msg']}", field=field)
    parsed.query = clean_user_text(parsed.query)
    if not parsed.query:
        return _error(422, "query: must not be blank", field="query")
    limit = request.app[SETTINGS_KEY].max_message_chars
    if len(parsed.query) > limit:
        return _error(422, f"query: at most {limit} characters", field="query")
    known = set(request.app[CHAT_KEY].tool_names())
    unknown = [t for t in parsed.tools_allowlist or [] if t not in known]
    if unknown:
        return _error(422, f"tools_allowlist: unknown tools {unknown}", field="tools_allowlist")
    return parsed


def _client_key(request: web.Request) -> str:
    """Who is counted for the rate limit: the token's digest (never the token), else the IP."""
    auth = request.headers.get("Authorization", "")
    if auth:
        return "api:" + hashlib.sha256(auth.encode()).hexdigest()[:32]
    return f"api:{request.remote or 'unknown'}"


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bearer token (when API_TOKEN is set) and the per-client rate limit on /v1/ routes."""
    if not request.path.startswith("/v1/"):
        return await handler(request)
    token = request.app[SETTINGS_KEY].api_token
    if token:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            log.warning("API request refused: missing or wrong token from %s", request.remote)
            return _error(401, "unauthorized")
    if request.method == "POST":
        try:
            allowed = await request.app[LIMITER_KEY].allow(_client_key(request))
        except DatabaseUnavailableError:
            return _error(503, "service temporarily unavailable")
        if not allowed:
            return _error(429, "too many requests; try again in a minute")
    return await handler(request)


def _sse(event: AgentEvent) -> bytes:
    data = event.model_dump(mode="json", exclude={"event"})
    return f"event: {event.event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


async def stream(request: web.Request) -> web.StreamResponse:
    parsed = await _parse(request)
    if isinstance(parsed, web.Response):
        return parsed
    chat = request.app[CHAT_KEY]
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    events = chat.stream(
        parsed.user_id,
        parsed.query,
        tools_allowlist=parsed.tools_allowlist,
        max_steps=parsed.max_steps,
        stream_answer=True,
    )
    try:
        async for event in events:
            await response.write(_sse(event))
    except (ConnectionResetError, asyncio.CancelledError):
        # The client went away: stop the run, so no LLM call continues for nobody.
        log.info("client disconnected; agent run cancelled")
        await events.aclose()
        raise
    except DatabaseUnavailableError:
        await response.write(_sse(ErrorEvent(message="service temporarily unavailable")))
    except Exception:
        log.exception("agent stream failed")
        await response.write(_sse(ErrorEvent(message="internal error")))
    await response.write_eof()
    return response


async def ask(request: web.Request) -> web.Response:
    parsed = await _parse(request)
    if isinstance(parsed, web.Response):
        return parsed
    chat = request.app[CHAT_KEY]
    try:
        async for event in chat.stream(
            parsed.user_id,
            parsed.query,
            tools_allowlist=parsed.tools_allowlist,
            max_steps=parsed.max_steps,
        ):
            if isinstance(event, Final):
                return web.json_response(event.model_dump(mode="json", exclude={"event"}))
    except DatabaseUnavailableError:
        return _error(503, "service temporarily unavailable")
    return _error(500, "the agent produced no answer")


async def tools(request: web.Request) -> web.Response:
    specs = request.app[CHAT_KEY].tool_specs()
    return web.json_response({"tools": specs, "total": len(specs)})


async def status(request: web.Request) -> web.Response:
    chat = request.app[CHAT_KEY]
    settings = request.app[SETTINGS_KEY]
    try:
        catalog = await chat.catalog_counts(settings.embedding_model)
    except DatabaseUnavailableError:
        return _error(503, "database unavailable")
    return web.json_response(
        {
            "version": _app_version(),
            "llm_model": settings.llm_model,
            "llm_configured": settings.llm_configured,
            "embedding_model": settings.embedding_model,
            "embedding_dim": settings.embedding_dim,
            "catalog_size": catalog[0],
            "wines_with_embeddings": catalog[1],
            "answers_by_path": dict(chat.answers_since_start),
        }
    )


async def forget_user(request: web.Request) -> web.Response:
    """DELETE /v1/users/{id}: everything stored about the person (answers stay anonymous)."""
    if not request.app[SETTINGS_KEY].api_token:
        return _error(403, "deleting a user needs API_TOKEN to be set")
    try:
        user_id = int(request.match_info["user_id"])
    except ValueError:
        return _error(422, "user id: must be an integer", field="user_id")
    try:
        removed = await request.app[CHAT_KEY].forget(user_id)
    except DatabaseUnavailableError:
        return _error(503, "service temporarily unavailable")
    return web.json_response({"user_id": user_id, "deleted": removed})


async def healthz(request: web.Request) -> web.Response:
    ok = await request.app[CHAT_KEY].database_ok()
    body = {
        "database": "ok" if ok else "unavailable",
        "llm_configured": request.app[SETTINGS_KEY].llm_configured,
    }
    return web.json_response(body, status=200 if ok else 503)


def build_app(services: Services, *, api: bool = True) -> web.Application:
    """The aiohttp application: `/healthz` always, the `/v1/` API unless `api` is False."""
    app = web.Application(middlewares=[guard], client_max_size=64 * 1024)
    app[CHAT_KEY] = services.chat
    app[SETTINGS_KEY] = services.settings
    app[LIMITER_KEY] = services.rate_limiter
    app.router.add_get("/healthz", healthz)
    if api:
        app.router.add_post("/v1/agent/stream", stream)
        app.router.add_post("/v1/agent/ask", ask)
        app.router.add_get("/v1/agent/tools", tools)
        app.router.add_get("/v1/agent/status", status)
        app.router.add_delete("/v1/users/{user_id}", forget_user)
    return app
