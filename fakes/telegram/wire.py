"""The Bot API on the wire: the record of each call, the error answer, how a parameter is
decoded (aiogram sends strings verbatim and JSON-encodes everything else)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Form fields that are always strings, even when they look like numbers or JSON.
STRING_FIELDS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "action",
        "callback_query_id",
        "inline_message_id",
        "url",
        "secret_token",
        "ip_address",
        "photo",
        "document",
        "sticker",
        "voice",
        "language_code",
        "business_connection_id",
        "message_effect_id",
        "emoji",
    }
)
_INT_RE = re.compile(r"^-?\d+$")
_FLOAT_RE = re.compile(r"^-?\d+\.\d+(?:[eE][-+]?\d+)?$")


@dataclass
class UploadedFile:
    """A file received as a multipart part (``photo=attach://...`` or a direct file part)."""

    field_name: str
    filename: str | None
    content_type: str | None
    data: bytes

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class SentCall:
    """One Bot API call received by the fake server.

    ``params`` holds the decoded request parameters: nested JSON values (``reply_markup``,
    ``entities``, ``allowed_updates``, ...) are dicts/lists, numbers are ints, booleans are bools,
    uploads are ``UploadedFile`` objects.
    """

    method: str
    params: dict[str, Any]
    ok: bool
    error: str | None = None
    message_id: int | None = None
    at: float = field(default_factory=time.monotonic)
    #: HTTP status / ``error_code`` of the answer.
    status: int = 200
    #: The ``result`` returned to the client (``None`` for rejected calls).
    result: Any = None
    #: Text (or caption) as the user sees it, i.e. after HTML entity parsing.
    visible_text: str | None = None

    @property
    def chat_id(self) -> int | str | None:
        return as_chat_id(self.params.get("chat_id"))

    @property
    def text(self) -> str | None:
        """Raw ``text`` (or ``caption``) parameter exactly as the bot sent it."""
        value = self.params.get("text", self.params.get("caption"))
        return None if value is None else str(value)

    @property
    def reply_markup(self) -> dict[str, Any] | None:
        markup = self.params.get("reply_markup")
        return markup if isinstance(markup, dict) else None

    @property
    def inline_buttons(self) -> list[dict[str, Any]]:
        """All inline keyboard buttons of ``reply_markup``, flattened row by row."""
        markup = self.reply_markup or {}
        rows = markup.get("inline_keyboard") or []
        return [button for row in rows if isinstance(row, list) for button in row]

    def describe(self) -> str:
        status = "ok" if self.ok else f"REJECTED {self.status} {self.error!r}"
        params = {k: v for k, v in self.params.items() if not isinstance(v, UploadedFile)}
        rendered = json.dumps(params, ensure_ascii=False, default=str)
        if len(rendered) > 500:
            rendered = rendered[:500] + "..."
        return f"{self.method} [{status}] message_id={self.message_id} {rendered}"


class ApiError(Exception):
    def __init__(self, status: int, description: str, retry_after: int | None = None) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


def bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class Injection:
    remaining: int
    skip: int = 0  # calls of the method let through untouched before this one applies
    status: int = 0
    description: str = ""
    retry_after: int | None = None
    seconds: float = 0.0
    # Only calls with these parameters meet it (None: every call of the method); the others
    # pass untouched and leave it for the next one that does.
    when: Callable[[dict[str, Any]], bool] | None = None


def decode_form_value(key: str, value: str) -> Any:
    if key in STRING_FIELDS:
        return value
    stripped = value.strip()
    if stripped[:1] in ("{", "["):
        try:
            return json.loads(stripped)
        except ValueError:
            return value
    if _INT_RE.match(stripped):
        return int(stripped)
    if stripped in ("true", "false"):
        return stripped == "true"
    if _FLOAT_RE.match(stripped):
        return float(stripped)
    return value


def as_chat_id(value: Any) -> int | str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if _INT_RE.match(text):
        return int(text)
    return text or None


def as_int(value: Any, default: int) -> int:
    if value is None or isinstance(value, bool):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
