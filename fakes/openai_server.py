"""A strict, scriptable fake of the OpenAI HTTP API for tests.

``FakeOpenAIServer`` is a real HTTP server (aiohttp, bound to 127.0.0.1 on an
ephemeral port) that speaks the subset of the OpenAI REST API the bot uses:

* ``POST /v1/chat/completions`` (plain JSON and Server-Sent-Events streaming),
* ``POST /v1/embeddings`` (``float`` and ``base64`` encodings),
* ``GET /v1/models`` and ``GET /v1/models/{id}``,
* image content parts in user messages (``image_url`` with a ``data:image/...;base64,`` or
  ``https://`` URL; a model listed in ``server.non_vision_models`` answers 400 like the real
  API); the answer to a request with an image comes from ``server.script_vision(...)``,
* ``POST /v1/audio/transcriptions`` (multipart ``model`` + ``file``; the text is scripted
  with ``server.script_transcript(...)``).

Every chat/embedding request is validated as strictly as the real API does
(auth, unknown arguments, message shapes, assistant ``tool_calls`` / ``tool``
message pairing, tool schemas, parameter ranges ...).  Invalid requests get a
400 with an OpenAI-style error body and the message is appended to
``server.errors`` so a test can finish with ``assert server.errors == []``.

Chat answers are scripted with ``server.script(step, step, ...)``; the steps are
consumed in order (only by *valid* requests) and, once the queue is empty, a model named in
``server.model_responders`` answers as its responder does; any other model answers
with the plain text ``"ok"``.

Example::

    async with FakeOpenAIServer() as server:
        server.script(
            tool_calls(call("search_wines", {"query": "malbec"})),
            reply("Try the 2019 Catena Malbec."),
        )
        client = AsyncOpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        ...
        assert server.errors == []
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import inspect
import json
import math
import random
import re
import struct
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

__all__ = [
    "DEFAULT_MODEL_ID",
    "DropStep",
    "ErrorStep",
    "FakeOpenAIServer",
    "HangStep",
    "PausedReplyStep",
    "RawToolCallsStep",
    "ReplyStep",
    "ResponderStep",
    "Step",
    "StreamCutStep",
    "ToolCall",
    "ToolCallsStep",
    "call",
    "deterministic_embedding",
    "drop",
    "error",
    "hang",
    "raw_tool_calls",
    "reply",
    "responder",
    "stream_cut",
    "stream_paused",
    "tool_calls",
]

JSONDict = dict[str, Any]

DEFAULT_MODEL_ID = "gpt-4o-mini"
STREAM_CHUNK_CHARS = 20

# --------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------


@dataclass(kw_only=True)
class Step:
    """Base class of every scripted chat-completion behaviour.

    ``usage`` overrides the computed ``usage`` object of the answer when given.
    """

    usage: JSONDict | None = None


@dataclass
class ReplyStep(Step):
    content: str
    finish_reason: str = "stop"


@dataclass
class PausedReplyStep(ReplyStep):
    """A text answer whose stream stops after ``after_chars`` until ``resume`` is set."""

    after_chars: int = 0
    resume: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class ToolCall:
    name: str
    arguments: str | JSONDict
    id: str | None = None


@dataclass
class ToolCallsStep(Step):
    calls: list[ToolCall]
    content: str | None = None


@dataclass
class RawToolCallsStep(Step):
    tool_calls: list[JSONDict]
    content: str | None = None


@dataclass
class ErrorStep(Step):
    status: int
    message: str | None = None
    retry_after: float | None = None
    type: str | None = None
    code: str | None = None
    param: str | None = None


@dataclass
class HangStep(Step):
    seconds: float
    then: Step | None = None


@dataclass
class DropStep(Step):
    pass


@dataclass
class StreamCutStep(Step):
    content: str
    after_chars: int


ResponderResult = Step | JSONDict
ResponderFn = Callable[[JSONDict], ResponderResult | Awaitable[ResponderResult]]


@dataclass
class ResponderStep(Step):
    fn: ResponderFn


def reply(content: str, *, finish_reason: str = "stop", usage: JSONDict | None = None) -> ReplyStep:
    """Assistant text answer (``finish_reason`` "stop" unless overridden)."""
    return ReplyStep(content=content, finish_reason=finish_reason, usage=usage)


def call(name: str, arguments: str | JSONDict, id: str | None = None) -> ToolCall:
    """One tool call: dict ``arguments`` are JSON-dumped, a str is sent verbatim."""
    return ToolCall(name=name, arguments=arguments, id=id)


def tool_calls(
    *calls: ToolCall, content: str | None = None, usage: JSONDict | None = None
) -> ToolCallsStep:
    """Assistant message with ``tool_calls`` (content null), finish_reason "tool_calls"."""
    if not calls:
        raise ValueError("tool_calls() needs at least one call()")
    return ToolCallsStep(calls=list(calls), content=content, usage=usage)


def raw_tool_calls(
    calls: list[JSONDict], *, content: str | None = None, usage: JSONDict | None = None
) -> RawToolCallsStep:
    """``tool_calls`` sent exactly as given (e.g. ``arguments`` as an object)."""
    return RawToolCallsStep(tool_calls=list(calls), content=content, usage=usage)


def error(
    status: int,
    message: str | None = None,
    retry_after: float | None = None,
    *,
    type: str | None = None,
    code: str | None = None,
    param: str | None = None,
) -> ErrorStep:
    """HTTP error with an OpenAI error body (and ``Retry-After`` when given)."""
    return ErrorStep(
        status=status,
        message=message,
        retry_after=retry_after,
        type=type,
        code=code,
        param=param,
    )


def hang(seconds: float, then: Step | None = None) -> HangStep:
    """Sleep ``seconds`` before answering, then answer ``then`` (default: text "ok")."""
    return HangStep(seconds=seconds, then=then)


def drop() -> DropStep:
    """Close the connection without sending any response (dead peer)."""
    return DropStep()


def responder(fn: ResponderFn) -> ResponderStep:
    """Compute the answer from the request body: ``fn`` returns a Step or a raw JSON dict.

    ``fn`` may be sync or async.  A dict is sent verbatim as a 200 JSON body.
    """
    return ResponderStep(fn=fn)


def stream_cut(content: str, after_chars: int) -> StreamCutStep:
    """Stream ``content[:after_chars]`` then close the connection abruptly (no [DONE])."""
    return StreamCutStep(content=content, after_chars=after_chars)


def stream_paused(content: str, after_chars: int, resume: asyncio.Event) -> PausedReplyStep:
    """Stream ``content[:after_chars]``, wait for ``resume``, then the rest (unstreamed: the
    whole answer at once)."""
    return PausedReplyStep(content=content, after_chars=after_chars, resume=resume)


# --------------------------------------------------------------------------------------
# Embeddings
# --------------------------------------------------------------------------------------


def deterministic_embedding(text: str, dim: int) -> list[float]:
    """Hash-seeded pseudo-random unit vector (what the server returns by default)."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    vec = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


# --------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------


class _Invalid(Exception):
    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        status: int = 400,
        type: str = "invalid_request_error",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code
        self.status = status
        self.type = type


_MISSING = object()

CHAT_ALLOWED_KEYS = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "temperature",
        "top_p",
        "max_tokens",
        "max_completion_tokens",
        "stream",
        "stream_options",
        "n",
        "stop",
        "presence_penalty",
        "frequency_penalty",
        "seed",
        "response_format",
        "user",
        "logit_bias",
        "logprobs",
        "top_logprobs",
        "metadata",
        "store",
        "service_tier",
        "reasoning_effort",
    }
)
EMBEDDING_ALLOWED_KEYS = frozenset({"model", "input", "encoding_format", "dimensions", "user"})

ROLES = ("system", "assistant", "user", "tool", "developer")
MESSAGE_KEYS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content", "name"}),
    "developer": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    # What the SDK echoes back when a response message is appended to the history.
    "assistant": frozenset(
        {
            "role",
            "content",
            "name",
            "tool_calls",
            "refusal",
            "audio",
            "function_call",
            "annotations",
        }
    ),
    "tool": frozenset({"role", "content", "tool_call_id"}),
}
PART_TYPES: dict[str, tuple[str, ...]] = {
    "system": ("text",),
    "developer": ("text",),
    "user": ("text", "image_url", "input_audio", "file"),
    "assistant": ("text", "refusal"),
    "tool": ("text",),
}
PART_KEYS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "text"}),
    "image_url": frozenset({"type", "image_url"}),
    "input_audio": frozenset({"type", "input_audio"}),
    "file": frozenset({"type", "file"}),
    "refusal": frozenset({"type", "refusal"}),
}
TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]+$")
JSON_SCHEMA_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

_ERROR_DEFAULTS: dict[int, tuple[str, str | None, str]] = {
    400: ("invalid_request_error", None, "Bad request."),
    401: (
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    403: (
        "invalid_request_error",
        "unsupported_country_region_territory",
        "Country, region, or territory not supported",
    ),
    404: (
        "invalid_request_error",
        "model_not_found",
        "The model does not exist or you do not have access to it.",
    ),
    408: ("timeout", None, "Request timed out."),
    409: ("invalid_request_error", None, "Conflict."),
    422: ("invalid_request_error", None, "Unprocessable entity."),
    429: (
        "requests",
        "rate_limit_exceeded",
        "Rate limit reached for requests. Please try again in 1s.",
    ),
    500: (
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    502: ("server_error", None, "Bad gateway."),
    503: (
        "server_error",
        "service_unavailable",
        "The engine is currently overloaded, please try again later.",
    ),
    504: ("server_error", None, "Gateway timeout."),
}


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "decimal"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _invalid_type(param: str, expected: str, value: Any) -> _Invalid:
    got = _type_name(value)
    return _Invalid(
        f"Invalid type for '{param}': expected {expected}, but got {_article(got)} {got} instead.",
        param=param,
        code="invalid_type",
    )


def _missing(param: str) -> _Invalid:
    return _Invalid(
        f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter"
    )


def _unknown(param: str) -> _Invalid:
    return _Invalid(f"Unknown parameter: '{param}'.", param=param, code="unknown_parameter")


def _supported(values: Iterable[str]) -> str:
    quoted = [f"'{v}'" for v in values]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


def _invalid_value(param: str, value: Any, supported: Iterable[str]) -> _Invalid:
    return _Invalid(
        f"Invalid value: '{value}'. Supported values are: {_supported(supported)}.",
        param=param,
        code="invalid_value",
    )


def _empty_array(param: str) -> _Invalid:
    return _Invalid(
        f"Invalid '{param}': empty array. Expected an array with minimum length 1, "
        "but got an empty array instead.",
        param=param,
        code="empty_array",
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _fmt_num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def _check_number(
    body: JSONDict,
    key: str,
    *,
    integer: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> None:
    value = body.get(key)
    if value is None:
        return
    kind = "integer" if integer else "decimal"
    if integer and not _is_int(value):
        raise _invalid_type(key, "an integer", value)
    if not integer and not _is_number(value):
        raise _invalid_type(key, "a decimal", value)
    if maximum is not None and value > maximum:
        raise _Invalid(
            f"Invalid '{key}': {kind} above maximum value. Expected a value <= "
            f"{_fmt_num(maximum)}, but got {_fmt_num(value)} instead.",
            param=key,
            code=f"{kind}_above_max_value",
        )
    if minimum is not None and value < minimum:
        raise _Invalid(
            f"Invalid '{key}': {kind} below minimum value. Expected a value >= "
            f"{_fmt_num(minimum)}, but got {_fmt_num(value)} instead.",
            param=key,
            code=f"{kind}_below_min_value",
        )


def _check_bool(body: JSONDict, key: str) -> None:
    value = body.get(key)
    if value is not None and not isinstance(value, bool):
        raise _invalid_type(key, "a boolean", value)


def _check_keys(obj: JSONDict, allowed: frozenset[str], prefix: str) -> None:
    for key in obj:
        if key not in allowed:
            raise _unknown(f"{prefix}.{key}")


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "") or ""
            for p in content
            if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


# --------------------------------------------------------------------------------------
# Chat request validation
# --------------------------------------------------------------------------------------


def _validate_content(content: Any, role: str, path: str) -> None:
    if isinstance(content, str):
        return
    if not isinstance(content, list):
        raise _invalid_type(path, "one of a string or array of objects", content)
    if not content:
        raise _empty_array(path)
    allowed = PART_TYPES[role]
    for j, part in enumerate(content):
        ppath = f"{path}[{j}]"
        if not isinstance(part, dict):
            raise _invalid_type(ppath, "an object", part)
        ptype = part.get("type", _MISSING)
        if ptype is _MISSING:
            raise _missing(f"{ppath}.type")
        if ptype not in allowed:
            raise _invalid_value(f"{ppath}.type", ptype, allowed)
        _check_keys(part, PART_KEYS[ptype], ppath)
        if ptype in ("text", "refusal"):
            value = part.get(ptype, _MISSING)
            if value is _MISSING:
                raise _missing(f"{ppath}.{ptype}")
            if not isinstance(value, str):
                raise _invalid_type(f"{ppath}.{ptype}", "a string", value)
        elif ptype == "image_url":
            image = part.get("image_url", _MISSING)
            if image is _MISSING:
                raise _missing(f"{ppath}.image_url")
            if not isinstance(image, dict):
                raise _invalid_type(f"{ppath}.image_url", "an object", image)
            _check_keys(image, frozenset({"url", "detail"}), f"{ppath}.image_url")
            if not isinstance(image.get("url"), str):
                raise _missing(f"{ppath}.image_url.url")
            _validate_image_url(image["url"], f"{ppath}.image_url.url")
            detail = image.get("detail", "auto")
            if detail not in IMAGE_DETAILS:
                raise _invalid_value(f"{ppath}.image_url.detail", detail, IMAGE_DETAILS)
        else:
            inner = part.get(ptype, _MISSING)
            if inner is _MISSING:
                raise _missing(f"{ppath}.{ptype}")
            if not isinstance(inner, dict):
                raise _invalid_type(f"{ppath}.{ptype}", "an object", inner)


IMAGE_DETAILS = ("auto", "low", "high")
IMAGE_MIME_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_DATA_URL_RE = re.compile(r"^data:([^;,]+);base64,(.*)$", re.DOTALL)


def _validate_image_url(url: str, path: str) -> None:
    """What the real API accepts: an http(s) URL or a base64 data URL of a supported image."""
    if url.startswith(("https://", "http://")):
        return
    found = _DATA_URL_RE.match(url)
    if found is None:
        raise _Invalid(
            f"Invalid image URL: '{path}'. Expected a valid URL or a base64-encoded data URL "
            "with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=').",
            param=path,
            code="invalid_image_url",
        )
    mime, payload = found.group(1), found.group(2)
    if mime not in IMAGE_MIME_TYPES:
        raise _Invalid(
            f"Invalid image URL: '{path}'. Expected a base64-encoded data URL with an image "
            f"MIME type ({', '.join(IMAGE_MIME_TYPES)}), but got unsupported MIME type "
            f"'{mime}'.",
            param=path,
            code="invalid_image_format",
        )
    try:
        decoded = base64.b64decode(payload, validate=True)
    except ValueError:
        decoded = b""
    if not decoded:
        raise _Invalid(
            "You uploaded an unsupported image. Please make sure your image is valid.",
            param=path,
            code="invalid_image_format",
        )


def _image_part_path(messages: list[JSONDict]) -> str | None:
    """Where the first image content part of a (valid) request is, if it has one."""
    for i, message in enumerate(messages):
        content = message.get("content")
        if isinstance(content, list):
            for j, part in enumerate(content):
                if part.get("type") == "image_url":
                    return f"messages.[{i}].content.[{j}].type"
    return None


def _validate_message_tool_calls(calls: Any, path: str) -> list[str]:
    if not isinstance(calls, list):
        raise _invalid_type(path, "an array of objects", calls)
    if not calls:
        raise _empty_array(path)
    ids: list[str] = []
    for k, tc in enumerate(calls):
        tpath = f"{path}[{k}]"
        if not isinstance(tc, dict):
            raise _invalid_type(tpath, "an object", tc)
        _check_keys(tc, frozenset({"id", "type", "function"}), tpath)
        tc_id = tc.get("id", _MISSING)
        if tc_id is _MISSING or tc_id is None:
            raise _missing(f"{tpath}.id")
        if not isinstance(tc_id, str):
            raise _invalid_type(f"{tpath}.id", "a string", tc_id)
        tc_type = tc.get("type", _MISSING)
        if tc_type is _MISSING or tc_type is None:
            raise _missing(f"{tpath}.type")
        if tc_type != "function":
            raise _invalid_value(f"{tpath}.type", tc_type, ["function"])
        fn = tc.get("function", _MISSING)
        if fn is _MISSING or fn is None:
            raise _missing(f"{tpath}.function")
        if not isinstance(fn, dict):
            raise _invalid_type(f"{tpath}.function", "an object", fn)
        _check_keys(fn, frozenset({"name", "arguments"}), f"{tpath}.function")
        for key in ("name", "arguments"):
            value = fn.get(key, _MISSING)
            if value is _MISSING or value is None:
                raise _missing(f"{tpath}.function.{key}")
            if not isinstance(value, str):
                raise _invalid_type(f"{tpath}.function.{key}", "a string", value)
        ids.append(tc_id)
    return ids


def _validate_messages(messages: Any) -> None:
    if messages is None:
        raise _missing("messages")
    if not isinstance(messages, list):
        raise _invalid_type("messages", "an array", messages)
    if not messages:
        raise _empty_array("messages")

    for i, msg in enumerate(messages):
        path = f"messages[{i}]"
        if not isinstance(msg, dict):
            raise _invalid_type(path, "an object", msg)
        role = msg.get("role", _MISSING)
        if role is _MISSING or role is None:
            raise _missing(f"{path}.role")
        if role not in ROLES:
            raise _invalid_value(f"{path}.role", role, ROLES)
        _check_keys(msg, MESSAGE_KEYS[role], path)
        name = msg.get("name")
        if name is not None and not isinstance(name, str):
            raise _invalid_type(f"{path}.name", "a string", name)

        content = msg.get("content", _MISSING)
        if role == "assistant":
            calls = msg.get("tool_calls")
            if calls is not None:
                _validate_message_tool_calls(calls, f"{path}.tool_calls")
            has_other = any(msg.get(k) is not None for k in ("function_call", "audio"))
            if content is _MISSING or content is None:
                if calls is None and not has_other:
                    raise _Invalid(
                        "Invalid value for 'content': expected a string, got null.",
                        param=f"messages.[{i}].content",
                    )
            else:
                _validate_content(content, role, f"{path}.content")
        else:
            if content is _MISSING:
                raise _missing(f"{path}.content")
            _validate_content(content, role, f"{path}.content")
        if role == "tool":
            tcid = msg.get("tool_call_id", _MISSING)
            if tcid is _MISSING or tcid is None:
                raise _missing(f"{path}.tool_call_id")
            if not isinstance(tcid, str):
                raise _invalid_type(f"{path}.tool_call_id", "a string", tcid)

    _validate_pairing(messages)


def _validate_pairing(messages: list[JSONDict]) -> None:
    """Every assistant ``tool_calls`` must be answered by tool messages right after it."""
    pending: list[str] = []
    in_tool_block = False
    for i, msg in enumerate(messages):
        role = msg["role"]
        if role == "tool":
            tcid = msg["tool_call_id"]
            if not in_tool_block or tcid not in pending:
                raise _Invalid(
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                    param=f"messages.[{i}].role",
                )
            pending.remove(tcid)
            continue
        if pending:
            raise _pairing_error(pending, i)
        in_tool_block = False
        if role == "assistant" and msg.get("tool_calls"):
            pending = [tc["id"] for tc in msg["tool_calls"]]
            in_tool_block = True
    if pending:
        raise _pairing_error(pending, len(messages))


def _pairing_error(pending: list[str], index: int) -> _Invalid:
    return _Invalid(
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        + ", ".join(pending),
        param=f"messages.[{index}].role",
    )


def _validate_schema(schema: Any, fn_name: str, strict: bool, context: tuple[str, ...]) -> None:
    prefix = f"Invalid schema for function '{fn_name}':"
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise _Invalid(
            f"{prefix} {schema!r} is not of type 'object', 'boolean'.",
            param="tools",
            code="invalid_function_parameters",
        )
    stype = schema.get("type")
    if stype is not None:
        types = stype if isinstance(stype, list) else [stype]
        for t in types:
            if not isinstance(t, str) or t not in JSON_SCHEMA_TYPES:
                raise _Invalid(
                    f"{prefix} {stype!r} is not valid under any of the given schemas.",
                    param="tools",
                    code="invalid_function_parameters",
                )
    props = schema.get("properties")
    if props is not None and not isinstance(props, dict):
        raise _Invalid(
            f"{prefix} {props!r} is not of type 'object'.",
            param="tools",
            code="invalid_function_parameters",
        )
    required = schema.get("required")
    if required is not None and (
        not isinstance(required, list) or not all(isinstance(r, str) for r in required)
    ):
        raise _Invalid(
            f"{prefix} {required!r} is not of type 'array'.",
            param="tools",
            code="invalid_function_parameters",
        )
    is_object = stype == "object" or (isinstance(stype, list) and "object" in stype)
    if strict and is_object:
        ctx = f"In context={context!r}"
        if schema.get("additionalProperties") is not False:
            raise _Invalid(
                f"{prefix} {ctx}, 'additionalProperties' is required to be supplied and to "
                "be false.",
                param="tools",
                code="invalid_function_parameters",
            )
        missing = [k for k in (props or {}) if k not in (required or [])]
        if missing:
            raise _Invalid(
                f"{prefix} {ctx}, 'required' is required to be supplied and to be an array "
                f"including every key in properties. Missing '{missing[0]}'.",
                param="tools",
                code="invalid_function_parameters",
            )
    for key, sub in (props or {}).items():
        _validate_schema(sub, fn_name, strict, (*context, "properties", key))
    items = schema.get("items")
    if items is not None:
        _validate_schema(items, fn_name, strict, (*context, "items"))
    for combinator in ("anyOf", "oneOf", "allOf"):
        subs = schema.get(combinator)
        if isinstance(subs, list):
            for n, sub in enumerate(subs):
                _validate_schema(sub, fn_name, strict, (*context, combinator, str(n)))
    for defs_key in ("$defs", "definitions"):
        defs = schema.get(defs_key)
        if isinstance(defs, dict):
            for key, sub in defs.items():
                _validate_schema(sub, fn_name, strict, (*context, defs_key, key))


def _validate_tools(tools: Any) -> list[str]:
    if not isinstance(tools, list):
        raise _invalid_type("tools", "an array", tools)
    if not tools:
        raise _empty_array("tools")
    names: list[str] = []
    for i, tool in enumerate(tools):
        path = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise _invalid_type(path, "an object", tool)
        _check_keys(tool, frozenset({"type", "function"}), path)
        ttype = tool.get("type", _MISSING)
        if ttype is _MISSING or ttype is None:
            raise _missing(f"{path}.type")
        if ttype != "function":
            raise _invalid_value(f"{path}.type", ttype, ["function"])
        fn = tool.get("function", _MISSING)
        if fn is _MISSING or fn is None:
            raise _missing(f"{path}.function")
        if not isinstance(fn, dict):
            raise _invalid_type(f"{path}.function", "an object", fn)
        _check_keys(
            fn, frozenset({"name", "description", "parameters", "strict"}), f"{path}.function"
        )
        name = fn.get("name", _MISSING)
        npath = f"{path}.function.name"
        if name is _MISSING or name is None:
            raise _missing(npath)
        if not isinstance(name, str):
            raise _invalid_type(npath, "a string", name)
        if len(name) > 64:
            raise _Invalid(
                f"Invalid '{npath}': string too long. Expected a string with maximum length 64, "
                f"but got a string with length {len(name)} instead.",
                param=npath,
                code="string_above_max_length",
            )
        if not TOOL_NAME_RE.match(name):
            raise _Invalid(
                f"Invalid '{npath}': string does not match pattern. Expected a string that "
                "matches the pattern '^[a-zA-Z0-9_-]+$'.",
                param=npath,
                code="invalid_value",
            )
        if name in names:
            raise _Invalid(
                f"Invalid 'tools': duplicate function name '{name}'. Function names must be "
                "unique.",
                param="tools",
                code="invalid_value",
            )
        names.append(name)
        desc = fn.get("description")
        if desc is not None and not isinstance(desc, str):
            raise _invalid_type(f"{path}.function.description", "a string", desc)
        strict = fn.get("strict")
        if strict is not None and not isinstance(strict, bool):
            raise _invalid_type(f"{path}.function.strict", "a boolean", strict)
        params = fn.get("parameters")
        if params is not None:
            if not isinstance(params, dict):
                raise _invalid_type(f"{path}.function.parameters", "an object", params)
            if params and params.get("type") != "object":
                raise _Invalid(
                    f"Invalid schema for function '{name}': schema must be a JSON Schema of "
                    f"'type: \"object\"', got 'type: \"{params.get('type')}\"'.",
                    param=f"{path}.function.parameters",
                    code="invalid_function_parameters",
                )
            _validate_schema(params, name, bool(strict), ())
        elif strict:
            raise _missing(f"{path}.function.parameters")
    return names


def _validate_tool_choice(choice: Any, tool_names: list[str]) -> None:
    if isinstance(choice, str):
        if choice not in ("none", "auto", "required"):
            raise _invalid_value("tool_choice", choice, ["none", "auto", "required"])
        return
    if not isinstance(choice, dict):
        raise _invalid_type("tool_choice", "one of a string or object", choice)
    if choice.get("type") != "function":
        raise _invalid_value("tool_choice.type", choice.get("type"), ["function"])
    _check_keys(choice, frozenset({"type", "function"}), "tool_choice")
    fn = choice.get("function")
    if not isinstance(fn, dict):
        raise _missing("tool_choice.function")
    name = fn.get("name")
    if not isinstance(name, str):
        raise _missing("tool_choice.function.name")
    if name not in tool_names:
        raise _Invalid(
            f"Invalid value for 'tool_choice': function '{name}' was not found in 'tools'.",
            param="tool_choice",
            code="invalid_value",
        )


def _validate_keys_and_model(body: JSONDict, allowed: Collection[str]) -> None:
    for key in body:
        if key not in allowed:
            raise _Invalid(f"Unrecognized request argument supplied: {key}")
    model = body.get("model")
    if model is None or model == "":
        raise _Invalid("you must provide a model parameter")
    if not isinstance(model, str):
        raise _invalid_type("model", "a string", model)


def _validate_chat(body: JSONDict) -> None:
    _validate_keys_and_model(body, CHAT_ALLOWED_KEYS)
    if "messages" not in body:
        raise _missing("messages")
    _validate_messages(body["messages"])

    _check_number(body, "temperature", minimum=0, maximum=2)
    _check_number(body, "top_p", minimum=0, maximum=1)
    _check_number(body, "presence_penalty", minimum=-2, maximum=2)
    _check_number(body, "frequency_penalty", minimum=-2, maximum=2)
    _check_number(body, "max_tokens", integer=True, minimum=1)
    _check_number(body, "max_completion_tokens", integer=True, minimum=1)
    _check_number(body, "n", integer=True, minimum=1, maximum=128)
    _check_number(body, "seed", integer=True)
    _check_number(body, "top_logprobs", integer=True, minimum=0, maximum=20)
    for key in ("stream", "logprobs", "store", "parallel_tool_calls"):
        _check_bool(body, key)
    for key in ("user", "service_tier", "reasoning_effort"):
        value = body.get(key)
        if value is not None and not isinstance(value, str):
            raise _invalid_type(key, "a string", value)
    for key in ("metadata", "logit_bias"):
        value = body.get(key)
        if value is not None and not isinstance(value, dict):
            raise _invalid_type(key, "an object", value)

    stop = body.get("stop")
    if stop is not None and not isinstance(stop, str):
        if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
            raise _invalid_type("stop", "one of a string or array of strings", stop)
        if len(stop) > 4:
            raise _Invalid(
                f"Invalid 'stop': array too long. Expected an array with maximum length 4, "
                f"but got an array with length {len(stop)} instead.",
                param="stop",
                code="array_above_max_length",
            )

    stream_options = body.get("stream_options")
    if stream_options is not None:
        if not isinstance(stream_options, dict):
            raise _invalid_type("stream_options", "an object", stream_options)
        _check_keys(
            stream_options, frozenset({"include_usage", "include_obfuscation"}), "stream_options"
        )
        if body.get("stream") is not True:
            raise _Invalid(
                "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                param="stream_options",
                code="invalid_value",
            )

    if body.get("top_logprobs") is not None and body.get("logprobs") is not True:
        raise _Invalid(
            "Invalid value for 'logprobs': must be true when 'top_logprobs' is specified.",
            param="logprobs",
            code="invalid_value",
        )

    tools = body.get("tools")
    tool_names: list[str] = []
    if tools is not None:
        tool_names = _validate_tools(tools)
    if body.get("parallel_tool_calls") is not None and tools is None:
        raise _Invalid(
            "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed "
            "when 'tools' are specified.",
            param="parallel_tool_calls",
            code="invalid_value",
        )
    if body.get("tool_choice") is not None:
        if tools is None:
            raise _Invalid(
                "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' "
                "are specified.",
                param="tool_choice",
                code="invalid_value",
            )
        _validate_tool_choice(body["tool_choice"], tool_names)

    fmt = body.get("response_format")
    if fmt is not None:
        if not isinstance(fmt, dict):
            raise _invalid_type("response_format", "an object", fmt)
        ftype = fmt.get("type", _MISSING)
        if ftype is _MISSING:
            raise _missing("response_format.type")
        if ftype not in ("text", "json_object", "json_schema"):
            raise _invalid_value(
                "response_format.type", ftype, ["text", "json_object", "json_schema"]
            )
        if ftype == "json_schema":
            schema = fmt.get("json_schema")
            if not isinstance(schema, dict):
                raise _missing("response_format.json_schema")
            sname = schema.get("name")
            if not isinstance(sname, str):
                raise _missing("response_format.json_schema.name")
        if ftype == "json_object":
            text = " ".join(_content_text(m.get("content")) for m in body["messages"])
            if "json" not in text.lower():
                raise _Invalid(
                    "'messages' must contain the word 'json' in some form, to use "
                    "'response_format' of type 'json_object'.",
                    param="messages",
                )


def _validate_embeddings(body: JSONDict, max_dim: int) -> None:
    _validate_keys_and_model(body, EMBEDDING_ALLOWED_KEYS)
    if "input" not in body:
        raise _missing("input")
    inp = body["input"]
    bad_input = _Invalid(
        "'$.input' is invalid. Please check the API reference: "
        "https://platform.openai.com/docs/api-reference.",
        param=None,
    )
    if isinstance(inp, str):
        if not inp:
            raise bad_input
    elif isinstance(inp, list):
        if not inp or len(inp) > 2048:
            raise bad_input
        if all(_is_int(t) for t in inp):
            pass
        else:
            for item in inp:
                if isinstance(item, str):
                    if not item:
                        raise bad_input
                elif isinstance(item, list):
                    if not item or not all(_is_int(t) for t in item):
                        raise bad_input
                else:
                    raise bad_input
    else:
        raise bad_input
    fmt = body.get("encoding_format")
    if fmt is not None and fmt not in ("float", "base64"):
        raise _invalid_value("encoding_format", fmt, ["float", "base64"])
    dims = body.get("dimensions")
    if dims is not None:
        if not _is_int(dims):
            raise _invalid_type("dimensions", "an integer", dims)
        if dims < 1:
            raise _Invalid(
                f"Invalid 'dimensions': integer below minimum value. Expected a value >= 1, "
                f"but got {dims} instead.",
                param="dimensions",
                code="integer_below_min_value",
            )
        if dims > max_dim:
            raise _Invalid(
                f"This model's maximum dimensions is {max_dim}, but {dims} were requested.",
                param="dimensions",
            )
    user = body.get("user")
    if user is not None and not isinstance(user, str):
        raise _invalid_type("user", "a string", user)


TRANSCRIPTION_MODELS = frozenset({"whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"})
TRANSCRIPTION_ALLOWED_KEYS = frozenset(
    {
        "model",
        "file",
        "language",
        "prompt",
        "response_format",
        "temperature",
        "timestamp_granularities[]",
        "include[]",
        "chunking_strategy",
        "stream",
    }
)
AUDIO_FORMATS = ("flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm")
TRANSCRIPTION_FORMATS = ("json", "text", "srt", "verbose_json", "vtt")
MAX_AUDIO_BYTES = 25 * 1024 * 1024


def _validate_transcription(fields: dict[str, str | tuple[str, bytes]]) -> JSONDict:
    """The multipart fields of /audio/transcriptions, as strictly as the real endpoint."""
    for key in fields:
        if key not in TRANSCRIPTION_ALLOWED_KEYS:
            raise _Invalid(f"Unrecognized request argument supplied: {key}")
    model = fields.get("model")
    if not isinstance(model, str) or not model:
        raise _Invalid("you must provide a model parameter")
    upload = fields.get("file")
    if upload is None:
        raise _missing("file")
    if not isinstance(upload, tuple):
        raise _invalid_type("file", "a file", upload)
    filename, content = upload
    extension = filename.rpartition(".")[2].lower() if "." in filename else ""
    if extension not in AUDIO_FORMATS:
        raise _Invalid(
            f"Invalid file format. Supported formats: {list(AUDIO_FORMATS)}", param="file"
        )
    if not content:
        raise _Invalid("Audio file is too short. Minimum audio length is 0.1 seconds.")
    if len(content) > MAX_AUDIO_BYTES:
        raise _Invalid(
            f"Maximum content size limit ({MAX_AUDIO_BYTES}) exceeded ({len(content)} bytes read)",
            status=413,
        )
    response_format = fields.get("response_format", "json")
    if response_format not in TRANSCRIPTION_FORMATS:
        raise _invalid_value("response_format", response_format, TRANSCRIPTION_FORMATS)
    record: JSONDict = {"model": model, "filename": filename, "size": len(content)}
    for key, value in fields.items():
        if key not in ("model", "file"):
            record[key] = value
    return record


def _mask_key(key: str) -> str:
    if len(key) <= 8:
        return key[:2] + "*" * max(len(key) - 2, 0)
    return f"{key[:3]}{'*' * (len(key) - 7)}{key[-4:]}"


# --------------------------------------------------------------------------------------
# Server
# --------------------------------------------------------------------------------------


class FakeOpenAIServer:
    """Strict, scriptable OpenAI-compatible HTTP server for tests (see module docstring)."""

    def __init__(self, *, api_key: str = "test-key", embedding_dim: int = 1536) -> None:
        self.api_key = api_key
        self.embedding_dim = embedding_dim
        self.requests: list[JSONDict] = []
        self.embedding_requests: list[JSONDict] = []
        self.errors: list[str] = []
        self.embedding_fn: Callable[[str], list[float]] | None = None
        self.embeddings_fail: int | None = None
        self.latency: float = 0.0
        #: Seconds between streamed pieces of a reply's text (a model writing at a fixed pace).
        self.chunk_delay: float = 0.0
        #: time.time() when each streamed reply's first piece of text was sent.
        self.first_content_at: list[float] = []
        self.model_id: str = DEFAULT_MODEL_ID
        #: Chat models that cannot see images: an image content part gets the real API's 400.
        self.non_vision_models: set[str] = set()
        #: Chat requests that carried an image (also recorded in ``requests``).
        self.vision_requests: list[JSONDict] = []
        #: Models /audio/transcriptions knows; any other model answers 404.
        self.transcription_models: set[str] = set(TRANSCRIPTION_MODELS)
        #: One record per valid transcription request: model, filename, size, other fields.
        self.transcription_requests: list[JSONDict] = []
        #: Model name -> how that model answers a chat request no scripted step answers (e.g.
        #: fakes/inventing_model.py); other models answer "ok".
        self.model_responders: dict[str, ResponderFn] = {}
        self._queue: deque[Step] = deque()
        self._vision_queue: deque[Step] = deque()
        self._transcripts: deque[str] = deque()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._call_counter = 0
        self._closing = asyncio.Event()

    # -- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        if self._runner is not None:
            return
        self._closing = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        app.router.add_post("/v1/embeddings", self._handle_embeddings)
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_get("/v1/models/{model}", self._handle_model)
        app.router.add_post("/v1/audio/transcriptions", self._handle_transcription)
        app.router.add_route("*", "/{tail:.*}", self._handle_not_found)
        runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            self._closing.set()  # wake hang()/latency sleepers so shutdown is immediate
            await runner.cleanup()

    async def __aenter__(self) -> FakeOpenAIServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        if self._runner is None or self._port is None:
            raise RuntimeError("FakeOpenAIServer is not started")
        return f"http://127.0.0.1:{self._port}/v1"

    # -- scripting -------------------------------------------------------------------

    def script(self, *steps: Step) -> None:
        """Append ``steps`` to the chat-completion queue (consumed in order)."""
        for step in steps:
            if not isinstance(step, Step):
                raise TypeError(f"not a Step: {step!r}")
        self._queue.extend(steps)

    def script_vision(self, *answers: Step | str | JSONDict) -> None:
        """Queue answers for chat requests that carry an image (a dict is sent as JSON text).

        With this queue empty, an image request takes the next step of ``script`` instead.
        """
        for answer in answers:
            if isinstance(answer, Step):
                self._vision_queue.append(answer)
            elif isinstance(answer, dict):
                self._vision_queue.append(ReplyStep(content=json.dumps(answer, ensure_ascii=False)))
            else:
                self._vision_queue.append(ReplyStep(content=answer))

    def script_transcript(self, *texts: str) -> None:
        """Queue what /audio/transcriptions hears, one text per request (then ``""``)."""
        self._transcripts.extend(texts)

    @property
    def pending_steps(self) -> int:
        """Number of scripted steps not consumed yet."""
        return len(self._queue)

    def reset(self) -> None:
        """Forget recorded requests/errors and the scripted queue; restore defaults."""
        self.requests.clear()
        self.embedding_requests.clear()
        self.errors.clear()
        self._queue.clear()
        self._vision_queue.clear()
        self._transcripts.clear()
        self.vision_requests.clear()
        self.transcription_requests.clear()
        self.non_vision_models.clear()
        self.model_responders.clear()
        self.transcription_models = set(TRANSCRIPTION_MODELS)
        self.embedding_fn = None
        self.embeddings_fail = None
        self.latency = 0.0
        self.chunk_delay = 0.0
        self.first_content_at = []

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

    def _reject(self, exc: _Invalid) -> web.Response:
        self.errors.append(exc.message)
        return self._error_response(
            exc.status, exc.message, type=exc.type, param=exc.param, code=exc.code
        )

    def _check_auth(self, request: web.Request) -> None:
        header = request.headers.get("Authorization", "")
        if not header.strip():
            raise _Invalid(
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
            raise _Invalid(
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
    def _json_body_error() -> _Invalid:
        return _Invalid(
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

    # -- routes ----------------------------------------------------------------------

    async def _handle_not_found(self, request: web.Request) -> web.Response:
        return self._error_response(
            404, f"Invalid URL ({request.method} {request.path})", code=None
        )

    async def _handle_models(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
        except _Invalid as exc:
            return self._reject(exc)
        return web.json_response(
            {"object": "list", "data": [self._model_obj(self.model_id)]}, headers=self._headers()
        )

    async def _handle_model(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
        except _Invalid as exc:
            return self._reject(exc)
        model = request.match_info["model"]
        if model != self.model_id:
            return self._error_response(
                404,
                f"The model '{model}' does not exist",
                param="model",
                code="model_not_found",
            )
        return web.json_response(self._model_obj(model), headers=self._headers())

    @staticmethod
    def _model_obj(model: str) -> JSONDict:
        return {"id": model, "object": "model", "created": 1700000000, "owned_by": "system"}

    async def _handle_embeddings(self, request: web.Request) -> web.Response:
        body = await self._read_json(request, self.embedding_requests)
        try:
            self._check_auth(request)
            if body is None:
                raise self._json_body_error()
            _validate_embeddings(body, self.embedding_dim)
        except _Invalid as exc:
            return self._reject(exc)
        if self.embeddings_fail is not None:
            status = self.embeddings_fail
            etype, code, message = _ERROR_DEFAULTS.get(
                status, ("server_error", None, f"HTTP {status}")
            )
            return self._error_response(status, message, type=etype, code=code)

        inp = body["input"]
        if isinstance(inp, str):
            texts = [inp]
        elif all(_is_int(t) for t in inp):
            texts = [json.dumps(inp)]
        else:
            texts = [t if isinstance(t, str) else json.dumps(t) for t in inp]
        dims = body.get("dimensions")
        b64 = body.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(texts):
            vec = self._embed(text, dims)
            payload: list[float] | str
            if b64:
                packed = struct.pack(f"<{len(vec)}f", *vec)
                payload = base64.b64encode(packed).decode("ascii")
            else:
                payload = vec
            data.append({"object": "embedding", "index": i, "embedding": payload})
        tokens = sum(max(1, len(t) // 4) for t in texts)
        return web.json_response(
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
            headers=self._headers(),
        )

    def _embed(self, text: str, dims: int | None) -> list[float]:
        if self.embedding_fn is not None:
            vec = [float(x) for x in self.embedding_fn(text)]
        else:
            vec = deterministic_embedding(text, self.embedding_dim)
        if dims is not None and dims < len(vec):
            vec = vec[:dims]
            norm = math.sqrt(sum(x * x for x in vec)) or 1.0
            vec = [x / norm for x in vec]
        return vec

    async def _handle_chat(self, request: web.Request) -> web.StreamResponse:
        body = await self._read_json(request, self.requests)
        try:
            self._check_auth(request)
            if body is None:
                raise self._json_body_error()
            _validate_chat(body)
            image_path = _image_part_path(body["messages"])
            if image_path is not None and body["model"] in self.non_vision_models:
                raise _Invalid(
                    "Invalid content type. image_url is only supported by certain models.",
                    param=image_path,
                )
        except _Invalid as exc:
            return self._reject(exc)

        if image_path is not None:
            self.vision_requests.append(body)
        if image_path is not None and self._vision_queue:
            step: Step = self._vision_queue.popleft()
        elif self._queue:
            step = self._queue.popleft()
        elif body["model"] in self.model_responders:
            step = ResponderStep(fn=self.model_responders[body["model"]])
        else:
            step = ReplyStep(content="ok")
        if self.latency and await self._sleep(self.latency):
            return self._drop_connection(request)
        return await self._answer(request, body, step, depth=0)

    async def _answer(
        self, request: web.Request, body: JSONDict, step: Step, *, depth: int
    ) -> web.StreamResponse:
        if depth > 16:
            raise RuntimeError("responder/hang steps nested too deeply")
        if isinstance(step, HangStep):
            if await self._sleep(step.seconds):
                return self._drop_connection(request)
            nxt = step.then if step.then is not None else ReplyStep(content="ok")
            return await self._answer(request, body, nxt, depth=depth + 1)
        if isinstance(step, ResponderStep):
            result = step.fn(body)
            if inspect.isawaitable(result):
                result = await result
            if isinstance(result, dict):
                return web.json_response(result, headers=self._headers())
            if not isinstance(result, Step):
                raise TypeError(f"responder returned {result!r}, expected a Step or a dict")
            return await self._answer(request, body, result, depth=depth + 1)
        if isinstance(step, DropStep):
            return self._drop_connection(request)
        if isinstance(step, ErrorStep):
            etype, code, message = _ERROR_DEFAULTS.get(
                step.status, ("server_error", None, f"HTTP {step.status}")
            )
            headers: dict[str, str] = {}
            if step.retry_after is not None:
                headers["Retry-After"] = _fmt_num(step.retry_after)
                headers["retry-after-ms"] = str(int(step.retry_after * 1000))
            return self._error_response(
                step.status,
                step.message if step.message is not None else message,
                type=step.type or etype,
                param=step.param,
                code=step.code if step.code is not None else code,
                headers=headers,
            )
        if body.get("stream") is True:
            return await self._stream(request, body, step)
        if isinstance(step, StreamCutStep):
            return self._drop_connection(request)
        message, finish_reason = self._message_for(step)
        completion = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": finish_reason,
                }
            ],
            "usage": self._usage(body, step, message),
            "service_tier": "default",
            "system_fingerprint": "fp_fake",
        }
        return web.json_response(completion, headers=self._headers())

    async def _handle_transcription(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
            fields = await self._read_multipart(request)
            record = _validate_transcription(fields)
            if record["model"] not in self.transcription_models:
                raise _Invalid(
                    f"The model `{record['model']}` does not exist or you do not have access "
                    "to it.",
                    status=404,
                    code="model_not_found",
                )
        except _Invalid as exc:
            return self._reject(exc)
        self.transcription_requests.append(record)
        text = self._transcripts.popleft() if self._transcripts else ""
        response_format = record.get("response_format", "json")
        if response_format in ("text", "srt", "vtt"):
            return web.Response(text=text, content_type="text/plain", headers=self._headers())
        body: JSONDict = {"text": text}
        if response_format == "verbose_json":
            body.update({"task": "transcribe", "language": record.get("language", "russian")})
            body.update({"duration": 1.0, "segments": []})
        return web.json_response(body, headers=self._headers())

    @staticmethod
    async def _read_multipart(request: web.Request) -> dict[str, str | tuple[str, bytes]]:
        if not request.content_type.startswith("multipart/form-data"):
            raise _Invalid(
                "Invalid Content-Type header "
                f"({request.content_type}), expected multipart/form-data."
            )
        fields: dict[str, str | tuple[str, bytes]] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            data = await part.read()
            if part.filename is not None:
                fields[part.name] = (part.filename, bytes(data))
            else:
                fields[part.name] = bytes(data).decode("utf-8", "replace")
        return fields

    def _tool_call_dicts(self, step: ToolCallsStep) -> list[JSONDict]:
        out = []
        for c in step.calls:
            args = c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments)
            out.append(
                {
                    "id": c.id or self._next_call_id(),
                    "type": "function",
                    "function": {"name": c.name, "arguments": args},
                }
            )
        return out

    def _message_for(self, step: Step) -> tuple[JSONDict, str]:
        if isinstance(step, ReplyStep):
            msg = {"role": "assistant", "content": step.content, "refusal": None, "annotations": []}
            return msg, step.finish_reason
        if isinstance(step, ToolCallsStep | RawToolCallsStep):
            calls = (
                self._tool_call_dicts(step)
                if isinstance(step, ToolCallsStep)
                else list(step.tool_calls)
            )
            msg = {
                "role": "assistant",
                "content": step.content,
                "tool_calls": calls,
                "refusal": None,
                "annotations": [],
            }
            return msg, "tool_calls"
        raise TypeError(f"cannot answer with {step!r}")

    @staticmethod
    def _usage(body: JSONDict, step: Step, message: JSONDict) -> JSONDict:
        if step.usage is not None:
            return step.usage
        prompt_chars = sum(len(_content_text(m.get("content"))) for m in body["messages"])
        out_chars = len(message.get("content") or "")
        for tc in message.get("tool_calls") or []:
            fn = tc.get("function") if isinstance(tc, dict) else None
            if isinstance(fn, dict):
                out_chars += len(str(fn.get("name", ""))) + len(str(fn.get("arguments", "")))
        prompt = prompt_chars // 4
        completion = out_chars // 4 or 10
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    # -- streaming -------------------------------------------------------------------

    async def _stream(self, request: web.Request, body: JSONDict, step: Step) -> web.StreamResponse:
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        completion_id = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        created = int(time.time())

        def chunk(delta: JSONDict, finish_reason: str | None = None) -> JSONDict:
            obj: JSONDict = {
                "id": completion_id,
                "object": "chat.completion.chunk",
                "created": created,
                "model": body["model"],
                "service_tier": "default",
                "system_fingerprint": "fp_fake",
                "choices": [
                    {
                        "index": 0,
                        "delta": delta,
                        "logprobs": None,
                        "finish_reason": finish_reason,
                    }
                ],
            }
            if include_usage:
                obj["usage"] = None
            return obj

        resp = web.StreamResponse(
            status=200,
            headers=self._headers({"Cache-Control": "no-cache"}),
        )
        resp.content_type = "text/event-stream"
        resp.charset = "utf-8"
        await resp.prepare(request)

        async def send(obj: JSONDict | str) -> None:
            data = obj if isinstance(obj, str) else json.dumps(obj, separators=(",", ":"))
            await resp.write(f"data: {data}\n\n".encode())

        def pieces(text: str) -> list[str]:
            return [
                text[i : i + STREAM_CHUNK_CHARS] for i in range(0, len(text), STREAM_CHUNK_CHARS)
            ]

        if isinstance(step, StreamCutStep):
            await send(chunk({"role": "assistant", "content": "", "refusal": None}))
            for piece in pieces(step.content[: step.after_chars]):
                await send(chunk({"content": piece}))
            transport = request.transport
            if transport is not None:
                transport.close()
            return resp

        message, finish_reason = self._message_for(step)
        if isinstance(step, ReplyStep):
            await send(chunk({"role": "assistant", "content": "", "refusal": None}))
            cut = step.after_chars if isinstance(step, PausedReplyStep) else len(step.content)
            for index, piece in enumerate(pieces(step.content[:cut])):
                if index and self.chunk_delay:
                    await asyncio.sleep(self.chunk_delay)
                if not index:
                    self.first_content_at.append(time.time())
                await send(chunk({"content": piece}))
            if isinstance(step, PausedReplyStep):
                resumed = asyncio.ensure_future(step.resume.wait())
                closing = asyncio.ensure_future(self._closing.wait())
                await asyncio.wait({resumed, closing}, return_when=asyncio.FIRST_COMPLETED)
                resumed.cancel()
                closing.cancel()
            for piece in pieces(step.content[cut:]):
                await send(chunk({"content": piece}))
        elif isinstance(step, ToolCallsStep):
            first = True
            content = step.content
            if content:
                await send(chunk({"role": "assistant", "content": "", "refusal": None}))
                for piece in pieces(content):
                    await send(chunk({"content": piece}))
                first = False
            for index, tc in enumerate(message["tool_calls"]):
                head: JSONDict = {
                    "index": index,
                    "id": tc["id"],
                    "type": "function",
                    "function": {"name": tc["function"]["name"], "arguments": ""},
                }
                delta: JSONDict = {"tool_calls": [head]}
                if first:
                    delta = {"role": "assistant", "content": None, **delta, "refusal": None}
                    first = False
                await send(chunk(delta))
                for piece in pieces(tc["function"]["arguments"]):
                    await send(
                        chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                    )
        elif isinstance(step, RawToolCallsStep):
            await send(chunk({"role": "assistant", "content": step.content, "refusal": None}))
            for index, raw in enumerate(step.tool_calls):
                await send(chunk({"tool_calls": [{"index": index, **raw}]}))
        await send(chunk({}, finish_reason))
        if include_usage:
            final = chunk({})
            final["choices"] = []
            final["usage"] = self._usage(body, step, message)
            await send(final)
        await send("[DONE]")
        await resp.write_eof()
        return resp
