"""The HTTP API (aiohttp): the agent as a server-sent event stream, plus status and health.

The same aiohttp application serves the Telegram webhook when WEBHOOK_URL is set.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

from aiohttp import BodyPartReader, web
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from api.orders import ORDERS_PATH, orders_handler
from core.errors import DatabaseUnavailableError, MediaUnreadableError
from services.agent import MAX_STEPS, AgentEvent, ErrorEvent, Final
from services.app.container import Services
from services.app.turns.events import server_sent_agent_event

log = logging.getLogger(__name__)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
SERVICES_KEY = web.AppKey("services", Services)


AUDIO_FILENAME = r"^[^/\\]{1,100}\.(flac|m4a|mp3|mp4|mpeg|mpga|oga|ogg|wav|webm)$"
MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_AUDIO_BYTES = 20 * 1024 * 1024
# Agent requests may carry a photo or a recording in base64; every other route keeps 64 KB.
MAX_AGENT_BODY = (MAX_AUDIO_BYTES * 4) // 3 + 64 * 1024
MAX_FORM_TEXT = 64 * 1024


class AgentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # May be empty only with an image or audio (then it is their caption). The length bound also
    # makes pydantic check the text is valid Unicode (a lone surrogate is refused with a 422).
    query: str = Field(default="", max_length=MAX_FORM_TEXT)
    image: str | None = Field(default=None, min_length=1)  # base64, or a data: URL
    audio: str | None = Field(default=None, min_length=1)  # base64
    audio_filename: str | None = Field(default=None, pattern=AUDIO_FILENAME)
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


@dataclass(frozen=True)
class Media:
    """A decoded photo or recording sent with an agent request."""

    kind: Literal["image", "audio"]
    data: bytes
    filename: str = ""


def _decode(value: str, field: str, limit: int) -> bytes | web.Response:
    payload = value.partition(",")[2] if value.startswith("data:") else value
    try:
        data = base64.b64decode("".join(payload.split()), validate=True)
    except ValueError:
        return _error(422, f"{field}: not valid base64", field=field)
    if not data:
        return _error(422, f"{field}: empty", field=field)
    if len(data) > limit:
        return _error(422, f"{field}: at most {limit // (1024 * 1024)} MB", field=field)
    return data


def _media(parsed: AgentRequest) -> Media | web.Response | None:
    if parsed.image is not None and parsed.audio is not None:
        return _error(422, "image: send an image or audio, not both", field="image")
    if parsed.image is not None:
        image = _decode(parsed.image, "image", MAX_IMAGE_BYTES)
        return image if isinstance(image, web.Response) else Media("image", image)
    if parsed.audio is not None:
        if parsed.audio_filename is None:
            return _error(
                422,
                "audio_filename: required with audio (its extension names the format)",
                field="audio_filename",
            )
        audio = _decode(parsed.audio, "audio", MAX_AUDIO_BYTES)
        if isinstance(audio, web.Response):
            return audio
        return Media("audio", audio, parsed.audio_filename)
    return None


async def _read_part(part: BodyPartReader, limit: int) -> bytes | None:
    """The part's bytes, or None once it grows past `limit` (read no further than that)."""
    data = bytearray()
    while chunk := await part.read_chunk():
        data.extend(chunk)
        if len(data) > limit:
            return None
    return bytes(data)


async def _multipart_body(request: web.Request) -> dict[str, Any] | web.Response:
    """A multipart form (text fields, an `image` or `audio` file) as the JSON body it stands for."""
    body: dict[str, Any] = {}
    reader = await request.multipart()
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader) or not part.name:
            return _error(422, "body: every part needs a name", field="body")
        is_file = part.name in ("image", "audio")
        limit = {"image": MAX_IMAGE_BYTES, "audio": MAX_AUDIO_BYTES}.get(part.name, MAX_FORM_TEXT)
        data = await _read_part(part, limit)
        if data is None:
            size = f"{limit // (1024 * 1024)} MB" if is_file else f"{limit // 1024} KB"
            return _error(422, f"{part.name}: at most {size}", field=part.name)
        if is_file:
            body[part.name] = base64.b64encode(data).decode("ascii")
            if part.name == "audio" and part.filename:
                body.setdefault("audio_filename", part.filename)
            continue
        text = data.decode(part.get_charset("utf-8"))
        if part.name == "tools_allowlist":
            body[part.name] = [t.strip() for t in text.split(",") if t.strip()]
        else:
            body[part.name] = text
    return body


async def _parse(request: web.Request) -> tuple[AgentRequest, Media | None] | web.Response:
    try:
        if request.content_type == "multipart/form-data":
            try:
                body = await _multipart_body(request)
            except (ValueError, LookupError):
                return _error(422, "body: not a valid multipart form", field="body")
            if isinstance(body, web.Response):
                return body
        else:
            body = await request.clone(client_max_size=MAX_AGENT_BODY).json()
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"the body is larger than {MAX_AGENT_BODY} bytes", field="body")
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
    media = _media(parsed)
    if isinstance(media, web.Response):
        return media
    services = request.app[SERVICES_KEY]
    admitted = services.admission.admit(parsed.query, who=parsed.user_id, caption=media is not None)
    if admitted.refusal == "empty":
        return _error(422, "query: must not be blank", field="query")
    if admitted.refusal == "too_long":
        return _error(422, f"query: at most {admitted.limit} characters", field="query")
    parsed.query = admitted.text
    known = set(services.turns.tool_names())
    unknown = [t for t in parsed.tools_allowlist or [] if t not in known]
    if unknown:
        return _error(422, f"tools_allowlist: unknown tools {unknown}", field="tools_allowlist")
    return parsed, media


def _events(
    services: Services, parsed: AgentRequest, media: Media | None, *, stream_answer: bool
) -> AsyncIterator[AgentEvent]:
    """The agent's events for a text question, a photo (query = caption) or a recording."""
    options: dict[str, Any] = {
        "tools_allowlist": parsed.tools_allowlist,
        "max_steps": parsed.max_steps,
        "stream_answer": stream_answer,
    }
    if media is not None and media.kind == "image":
        return services.media.photo_stream(parsed.user_id, media.data, parsed.query, **options)
    if media is not None:
        return services.media.voice_stream(parsed.user_id, media.data, media.filename, **options)
    return services.turns.stream(parsed.user_id, parsed.query, **options)


def _unreadable(exc: MediaUnreadableError, media: Media | None) -> str:
    what = "the recording" if media is not None and media.kind == "audio" else "the image"
    return f"{what} could not be read ({exc.reason}); describe it in words in `query`"


def _client_key(request: web.Request) -> str:
    """Who is counted for the rate limit: the token's digest (never the token), else the IP."""
    auth = request.headers.get("Authorization", "")
    if auth:
        return "api:" + hashlib.sha256(auth.encode()).hexdigest()[:32]
    return f"api:{request.remote or 'unknown'}"


@web.middleware
async def api_access(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bearer token (when API_TOKEN is set) and the per-client rate limit on /v1/ routes; the
    orders webhook checks its own (a bearer token or a signature of the body)."""
    if not request.path.startswith("/v1/") or request.path == ORDERS_PATH:
        return await handler(request)
    token = request.app[SERVICES_KEY].settings.api_token
    if token:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {token}"
        if not hmac.compare_digest(given.encode(), expected.encode()):
            log.warning("API request refused: missing or wrong token from %s", request.remote)
            return _error(401, "unauthorized")
    if request.method == "POST":
        try:
            allowed = await request.app[SERVICES_KEY].rate_limits.allow(_client_key(request))
        except DatabaseUnavailableError:
            return _error(503, "service temporarily unavailable")
        if not allowed:
            return _error(429, "too many requests; try again in a minute")
    return await handler(request)


async def stream(request: web.Request) -> web.StreamResponse:
    checked = await _parse(request)
    if isinstance(checked, web.Response):
        return checked
    parsed, media = checked
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    events = _events(request.app[SERVICES_KEY], parsed, media, stream_answer=True)
    try:
        async for event in events:
            await response.write(server_sent_agent_event(event))
    except (ConnectionResetError, asyncio.CancelledError):
        # The client went away: stop the run, so no LLM call continues for nobody.
        log.info("client disconnected; agent run cancelled")
        await events.aclose()
        raise
    except DatabaseUnavailableError:
        await response.write(
            server_sent_agent_event(ErrorEvent(message="service temporarily unavailable"))
        )
    except MediaUnreadableError as exc:
        await response.write(server_sent_agent_event(ErrorEvent(message=_unreadable(exc, media))))
    except Exception:
        log.exception("agent stream failed")
        await response.write(server_sent_agent_event(ErrorEvent(message="internal error")))
    await response.write_eof()
    return response


async def ask(request: web.Request) -> web.Response:
    checked = await _parse(request)
    if isinstance(checked, web.Response):
        return checked
    parsed, media = checked
    try:
        async for event in _events(request.app[SERVICES_KEY], parsed, media, stream_answer=False):
            if isinstance(event, Final):
                return web.json_response(event.model_dump(mode="json", exclude={"event"}))
    except DatabaseUnavailableError:
        return _error(503, "service temporarily unavailable")
    except MediaUnreadableError as exc:
        field = "image" if media is not None and media.kind == "image" else "audio"
        return _error(422, _unreadable(exc, media), field=field, reason=exc.reason)
    return _error(500, "the agent produced no answer")


async def tools(request: web.Request) -> web.Response:
    specs = request.app[SERVICES_KEY].turns.tool_specs()
    return web.json_response({"tools": specs, "total": len(specs)})


async def status(request: web.Request) -> web.Response:
    services = request.app[SERVICES_KEY]
    settings = services.settings
    try:
        catalog = await services.health.catalog_counts(settings.embedding_model)
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
            "answers_by_path": services.health.answers_by_path(),
        }
    )


async def forget_user(request: web.Request) -> web.Response:
    """DELETE /v1/users/{id}: everything stored about the person (answers stay anonymous)."""
    if not request.app[SERVICES_KEY].settings.api_token:
        return _error(403, "deleting a user needs API_TOKEN to be set")
    try:
        user_id = int(request.match_info["user_id"])
    except ValueError:
        return _error(422, "user id: must be an integer", field="user_id")
    try:
        removed = await request.app[SERVICES_KEY].people.forget(user_id)
    except DatabaseUnavailableError:
        return _error(503, "service temporarily unavailable")
    return web.json_response({"user_id": user_id, "deleted": removed})


async def healthz(request: web.Request) -> web.Response:
    services = request.app[SERVICES_KEY]
    ok = await services.health.database_ok()
    body = {
        "database": "ok" if ok else "unavailable",
        "llm_configured": services.settings.llm_configured,
    }
    return web.json_response(body, status=200 if ok else 503)


def build_app(services: Services, *, api: bool = True) -> web.Application:
    """The aiohttp application: `/healthz` always, the `/v1/` API unless `api` is False;
    `POST /v1/orders` also whenever API_TOKEN or ORDERS_WEBHOOK_SECRET is set."""
    app = web.Application(middlewares=[api_access], client_max_size=64 * 1024)
    app[SERVICES_KEY] = services
    app.router.add_get("/healthz", healthz)
    if api:
        app.router.add_post("/v1/agent/stream", stream)
        app.router.add_post("/v1/agent/ask", ask)
        app.router.add_get("/v1/agent/tools", tools)
        app.router.add_get("/v1/agent/status", status)
        app.router.add_delete("/v1/users/{user_id}", forget_user)
    settings = services.settings
    if api or settings.api_token or settings.orders_webhook_secret:
        app.router.add_post(ORDERS_PATH, orders_handler(services))
    return app
