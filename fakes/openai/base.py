"""What every endpoint of the fake OpenAI server shares: its state (set up in FakeOpenAIServer's
``__init__``), the response headers, error answers, the API key check, reading a JSON body,
sleeping until the server stops, dropping a connection."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import deque
from collections.abc import Callable

from aiohttp import web

from fakes.openai.protocol import Invalid, JSONDict
from fakes.openai.steps import ResponderFn, Step


def _mask_key(key: str) -> str:
    if len(key) <= 8:
        return key[:2] + "*" * max(len(key) - 2, 0)
    return f"{key[:3]}{'*' * (len(key) - 7)}{key[-4:]}"


class ServerBase:
    """The state of a FakeOpenAIServer and the HTTP helpers on it."""

    api_key: str
    embedding_dim: int
    requests: list[JSONDict]
    embedding_requests: list[JSONDict]
    errors: list[str]
    embedding_fn: Callable[[str], list[float]] | None
    embeddings_fail: int | None
    latency: float
    chunk_delay: float
    first_content_at: list[float]
    model_id: str
    non_vision_models: set[str]
    vision_requests: list[JSONDict]
    transcription_models: set[str]
    transcription_requests: list[JSONDict]
    model_responders: dict[str, ResponderFn]
    _queue: deque[Step]
    _vision_queue: deque[Step]
    _transcripts: deque[str]
    _runner: web.AppRunner | None
    _port: int | None
    _call_counter: int
    _closing: asyncio.Event

    # -- helpers ---------------------------------------------------------------------

    @staticmethod
    def _headers(extra: dict[str, str] | None = None) -> dict[str, str]:
        headers = {"x-request-id": f"req_{uuid.uuid4().hex}", "openai-version": "2020-10-01"}
        if extra:
            headers.update(extra)
        return headers

    def _error_response(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> web.Response:
        body = {"error": {"message": message, "type": type, "param": param, "code": code}}
        return web.json_response(body, status=status, headers=self._headers(headers))

    def _reject(self, exc: Invalid) -> web.Response:
        self.errors.append(exc.message)
        return self._error_response(
            exc.status, exc.message, type=exc.type, param=exc.param, code=exc.code
        )

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        if not header.strip():
            raise Invalid(
                "You didn't provide an API key. You need to provide your API key in an "
                "Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), "
                "or as the password field (with blank username) if you're accessing the API "
                "from your browser and are prompted for a username and password. You can "
                "obtain an API key from https://platform.openai.com/account/api-keys.",
                status=401,
            )
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or token != self.api_key:
            shown = _mask_key(token or header)
            raise Invalid(
                f"Incorrect API key provided: {shown}. You can find your API key at "
                "https://platform.openai.com/account/api-keys.",
                status=401,
                code="invalid_api_key",
            )

    async def _read_json(self, request: web.Request, record: list[JSONDict]) -> JSONDict | None:
        raw = await request.read()
        try:
            body = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return None
        if isinstance(body, dict):
            record.append(body)
            return body
        return None

    @staticmethod
    def _json_body_error() -> Invalid:
        return Invalid(
            "We could not parse the JSON body of your request. (HINT: This likely means you "
            "aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, "
            "but what was sent was not valid JSON. If you have trouble figuring out how to fix "
            "this, please contact us through our help center at help.openai.com.)"
        )

    def _next_call_id(self) -> str:
        self._call_counter += 1
        return f"call_{self._call_counter}"

    async def _sleep(self, seconds: float) -> bool:
        """Sleep; return True if the server is stopping meanwhile."""
        try:
            await asyncio.wait_for(self._closing.wait(), timeout=seconds)
        except TimeoutError:
            return False
        return True

    @staticmethod
    def _drop_connection(request: web.Request) -> web.StreamResponse:
        transport = request.transport
        if transport is not None:
            transport.close()
        # aiohttp fails to write this on the closed transport and silently gives up.
        return web.Response(status=500)
