"""A fake Telegram Bot API server for end-to-end tests of the aiogram bot.

``FakeTelegramServer`` is a real HTTP server (``aiohttp.web`` on ``127.0.0.1`` with an ephemeral
port) speaking enough of the Bot API for an aiogram ``Bot`` whose session is built with::

    AiohttpSession(api=TelegramAPIServer.from_base(server.base_url))

Requests arrive as ``POST {base_url}/bot{token}/{method}``; aiogram sends parameters as
multipart/form-data where strings are sent verbatim, every other value (ints, bools, nested
objects such as ``reply_markup``) is JSON-encoded, and uploads are separate file parts referenced
as ``attach://<name>``.  JSON bodies and query strings are accepted as well.

Responses mimic Telegram exactly: ``{"ok": true, "result": ...}`` or
``{"ok": false, "error_code": N, "description": "..."}`` (plus ``"parameters": {"retry_after": N}``
for 429), with the HTTP status equal to ``error_code``.

Validation is deliberately strict (HTML entity parsing, text/caption lengths, inline keyboard
buttons, chat actions, ...) so that the bot's formatting bugs surface in tests instead of in
production.  One intentional difference from real Telegram: a bare ``&`` that does not start a
valid HTML entity is rejected (Telegram tolerates it, the Bot API docs say it must be escaped);
set ``FakeTelegramServer.strict_ampersand = False`` to relax this.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from aiohttp import web

__all__ = [
    "CHAT_ACTIONS",
    "FakeTelegramServer",
    "HtmlParseError",
    "SentCall",
    "UploadedFile",
    "parse_telegram_html",
]

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_INLINE_BUTTONS = 100

CHAT_ACTIONS: frozenset[str] = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)

#: Methods whose successful call creates a new message (``SentCall.message_id`` is set).
#: The longest side of the sizes Telegram makes of a photo (plus the original, when larger).
PHOTO_SIDES = (90, 320, 800, 1280, 2560)
MESSAGE_CREATING_METHODS: frozenset[str] = frozenset({"sendMessage", "sendPhoto"})

#: Update types delivered when ``allowed_updates`` was never given (or given as ``[]``).
_DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})

#: Form fields that are always strings, even when they look like numbers or JSON.
_STRING_FIELDS = frozenset(
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

_INLINE_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_BUTTON_URL_RE = re.compile(r"^(?:https?|tg)://\S+$", re.IGNORECASE)
_BOT_COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")
_INT_RE = re.compile(r"^-?\d+$")
_FLOAT_RE = re.compile(r"^-?\d+\.\d+(?:[eE][-+]?\d+)?$")
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024  # the Bot API's getFile limit (issue-13)
_NON_TEXT_KINDS = ("photo", "sticker", "voice", "location", "document")


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------


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
        return _as_chat_id(self.params.get("chat_id"))

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


class _ApiError(Exception):
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


def _bad_request(description: str) -> _ApiError:
    return _ApiError(400, f"Bad Request: {description}")


@dataclass
class _Injection:
    remaining: int
    skip: int = 0  # calls of the method let through untouched before this one applies
    status: int = 0
    description: str = ""
    retry_after: int | None = None
    seconds: float = 0.0


# --------------------------------------------------------------------------------------------
# Telegram HTML parser (modelled on tdlib's parse_html)
# --------------------------------------------------------------------------------------------


class HtmlParseError(ValueError):
    """Raised by :func:`parse_telegram_html`.

    ``reason`` is what Telegram puts after "can't parse entities: ".
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_SUPPORTED_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "tg-emoji",
        "code",
        "pre",
        "blockquote",
    }
)
_TAG_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_HTML_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_HTML_ENTITY_RE = re.compile(r"&(?:(lt|gt|amp|quot)|#([0-9]{1,8})|#[xX]([0-9a-fA-F]{1,8}));")
_HTML_SPACES = frozenset(" \t\r\n\v\f")


@dataclass
class _OpenTag:
    name: str
    argument: str
    utf16_start: int
    byte_pos: int


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _decode_html_entity(source: str, pos: int) -> tuple[str, int] | None:
    match = _HTML_ENTITY_RE.match(source, pos)
    if match is None:
        return None
    named, decimal, hexadecimal = match.groups()
    if named:
        return _NAMED_HTML_ENTITIES[named], match.end()
    code = int(decimal) if decimal else int(hexadecimal, 16)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code), match.end()


def parse_telegram_html(
    source: str, *, strict_ampersand: bool = True
) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram-flavoured HTML; return ``(visible_text, entities)``.

    Entity offsets/lengths are in UTF-16 code units like Telegram's.  Raises
    :class:`HtmlParseError` with Telegram's wording ("Unsupported start tag \\"div\\" at byte
    offset 0", "Can't find end tag corresponding to start tag \\"b\\"", ...).
    """
    n = len(source)
    out: list[str] = []
    utf16 = 0
    stack: list[_OpenTag] = []
    entities: list[dict[str, Any]] = []

    def byte_offset(pos: int) -> int:
        return len(source[:pos].encode("utf-8"))

    def is_space(pos: int) -> bool:
        return pos < n and source[pos] in _HTML_SPACES

    def skip_spaces(pos: int) -> int:
        while is_space(pos):
            pos += 1
        return pos

    i = 0
    while i < n:
        char = source[i]
        if char == "&":
            decoded = _decode_html_entity(source, i)
            if decoded is not None:
                text, i = decoded
                out.append(text)
                utf16 += _utf16_len(text)
                continue
            if strict_ampersand:
                raise HtmlParseError(
                    f'Character "&" must be escaped as "&amp;" at byte offset {byte_offset(i)}'
                )
        if char != "<":
            out.append(char)
            utf16 += _utf16_len(char)
            i += 1
            continue

        begin = i
        offset = byte_offset(begin)
        i += 1
        if i < n and source[i] == "/":
            # End tag.
            if not stack:
                raise HtmlParseError(f"Unexpected end tag at byte offset {offset}")
            i += 1
            name_begin = i
            while i < n and not is_space(i) and source[i] != ">":
                i += 1
            end_name = source[name_begin:i].lower()
            i = skip_spaces(i)
            if i >= n or source[i] != ">":
                raise HtmlParseError(f"Unclosed end tag at byte offset {offset}")
            i += 1
            opened = stack.pop()
            if end_name and end_name != opened.name:
                raise HtmlParseError(
                    f'Unmatched end tag at byte offset {offset}, expected "</{opened.name}>", '
                    f'found "</{end_name}>"'
                )
            _close_entity(opened, utf16, stack, entities)
            continue

        # Start tag.
        while i < n and not is_space(i) and source[i] != ">":
            i += 1
        if i >= n:
            raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
        name = source[begin + 1 : i].lower()
        if name not in _SUPPORTED_TAGS:
            raise HtmlParseError(f'Unsupported start tag "{name}" at byte offset {offset}')

        attributes: dict[str, str] = {}
        while True:
            i = skip_spaces(i)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            if source[i] == ">":
                i += 1
                break
            attr_begin = i
            while i < n and not is_space(i) and source[i] not in "=>":
                i += 1
            attr_name = source[attr_begin:i].lower()
            if not attr_name:
                raise HtmlParseError(
                    f'Empty attribute name in the tag "{name}" at byte offset {offset}'
                )
            i = skip_spaces(i)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            if source[i] != "=":
                if name == "blockquote" and attr_name == "expandable":
                    attributes[attr_name] = ""
                    continue
                raise HtmlParseError(
                    "Expected equal sign in declaration of an attribute of the tag "
                    f'"{name}" at byte offset {offset}'
                )
            i = skip_spaces(i + 1)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            quote = source[i]
            if quote not in "'\"":
                token_begin = i
                while i < n and (
                    (source[i].isascii() and source[i].isalnum()) or source[i] in ".-"
                ):
                    i += 1
                value = source[token_begin:i].lower()
                if i < n and not is_space(i) and source[i] != ">":
                    raise HtmlParseError(
                        f"Unexpected end of name token at byte offset {byte_offset(token_begin)}"
                    )
            else:
                i += 1
                chunks: list[str] = []
                while i < n and source[i] != quote:
                    if source[i] == "&":
                        decoded = _decode_html_entity(source, i)
                        if decoded is not None:
                            chunks.append(decoded[0])
                            i = decoded[1]
                            continue
                    chunks.append(source[i])
                    i += 1
                if i < n:
                    i += 1
                value = "".join(chunks)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            attributes[attr_name] = value

        stack.append(_OpenTag(name, _tag_argument(name, attributes, offset), utf16, offset))

    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
    return "".join(out), entities


def _tag_argument(name: str, attributes: dict[str, str], offset: int) -> str:
    if name == "a":
        href = attributes.get("href", "").strip()
        if not href:
            raise HtmlParseError(
                f'Tag "a" must have non-empty attribute "href" at byte offset {offset}'
            )
        return href
    if name == "span":
        if attributes.get("class") != "tg-spoiler":
            raise HtmlParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        return ""
    if name == "code":
        css_class = attributes.get("class", "")
        return css_class.removeprefix("language-") if css_class.startswith("language-") else ""
    if name == "tg-emoji":
        emoji_id = attributes.get("emoji-id", "")
        if not emoji_id.isdigit():
            raise HtmlParseError(
                f"Invalid custom emoji identifier specified at byte offset {offset}"
            )
        return emoji_id
    if name == "blockquote":
        return "expandable" if "expandable" in attributes else ""
    return ""


def _close_entity(
    opened: _OpenTag, utf16_end: int, stack: list[_OpenTag], entities: list[dict[str, Any]]
) -> None:
    length = utf16_end - opened.utf16_start
    if opened.name == "code" and stack and stack[-1].name == "pre":
        parent = stack[-1]
        if parent.utf16_start == opened.utf16_start:
            # <pre><code class="language-x">...</code></pre> is a single pre entity.
            if opened.argument and not parent.argument:
                parent.argument = opened.argument
            return
    if length <= 0:
        return
    entity: dict[str, Any] = {
        "type": _TAG_ENTITY_TYPES[opened.name],
        "offset": opened.utf16_start,
        "length": length,
    }
    if opened.name == "a":
        entity["url"] = opened.argument
    elif opened.name == "pre" and opened.argument:
        entity["language"] = opened.argument
    elif opened.name == "tg-emoji":
        entity["custom_emoji_id"] = opened.argument
    elif opened.name == "blockquote" and opened.argument:
        entity["type"] = "expandable_blockquote"
    entities.append(entity)


# --------------------------------------------------------------------------------------------
# Parameter helpers
# --------------------------------------------------------------------------------------------


def _decode_form_value(key: str, value: str) -> Any:
    if key in _STRING_FIELDS:
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


def _as_chat_id(value: Any) -> int | str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if _INT_RE.match(text):
        return int(text)
    return text or None


def _as_int(value: Any, default: int) -> int:
    if value is None or isinstance(value, bool):
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _update_type(update: dict[str, Any]) -> str | None:
    return next((key for key in update if key != "update_id"), None)


def _markup_for_message(markup: dict[str, Any] | None) -> dict[str, Any] | None:
    """Only inline keyboards are part of a Message object."""
    if markup and "inline_keyboard" in markup:
        return markup
    return None


def _validate_reply_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise _bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
        raise _bad_request("reply markup is too long")
    for row in rows:
        for button in row:
            _validate_inline_button(button)
    return markup


def _validate_inline_button(button: Any) -> None:
    prefix = "can't parse inline keyboard button: "
    if not isinstance(button, dict):
        raise _bad_request(prefix + "InlineKeyboardButton must be an Object")
    text = button.get("text")
    if not isinstance(text, str):
        raise _bad_request(prefix + 'Field "text" must be of type String')
    if not text.strip():
        raise _bad_request(prefix + 'Field "text" must be non-empty')
    actions = [key for key in _INLINE_BUTTON_ACTIONS if key in button]
    if not actions:
        raise _bad_request(prefix + "Text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:
        raise _bad_request(prefix + "exactly one of the optional fields must be used")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
            raise _bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not _BUTTON_URL_RE.match(url):
            raise _bad_request("BUTTON_URL_INVALID")
    if "switch_inline_query_chosen_chat" in button:
        _validate_chosen_chat_switch(button["switch_inline_query_chosen_chat"])


# --------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------

_MethodHandler = Callable[[dict[str, Any], SentCall], Awaitable[Any]]


class FakeTelegramServer:
    """An in-process fake Telegram Bot API server.

    Usage::

        async with FakeTelegramServer() as server:
            session = AiohttpSession(api=TelegramAPIServer.from_base(server.base_url))
            bot = Bot(server.token, session=session)
            ...
            server.push_update(server.message_update(chat_id=42, text="/start"))
            await server.wait_for(lambda calls: any(c.method == "sendMessage" for c in calls))
    """

    #: Reject a bare "&" in HTML text (Telegram itself tolerates it; the docs forbid it).
    strict_ampersand: bool = True

    def __init__(self, token: str = "123456:TEST-token") -> None:
        self.token: str = token
        bot_id_part = token.partition(":")[0]
        bot_id = int(bot_id_part) if bot_id_part.isdigit() else 123456
        self.bot_user: dict[str, Any] = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Sommelier",
            "username": "sommelier_test_bot",
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
        self.calls: list[SentCall] = []
        self.rejected: list[SentCall] = []
        self.webhook: dict[str, Any] | None = None
        #: Commands set by setMyCommands (default scope / last call).
        self.commands: list[dict[str, Any]] = []
        #: Latest visible text of each message draft, keyed by (chat_id, draft_id).
        self.drafts: dict[tuple[int, int], str] = {}
        self.base_url: str = ""

        self._host = "127.0.0.1"
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self._update_event = asyncio.Event()
        self._updates: list[dict[str, Any]] = []
        self._allowed_updates: frozenset[str] | None = None
        self._poll_generation = 0
        self._next_update_id = 1
        self._next_message_id = 1
        self._next_file_id = 1
        self._messages: dict[int, dict[int, dict[str, Any]]] = {}
        self._chats: dict[int, dict[str, Any]] = {}
        self._open_callback_queries: set[str] = set()
        self._failures: dict[str, list[_Injection]] = {}
        self._delays: dict[str, list[_Injection]] = {}
        self._background: set[asyncio.Task[web.Response]] = set()
        self._methods: dict[str, tuple[str, _MethodHandler]] = {}
        for name, handler in (
            ("getMe", self._get_me),
            ("getUpdates", self._get_updates),
            ("setWebhook", self._set_webhook),
            ("deleteWebhook", self._delete_webhook),
            ("getWebhookInfo", self._get_webhook_info),
            ("sendMessage", self._send_message),
            ("sendPhoto", self._send_photo),
            ("sendChatAction", self._send_chat_action),
            ("sendMessageDraft", self._send_message_draft),
            ("editMessageText", self._edit_message_text),
            ("editMessageReplyMarkup", self._edit_message_reply_markup),
            ("editMessageCaption", self._edit_message_caption),
            ("answerCallbackQuery", self._answer_callback_query),
            ("deleteMessage", self._delete_message),
            ("setMyCommands", self._set_my_commands),
            ("getMyCommands", self._get_my_commands),
            ("deleteMyCommands", self._delete_my_commands),
            ("getChat", self._get_chat),
            ("close", self._return_true),
            ("logOut", self._return_true),
        ):
            self._methods[name.lower()] = (name, handler)
        self._init_files()  # issue-13: getFile + file downloads (see the block below)
        self._init_inline()  # issue-20: inline and guest queries (see the block at the end)

    # ---------------------------------------------------------------- lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Serve on `host`:`port` (a free port by default); tests keep to 127.0.0.1."""
        if self._runner is not None:
            return
        self._host = host
        self._closing = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download_file)  # issue-13
        runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, self._host, port)
        await site.start()
        port = runner.addresses[0][1]
        self._runner = runner
        self.base_url = f"http://{self._host}:{port}"

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is None:
            return
        self._closing.set()
        self._notify()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await runner.cleanup()

    async def __aenter__(self) -> FakeTelegramServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # ---------------------------------------------------------------- inspection

    def sent(self, method: str | None = None, chat_id: int | None = None) -> list[SentCall]:
        """Accepted calls, optionally filtered by method name (case-insensitive) and chat."""
        wanted = method.lower() if method is not None else None
        return [
            call
            for call in self.calls
            if call.ok
            and (wanted is None or call.method.lower() == wanted)
            and (chat_id is None or call.chat_id == chat_id)
        ]

    def chat_messages(self, chat_id: int) -> list[dict[str, Any]]:
        """Current state (after edits/deletions) of every known message in a chat, by id."""
        messages = self._messages.get(chat_id, {})
        return [copy.deepcopy(messages[key]) for key in sorted(messages)]

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates queued for getUpdates and not yet confirmed by an offset."""
        return copy.deepcopy(self._updates)

    async def wait_for(
        self,
        predicate: Callable[[list[SentCall]], bool],
        timeout: float = 10.0,
    ) -> None:
        """Poll until ``predicate(accepted calls)`` is true; raise AssertionError on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if predicate(self.sent()):
                return
            if loop.time() >= deadline:
                raise AssertionError(
                    f"condition not met within {timeout}s; calls received:\n{self.dump_calls()}"
                )
            await asyncio.sleep(0.02)

    def dump_calls(self, *, include_get_updates: bool = False) -> str:
        lines = [
            f"  #{index} {call.describe()}"
            for index, call in enumerate(self.calls)
            if include_get_updates or call.method != "getUpdates"
        ]
        return "\n".join(lines) or "  (no calls)"

    # ---------------------------------------------------------------- fault injection

    def fail_next(
        self,
        method: str,
        status: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
        after: int = 0,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with an error instead of handling them
        (the first ``after`` calls of it pass untouched)."""
        if retry_after is None and status == 429:
            retry_after = 1
        self._failures.setdefault(method.lower(), []).append(
            _Injection(
                remaining=times,
                skip=after,
                status=status,
                description=description,
                retry_after=retry_after,
            )
        )

    def delay_next(self, method: str, seconds: float, times: int = 1, after: int = 0) -> None:
        """Answer the next ``times`` calls of ``method`` only after ``seconds`` (the first
        ``after`` calls of it pass untouched).

        The call is still processed (and recorded) even when the client gives up waiting,
        like a real server that received a request whose client timed out.
        """
        self._delays.setdefault(method.lower(), []).append(
            _Injection(remaining=times, skip=after, seconds=seconds)
        )

    @staticmethod
    def _take(queue: dict[str, list[_Injection]], method: str) -> _Injection | None:
        pending = queue.get(method.lower())
        if not pending:
            return None
        injection = pending[0]
        if injection.skip > 0:
            injection.skip -= 1
            return None
        injection.remaining -= 1
        if injection.remaining <= 0:
            pending.pop(0)
        return injection

    # ---------------------------------------------------------------- updates

    def push_update(self, update: dict[str, Any]) -> None:
        """Queue an update for getUpdates; ``update_id`` is assigned when missing."""
        self.accept_update(update)
        self._updates.append(update)
        self._updates.sort(key=lambda queued: queued["update_id"])
        self._notify()

    def accept_update(self, update: dict[str, Any]) -> dict[str, Any]:
        """Make an update known (its id, its chat, its callback query) without queueing it:
        what Telegram does before delivering an update to a webhook."""
        if "update_id" not in update:
            update["update_id"] = self._new_update_id()
        else:
            update_id = int(update["update_id"])
            if any(queued["update_id"] == update_id for queued in self._updates):
                raise ValueError(f"update {update_id} is already queued")
            self._next_update_id = max(self._next_update_id, update_id + 1)
        for key in ("message", "edited_message"):
            message = update.get(key)
            if isinstance(message, dict):
                self._remember_incoming(message)
        callback = update.get("callback_query")
        if isinstance(callback, dict) and "id" in callback:
            self._open_callback_queries.add(str(callback["id"]))
        return update

    def message_update(
        self,
        chat_id: int,
        text: str,
        *,
        user_id: int | None = None,
        chat_type: str = "private",
        first_name: str = "Ivan",
        **extra: Any,
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a text message from a user."""
        message = self._incoming_message(chat_id, user_id, chat_type, first_name)
        message["text"] = text
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0]
            message["entities"] = [
                {"type": "bot_command", "offset": 0, "length": _utf16_len(command)}
            ]
        message.update(extra)
        return {"update_id": self._new_update_id(), "message": message}

    def callback_update(
        self, chat_id: int, data: str, *, message_id: int, user_id: int | None = None
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a callback query pressed on ``message_id``."""
        uid = user_id if user_id is not None else chat_id
        message = self._messages.get(chat_id, {}).get(message_id)
        if message is None:
            message = {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": self._chat(chat_id),
                "from": self._bot_from(),
                "text": "",
            }
        update_id = self._new_update_id()
        query_id = f"{self.bot_user['id']}{update_id:08d}"
        return {
            "update_id": update_id,
            "callback_query": {
                "id": query_id,
                "from": self._user(uid, self._chat(chat_id).get("first_name", "Ivan")),
                "chat_instance": f"ci{chat_id}",
                "data": data,
                "message": copy.deepcopy(message),
            },
        }

    def non_text_update(self, chat_id: int, kind: str) -> dict[str, Any]:
        """Build (not queue) an Update with a photo|sticker|voice|location|document message."""
        if kind not in _NON_TEXT_KINDS:
            raise ValueError(f"kind must be one of {_NON_TEXT_KINDS}, got {kind!r}")
        message = self._incoming_message(chat_id, None, "private", "Ivan")
        if kind == "photo":
            message["photo"] = self._photo_sizes(20_000)
        elif kind == "sticker":
            file_id, unique_id = self._new_file_id("sticker")
            message["sticker"] = {
                "file_id": file_id,
                "file_unique_id": unique_id,
                "type": "regular",
                "width": 512,
                "height": 512,
                "is_animated": False,
                "is_video": False,
                "emoji": "🍷",
            }
        elif kind == "voice":
            file_id, unique_id = self._new_file_id("voice")
            message["voice"] = {
                "file_id": file_id,
                "file_unique_id": unique_id,
                "duration": 3,
                "mime_type": "audio/ogg",
                "file_size": 12_345,
            }
        elif kind == "location":
            message["location"] = {"latitude": 55.7558, "longitude": 37.6173}
        else:
            file_id, unique_id = self._new_file_id("document")
            message["document"] = {
                "file_id": file_id,
                "file_unique_id": unique_id,
                "file_name": "wine_list.pdf",
                "mime_type": "application/pdf",
                "file_size": 54_321,
            }
        return {"update_id": self._new_update_id(), "message": message}

    # ---------------------------------------------------------------- files (issue-13)
    # Documents users send: getFile answers a file_path, GET /file/bot<token>/<file_path>
    # returns the bytes. Like the real Bot API, files above 20 MB cannot be downloaded
    # (getFile answers "file is too big").

    def _init_files(self) -> None:
        self._files: dict[str, tuple[str, bytes]] = {}
        self._methods["getfile"] = ("getFile", self._get_file)

    def document_update(
        self,
        chat_id: int,
        content: bytes,
        file_name: str,
        *,
        caption: str | None = None,
        mime_type: str = "application/octet-stream",
        user_id: int | None = None,
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a document the user sends; its bytes are stored."""
        message = self._incoming_message(chat_id, user_id, "private", "Ivan")
        file_id, unique_id = self._new_file_id("document")
        self._files[file_id] = (f"documents/file_{self._next_file_id}_{file_name}", content)
        message["document"] = {
            "file_id": file_id,
            "file_unique_id": unique_id,
            "file_name": file_name,
            "mime_type": mime_type,
            "file_size": len(content),
        }
        if caption is not None:
            message["caption"] = caption
            if caption.startswith("/"):
                command = caption.split(maxsplit=1)[0]
                message["caption_entities"] = [
                    {"type": "bot_command", "offset": 0, "length": _utf16_len(command)}
                ]
        return {"update_id": self._new_update_id(), "message": message}

    async def _get_file(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        file_id = params.get("file_id")
        if not isinstance(file_id, str) or not file_id:
            raise _bad_request("file_id is empty")
        stored = self._files.get(file_id)
        if stored is None:
            raise _bad_request("invalid file_id")
        path, content = stored
        if len(content) > MAX_DOWNLOAD_BYTES:
            raise _bad_request("file is too big")
        return {
            "file_id": file_id,
            "file_unique_id": "uniq" + file_id[-12:],
            "file_size": len(content),
            "file_path": path,
        }

    async def _download_file(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return web.Response(status=401, text="Unauthorized")
        path = request.match_info["path"]
        for stored_path, content in self._files.values():
            if stored_path == path and len(content) <= MAX_DOWNLOAD_BYTES:
                return web.Response(body=content, content_type="application/octet-stream")
        return web.Response(status=404, text="Not Found")

    # ---------------------------------------------------------------- end of files (issue-13)

    # ---------------------------------------------------------------- media (issue-17)
    # Photos, voice messages and video notes users send. Every size of a photo is stored
    # (with the same bytes) so getFile and the download work for whichever one a bot picks.

    def _store_file(
        self, kind: str, folder: str, extension: str, content: bytes
    ) -> tuple[str, str]:
        file_id, unique_id = self._new_file_id(kind)
        self._files[file_id] = (f"{folder}/file_{self._next_file_id}.{extension}", content)
        return file_id, unique_id

    def photo_update(
        self,
        chat_id: int,
        content: bytes,
        *,
        caption: str | None = None,
        width: int = 1280,
        height: int = 960,
        user_id: int | None = None,
        chat_type: str = "private",
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a photo: Telegram's sizes up to the original."""
        message = self._incoming_message(chat_id, user_id, chat_type, "Ivan")
        longest = max(width, height)
        sides = [side for side in PHOTO_SIDES if side < longest] + [longest]
        sizes = []
        for side in sides:
            file_id, unique_id = self._store_file("photo", "photos", "jpg", content)
            sizes.append(
                {
                    "file_id": file_id,
                    "file_unique_id": unique_id,
                    "width": max(1, width * side // longest),
                    "height": max(1, height * side // longest),
                    "file_size": max(1, len(content) * side // longest),
                }
            )
        message["photo"] = sizes
        if caption is not None:
            message["caption"] = caption
        return {"update_id": self._new_update_id(), "message": message}

    def voice_update(
        self,
        chat_id: int,
        content: bytes,
        *,
        duration: int = 5,
        user_id: int | None = None,
        chat_type: str = "private",
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a voice message (OGG/Opus, stored as .oga)."""
        message = self._incoming_message(chat_id, user_id, chat_type, "Ivan")
        file_id, unique_id = self._store_file("voice", "voice", "oga", content)
        message["voice"] = {
            "file_id": file_id,
            "file_unique_id": unique_id,
            "duration": duration,
            "mime_type": "audio/ogg",
            "file_size": len(content),
        }
        return {"update_id": self._new_update_id(), "message": message}

    def video_note_update(
        self, chat_id: int, content: bytes, *, duration: int = 5, user_id: int | None = None
    ) -> dict[str, Any]:
        """Build (not queue) an Update with a video note (a round video, stored as .mp4)."""
        message = self._incoming_message(chat_id, user_id, "private", "Ivan")
        file_id, unique_id = self._store_file("video_note", "video_notes", "mp4", content)
        message["video_note"] = {
            "file_id": file_id,
            "file_unique_id": unique_id,
            "length": 384,
            "duration": duration,
            "file_size": len(content),
        }
        return {"update_id": self._new_update_id(), "message": message}

    # ---------------------------------------------------------------- end of media (issue-17)

    # ---------------------------------------------------------------- HTTP plumbing

    async def _handle(self, request: web.Request) -> web.Response:
        received_at = time.monotonic()
        raw_method = request.match_info["method"]
        entry = self._methods.get(raw_method.lower())
        method = entry[0] if entry else raw_method
        try:
            params = await self._read_params(request)
        except _ApiError as exc:
            call = SentCall(method=method, params={}, ok=False, at=received_at)
            return self._reject(call, exc)
        call = SentCall(method=method, params=params, ok=False, at=received_at)
        if request.match_info["token"] != self.token:
            return self._reject(call, _ApiError(401, "Unauthorized"))
        if entry is None:
            return self._reject(call, _ApiError(404, "Not Found: method not found"))
        if method == "getUpdates":
            # A long poll abandoned by the client is simply dropped (nothing is consumed).
            return await self._process(call, entry[1])
        # Everything else is processed to the end even if the client disconnects meanwhile.
        task = asyncio.ensure_future(self._process(call, entry[1]))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return await asyncio.shield(task)

    async def _process(self, call: SentCall, handler: _MethodHandler) -> web.Response:
        delay = self._take(self._delays, call.method)
        if delay is not None and delay.seconds > 0:
            await self._sleep(delay.seconds)
        failure = self._take(self._failures, call.method)
        if failure is not None:
            return self._reject(
                call, _ApiError(failure.status, failure.description, failure.retry_after)
            )
        try:
            result = await handler(call.params, call)
        except _ApiError as exc:
            return self._reject(call, exc)
        call.ok = True
        call.status = 200
        call.result = result
        self.calls.append(call)
        return web.json_response({"ok": True, "result": result})

    def _reject(self, call: SentCall, exc: _ApiError) -> web.Response:
        call.ok = False
        call.status = exc.status
        call.error = exc.description
        call.message_id = None
        self.calls.append(call)
        self.rejected.append(call)
        return web.json_response(exc.payload(), status=exc.status)

    async def _read_params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for key, value in request.query.items():
            params[key] = _decode_form_value(key, value)
        if request.method not in ("POST", "PUT") or not request.can_read_body:
            return params
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                raise _bad_request("can't parse JSON object") from exc
            if not isinstance(body, dict):
                raise _bad_request("can't parse JSON object")
            for key, value in body.items():
                if isinstance(value, str) and key not in _STRING_FIELDS:
                    params[key] = _decode_form_value(key, value)
                else:
                    params[key] = value
            return params
        form = await request.post()
        files: dict[str, UploadedFile] = {}
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = UploadedFile(
                    field_name=key,
                    filename=value.filename,
                    content_type=value.content_type,
                    data=value.file.read(),
                )
            else:
                text = value if isinstance(value, str) else bytes(value).decode("utf-8")
                params[key] = _decode_form_value(key, text)
        for key, value in list(params.items()):
            if isinstance(value, str) and value.startswith("attach://"):
                attached = files.pop(value.removeprefix("attach://"), None)
                if attached is not None:
                    params[key] = attached
        params.update(files)
        return params

    async def _sleep(self, seconds: float) -> None:
        """Sleep, but wake up immediately when the server is stopping."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closing.wait(), timeout=seconds)

    def _notify(self) -> None:
        event, self._update_event = self._update_event, asyncio.Event()
        event.set()

    # ---------------------------------------------------------------- state helpers

    def _new_update_id(self) -> int:
        update_id = self._next_update_id
        self._next_update_id += 1
        return update_id

    def _new_message_id(self) -> int:
        message_id = self._next_message_id
        self._next_message_id += 1
        return message_id

    def _new_file_id(self, kind: str) -> tuple[str, str]:
        number = self._next_file_id
        self._next_file_id += 1
        return f"fake-{kind}-{number:06d}-AgACAgIAAxkBAAI", f"uniq{kind[:3]}{number:06d}"

    def _photo_sizes(self, size: int) -> list[dict[str, Any]]:
        small_id, small_unique = self._new_file_id("photo")
        big_id, big_unique = self._new_file_id("photo")
        return [
            {
                "file_id": small_id,
                "file_unique_id": small_unique,
                "width": 90,
                "height": 90,
                "file_size": max(1, size // 20),
            },
            {
                "file_id": big_id,
                "file_unique_id": big_unique,
                "width": 800,
                "height": 800,
                "file_size": max(1, size),
            },
        ]

    def _bot_from(self) -> dict[str, Any]:
        keys = ("id", "is_bot", "first_name", "username")
        return {key: self.bot_user[key] for key in keys}

    @staticmethod
    def _user(user_id: int, first_name: str) -> dict[str, Any]:
        return {"id": user_id, "is_bot": False, "first_name": first_name, "language_code": "ru"}

    def _chat(self, chat_id: int) -> dict[str, Any]:
        known = self._chats.get(chat_id)
        if known is not None:
            return dict(known)
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": "Ivan"}
        if str(chat_id).startswith("-100"):
            return {"id": chat_id, "type": "supergroup", "title": "Test supergroup"}
        return {"id": chat_id, "type": "group", "title": "Test group"}

    def _incoming_message(
        self, chat_id: int, user_id: int | None, chat_type: str, first_name: str
    ) -> dict[str, Any]:
        uid = user_id if user_id is not None else chat_id
        if chat_type == "private":
            chat: dict[str, Any] = {"id": chat_id, "type": "private", "first_name": first_name}
        else:
            chat = {"id": chat_id, "type": chat_type, "title": "Test group"}
        return {
            "message_id": self._new_message_id(),
            "from": self._user(uid, first_name),
            "chat": chat,
            "date": int(time.time()),
        }

    def _remember_incoming(self, message: dict[str, Any]) -> None:
        chat = message.get("chat")
        if not isinstance(chat, dict) or "id" not in chat or "message_id" not in message:
            return
        chat_id = int(chat["id"])
        self._chats.setdefault(chat_id, dict(chat))
        message_id = int(message["message_id"])
        self._next_message_id = max(self._next_message_id, message_id + 1)
        self._messages.setdefault(chat_id, {})[message_id] = copy.deepcopy(message)

    def _create_bot_message(self, chat_id: int, content: dict[str, Any]) -> dict[str, Any]:
        message_id = self._new_message_id()
        message = {
            "message_id": message_id,
            "from": self._bot_from(),
            "chat": self._chat(chat_id),
            "date": int(time.time()),
            **{key: value for key, value in content.items() if value is not None},
        }
        self._messages.setdefault(chat_id, {})[message_id] = message
        return copy.deepcopy(message)

    @staticmethod
    def _require_chat_id(params: dict[str, Any]) -> int:
        chat_id = _as_chat_id(params.get("chat_id"))
        if chat_id is None:
            raise _bad_request("chat_id is empty")
        if not isinstance(chat_id, int) or chat_id == 0:
            raise _bad_request("chat not found")
        return chat_id

    @staticmethod
    def _require_message_id(params: dict[str, Any]) -> int:
        message_id = _as_int(params.get("message_id"), 0)
        if message_id <= 0:
            raise _bad_request("message identifier is not specified")
        return message_id

    def _parse_text(
        self, text: str, parse_mode: Any, entities: Any
    ) -> tuple[str, list[dict[str, Any]]]:
        mode = str(parse_mode).lower() if parse_mode else ""
        if mode == "html":
            try:
                return parse_telegram_html(text, strict_ampersand=self.strict_ampersand)
            except HtmlParseError as exc:
                raise _bad_request(f"can't parse entities: {exc.reason}") from exc
        if mode in ("", "markdown", "markdownv2"):
            # Markdown is not parsed by the fake: the raw text counts as visible text.
            given = entities if isinstance(entities, list) and not mode else []
            return text, given
        raise _bad_request("unsupported parse_mode")

    def _parse_message_text(self, params: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        raw = params.get("text")
        if raw is None or raw == "":
            raise _bad_request("message text is empty")
        visible, entities = self._parse_text(
            str(raw), params.get("parse_mode"), params.get("entities")
        )
        if not visible.strip():
            raise _bad_request("message text is empty")
        if len(visible.strip()) > MAX_TEXT_LENGTH:
            raise _bad_request("message is too long")
        return visible, entities

    def _parse_caption(self, params: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        raw = params.get("caption")
        if raw is None or raw == "":
            return None, []
        visible, entities = self._parse_text(
            str(raw), params.get("parse_mode"), params.get("caption_entities")
        )
        if len(visible.strip()) > MAX_CAPTION_LENGTH:
            raise _bad_request("message caption is too long")
        return visible, entities

    def _find_message(self, chat_id: int, message_id: int, missing: str) -> dict[str, Any]:
        message = self._messages.get(chat_id, {}).get(message_id)
        if message is None:
            raise _bad_request(missing)
        return message

    def _require_editable(self, message: dict[str, Any]) -> None:
        if message.get("from", {}).get("id") != self.bot_user["id"]:
            raise _bad_request("message can't be edited")

    @staticmethod
    def _apply_content(message: dict[str, Any], content: dict[str, Any]) -> None:
        for key, value in content.items():
            if value is None or value == []:
                message.pop(key, None)
            else:
                message[key] = value
        message["edit_date"] = int(time.time())

    @staticmethod
    def _same_content(message: dict[str, Any], content: dict[str, Any]) -> bool:
        return all((message.get(key) or None) == (value or None) for key, value in content.items())

    # ---------------------------------------------------------------- Bot API methods

    async def _return_true(self, params: dict[str, Any], call: SentCall) -> bool:
        return True

    async def _get_me(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        return dict(self.bot_user)

    async def _get_updates(self, params: dict[str, Any], call: SentCall) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise _ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = _as_int(params.get("offset"), 0)
        limit = min(max(_as_int(params.get("limit"), 100), 1), 100)
        timeout = max(_as_int(params.get("timeout"), 0), 0)
        if "allowed_updates" in params:
            allowed = params["allowed_updates"]
            if isinstance(allowed, list) and allowed:
                self._allowed_updates = frozenset(str(item) for item in allowed)
            else:
                self._allowed_updates = None
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]

        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # wakes up (and thereby terminates) any concurrent long poll
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            batch = self._deliverable(limit)
            if batch or self._closing.is_set():
                return batch
            if generation != self._poll_generation:
                raise _ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._update_event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=remaining)

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        allowed = self._allowed_updates
        kept: list[dict[str, Any]] = []
        for update in self._updates:
            kind = _update_type(update)
            if (kind not in _DEFAULT_EXCLUDED_UPDATES) if allowed is None else (kind in allowed):
                kept.append(update)
        self._updates = kept  # updates of unwanted types are never delivered
        return copy.deepcopy(kept[:limit])

    async def _set_webhook(self, params: dict[str, Any], call: SentCall) -> bool:
        url = str(params.get("url") or "")
        if not url:
            self.webhook = None
            return True
        if not url.lower().startswith("https://"):
            raise _bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        self.webhook = {
            key: value for key, value in params.items() if not isinstance(value, UploadedFile)
        }
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _delete_webhook(self, params: dict[str, Any], call: SentCall) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _get_webhook_info(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        info: dict[str, Any] = {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook:
            info["max_connections"] = _as_int(self.webhook.get("max_connections"), 40)
            if isinstance(self.webhook.get("allowed_updates"), list):
                info["allowed_updates"] = self.webhook["allowed_updates"]
        return info

    async def _send_message(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        visible, entities = self._parse_message_text(params)
        markup = _validate_reply_markup(params.get("reply_markup"))
        message = self._create_bot_message(
            chat_id,
            {
                "text": visible,
                "entities": entities or None,
                "reply_markup": _markup_for_message(markup),
            },
        )
        call.message_id = message["message_id"]
        call.visible_text = visible
        return message

    async def _send_photo(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        photo = params.get("photo")
        if photo is None or photo == "":
            raise _bad_request("there is no photo in the request")
        if isinstance(photo, UploadedFile):
            if not photo.data:
                raise _bad_request("IMAGE_PROCESS_FAILED")
            size = photo.size
        elif isinstance(photo, str) and not any(c.isspace() for c in photo):
            size = 50_000
        else:
            raise _bad_request("wrong file identifier/HTTP URL specified")
        caption, entities = self._parse_caption(params)
        markup = _validate_reply_markup(params.get("reply_markup"))
        message = self._create_bot_message(
            chat_id,
            {
                "photo": self._photo_sizes(size),
                "caption": caption,
                "caption_entities": entities or None,
                "reply_markup": _markup_for_message(markup),
            },
        )
        call.message_id = message["message_id"]
        call.visible_text = caption
        return message

    async def _send_chat_action(self, params: dict[str, Any], call: SentCall) -> bool:
        self._require_chat_id(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise _bad_request("wrong parameter action in request")
        return True

    async def _send_message_draft(self, params: dict[str, Any], call: SentCall) -> bool:
        chat_id = self._require_chat_id(params)
        if chat_id <= 0:
            raise _bad_request("chat not found")
        draft_id = _as_int(params.get("draft_id"), 0)
        if draft_id == 0:
            raise _bad_request("draft_id must be non-zero")
        raw = params.get("text")
        visible = ""
        if raw not in (None, ""):
            visible, _ = self._parse_text(str(raw), params.get("parse_mode"), None)
            if len(visible.strip()) > MAX_TEXT_LENGTH:
                raise _bad_request("message is too long")
        self.drafts[(chat_id, draft_id)] = visible
        call.visible_text = visible
        return True

    async def _edit_message_text(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        visible, entities = self._parse_message_text(params)
        markup = _validate_reply_markup(params.get("reply_markup"))
        call.visible_text = visible
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        if "text" not in message:
            raise _bad_request("there is no text in the message to edit")
        content = {
            "text": visible,
            "entities": entities or None,
            "reply_markup": _markup_for_message(markup),
        }
        return self._edit(message, content, call)

    async def _edit_message_reply_markup(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        markup = _validate_reply_markup(params.get("reply_markup"))
        if markup is not None and "inline_keyboard" not in markup:
            raise _bad_request("inline keyboard expected")
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        content = {"reply_markup": markup}
        return self._edit(message, content, call)

    async def _edit_message_caption(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        caption, entities = self._parse_caption(params)
        markup = _validate_reply_markup(params.get("reply_markup"))
        call.visible_text = caption
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        if "text" in message:
            raise _bad_request("there is no caption in the message to edit")
        content = {
            "caption": caption,
            "caption_entities": entities or None,
            "reply_markup": _markup_for_message(markup),
        }
        return self._edit(message, content, call)

    def _message_to_edit(self, params: dict[str, Any]) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        message_id = self._require_message_id(params)
        message = self._find_message(chat_id, message_id, "message to edit not found")
        self._require_editable(message)
        return message

    def _edit(
        self, message: dict[str, Any], content: dict[str, Any], call: SentCall
    ) -> dict[str, Any]:
        self._ensure_modified(message, content)
        self._apply_content(message, content)
        call.message_id = message["message_id"]
        return copy.deepcopy(message)

    def _ensure_modified(self, message: dict[str, Any], content: dict[str, Any]) -> None:
        if self._same_content(message, content):
            raise _bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )

    async def _answer_callback_query(self, params: dict[str, Any], call: SentCall) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if query_id not in self._open_callback_queries:
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(str(text)) > MAX_CALLBACK_ANSWER_LENGTH:
            raise _bad_request("MESSAGE_TOO_LONG")
        self._open_callback_queries.discard(query_id)
        return True

    async def _delete_message(self, params: dict[str, Any], call: SentCall) -> bool:
        chat_id = self._require_chat_id(params)
        message_id = self._require_message_id(params)
        self._find_message(chat_id, message_id, "message to delete not found")
        del self._messages[chat_id][message_id]
        call.message_id = message_id
        return True

    async def _set_my_commands(self, params: dict[str, Any], call: SentCall) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list):
            raise _bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise _bad_request("too many commands")
        for command in commands:
            if not isinstance(command, dict):
                raise _bad_request("can't parse BotCommand")
            name = command.get("command")
            if not isinstance(name, str) or not _BOT_COMMAND_RE.match(name):
                raise _bad_request("BOT_COMMAND_INVALID")
            description = command.get("description")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise _bad_request("command description is invalid")
        self.commands = copy.deepcopy(commands)
        return True

    async def _get_my_commands(
        self, params: dict[str, Any], call: SentCall
    ) -> list[dict[str, Any]]:
        return copy.deepcopy(self.commands)

    async def _delete_my_commands(self, params: dict[str, Any], call: SentCall) -> bool:
        self.commands = []
        return True

    async def _get_chat(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        chat = self._chat(chat_id)
        chat.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        return chat


# --------------------------------------------------------------------------------------------
# Inline mode and guest mode (issue-20)
# --------------------------------------------------------------------------------------------

MAX_INLINE_RESULTS = 50
MAX_INLINE_RESULT_ID_BYTES = 64
MAX_NEXT_OFFSET_BYTES = 64
_START_PARAMETER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_INLINE_RESULT_TYPES = frozenset(
    {
        "article",
        "photo",
        "gif",
        "mpeg4_gif",
        "video",
        "audio",
        "voice",
        "document",
        "location",
        "venue",
        "contact",
        "game",
        "sticker",
    }
)


def _validate_chosen_chat_switch(switch: Any) -> None:
    """SwitchInlineQueryChosenChat: a query of at most 256 characters and some chat allowed."""
    if not isinstance(switch, dict):
        raise _bad_request("can't parse inline keyboard button: SwitchInlineQueryChosenChat")
    query = switch.get("query", "")
    if not isinstance(query, str) or len(query) > 256:
        raise _bad_request("BUTTON_DATA_INVALID")
    kinds = ("allow_user_chats", "allow_bot_chats", "allow_group_chats", "allow_channel_chats")
    if not any(switch.get(kind) is True for kind in kinds):
        raise _bad_request("BUTTON_TYPE_INVALID")


def _inline_server_methods(server: FakeTelegramServer) -> None:
    server._methods["answerinlinequery"] = ("answerInlineQuery", server._answer_inline_query)
    server._methods["answerguestquery"] = ("answerGuestQuery", server._answer_guest_query)


def _validate_inline_result(server: FakeTelegramServer, result: Any) -> dict[str, Any]:
    """An InlineQueryResult as Telegram checks it; returns the message it would send."""
    if not isinstance(result, dict):
        raise _bad_request("can't parse InlineQueryResult JSON object")
    kind = result.get("type")
    if kind not in _INLINE_RESULT_TYPES:
        raise _bad_request("RESULT_TYPE_INVALID")
    result_id = result.get("id")
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode("utf-8")) <= 64:
        raise _bad_request("RESULT_ID_INVALID")
    if kind != "article":
        raise _bad_request("only article results are supported by the fake server")
    title = result.get("title")
    if not isinstance(title, str) or not title.strip():
        raise _bad_request("RESULT_TITLE_EMPTY")
    for key in ("thumbnail_url", "url"):
        if key in result and not (
            isinstance(result[key], str) and _BUTTON_URL_RE.match(result[key])
        ):
            raise _bad_request(f"{key.upper()}_INVALID")
    content = result.get("input_message_content")
    if not isinstance(content, dict) or "message_text" not in content:
        raise _bad_request("SEND_MESSAGE_MEDIA_INVALID")
    raw = content.get("message_text")
    if not isinstance(raw, str) or not raw.strip():
        raise _bad_request("MESSAGE_EMPTY")
    visible, entities = server._parse_text(raw, content.get("parse_mode"), content.get("entities"))
    if not visible.strip():
        raise _bad_request("MESSAGE_EMPTY")
    if len(visible.strip()) > MAX_TEXT_LENGTH:
        raise _bad_request("MESSAGE_TOO_LONG")
    markup = _validate_reply_markup(result.get("reply_markup"))
    return {
        "text": visible,
        "entities": entities or None,
        "reply_markup": _markup_for_message(markup),
    }


def _validate_results_button(button: Any) -> None:
    if button is None:
        return
    if not isinstance(button, dict):
        raise _bad_request("can't parse InlineQueryResultsButton JSON object")
    text = button.get("text")
    if not isinstance(text, str) or not text.strip():
        raise _bad_request("BUTTON_TEXT_INVALID")
    has_start = "start_parameter" in button
    if has_start == ("web_app" in button):
        raise _bad_request("exactly one of start_parameter and web_app must be used")
    if has_start and not _START_PARAMETER_RE.match(str(button["start_parameter"])):
        raise _bad_request("START_PARAM_INVALID")


class _InlineMixin:
    """Methods FakeTelegramServer gains for inline and guest queries (bound below)."""

    def _init_inline(self: FakeTelegramServer) -> None:  # type: ignore[misc]
        self._open_inline_queries: dict[str, int] = {}  # query id -> user id
        self._open_guest_queries: dict[str, int] = {}  # guest query id -> chat id
        #: Every accepted answerInlineQuery, keyed by inline query id (params as decoded).
        self.inline_answers: dict[str, dict[str, Any]] = {}
        #: The message each accepted answerGuestQuery put into its chat, keyed by query id.
        self.guest_answers: dict[str, dict[str, Any]] = {}
        _inline_server_methods(self)

    def inline_query_update(  # type: ignore[misc]
        self: FakeTelegramServer,
        user_id: int,
        query: str,
        *,
        offset: str = "",
        chat_type: str = "sender",
    ) -> dict[str, Any]:
        """Build (not queue) an Update with an inline query typed by ``user_id``."""
        update_id = self._new_update_id()
        query_id = f"{self.bot_user['id']}9{update_id:08d}"
        self._open_inline_queries[query_id] = user_id
        return {
            "update_id": update_id,
            "inline_query": {
                "id": query_id,
                "from": self._user(user_id, "Ivan"),
                "query": query,
                "offset": offset,
                "chat_type": chat_type,
            },
        }

    def chosen_inline_result_update(  # type: ignore[misc]
        self: FakeTelegramServer, user_id: int, result_id: str, query: str
    ) -> dict[str, Any]:
        return {
            "update_id": self._new_update_id(),
            "chosen_inline_result": {
                "result_id": result_id,
                "from": self._user(user_id, "Ivan"),
                "query": query,
            },
        }

    def send_inline_result(  # type: ignore[misc]
        self: FakeTelegramServer, chat_id: int, query_id: str, result_id: str
    ) -> dict[str, Any]:
        """What Telegram does when the person taps a result: the message appears in the
        chat "via @bot". Raises KeyError when the query was not answered with that result."""
        answer = self.inline_answers[query_id]
        result = next(r for r in answer["results"] if r["id"] == result_id)
        content = _validate_inline_result(self, result)
        message = self._create_bot_message(chat_id, content)
        message["via_bot"] = self._bot_from()
        self._messages[chat_id][message["message_id"]]["via_bot"] = self._bot_from()
        return message

    def guest_message_update(  # type: ignore[misc]
        self: FakeTelegramServer,
        chat_id: int,
        text: str,
        *,
        user_id: int,
        reply_to: dict[str, Any] | None = None,
        first_name: str = "Ivan",
    ) -> dict[str, Any]:
        """Build (not queue) a guest_message: someone in ``chat_id`` (where the bot is not a
        member) mentions the bot; ``reply_to`` is the message it replies to, if any."""
        message = self._incoming_message(chat_id, user_id, "group", first_name)
        update_id = self._new_update_id()
        query_id = f"g{self.bot_user['id']}{update_id:08d}"
        message["text"] = text
        message["guest_query_id"] = query_id
        mention = f"@{self.bot_user['username']}"
        at = text.find(mention)
        if at >= 0:
            message["entities"] = [
                {
                    "type": "mention",
                    "offset": _utf16_len(text[:at]),
                    "length": _utf16_len(mention),
                }
            ]
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        self._open_guest_queries[query_id] = chat_id
        return {"update_id": update_id, "guest_message": message}

    async def _answer_inline_query(  # type: ignore[misc]
        self: FakeTelegramServer, params: dict[str, Any], call: SentCall
    ) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        if query_id not in self._open_inline_queries:
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if not isinstance(results, list):
            raise _bad_request("can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise _bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            _validate_inline_result(self, result)
            if result["id"] in seen:
                raise _bad_request("RESULT_ID_DUPLICATE")
            seen.add(result["id"])
        next_offset = params.get("next_offset")
        if next_offset is not None and len(str(next_offset).encode("utf-8")) > 64:
            raise _bad_request("NEXT_OFFSET_INVALID")
        cache_time = params.get("cache_time")
        if cache_time is not None and (not isinstance(cache_time, int) or cache_time < 0):
            raise _bad_request("CACHE_TIME_INVALID")
        _validate_results_button(params.get("button"))
        del self._open_inline_queries[query_id]
        self.inline_answers[query_id] = params
        return True

    async def _answer_guest_query(  # type: ignore[misc]
        self: FakeTelegramServer, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any]:
        query_id = str(params.get("guest_query_id") or "")
        if query_id not in self._open_guest_queries:
            raise _bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        content = _validate_inline_result(self, params.get("result"))
        chat_id = self._open_guest_queries.pop(query_id)
        message = self._create_bot_message(chat_id, content)
        self.guest_answers[query_id] = message
        call.visible_text = content["text"]
        return {"inline_message_id": f"im{message['message_id']}"}


for _name, _member in vars(_InlineMixin).items():
    if callable(_member) and not _name.startswith("__"):
        setattr(FakeTelegramServer, _name, _member)
