"""What the fake Telegram remembers (chats, messages, updates, ids) and the helpers every
part of the server shares: building users, chats and messages, parsing a text as Telegram
would, finding and editing a message."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from fakes.telegram.html import HtmlParseError, parse_telegram_html
from fakes.telegram.validation import MAX_CAPTION_LENGTH, MAX_TEXT_LENGTH
from fakes.telegram.wire import SentCall, as_chat_id, as_int, bad_request

MethodHandler = Callable[[dict[str, Any], SentCall], Awaitable[Any]]


class TelegramState:
    """The state of a FakeTelegramServer (set up in its ``__init__``) and the helpers on it."""

    strict_ampersand: bool
    token: str
    bot_user: dict[str, Any]
    calls: list[SentCall]
    rejected: list[SentCall]
    webhook: dict[str, Any] | None
    commands: list[dict[str, Any]]
    drafts: dict[tuple[int, int], str]
    base_url: str
    _closing: asyncio.Event
    _update_event: asyncio.Event
    _updates: list[dict[str, Any]]
    _allowed_updates: frozenset[str] | None
    _poll_generation: int
    _next_update_id: int
    _next_message_id: int
    _next_file_id: int
    _messages: dict[int, dict[int, dict[str, Any]]]
    _chats: dict[int, dict[str, Any]]
    _open_callback_queries: set[str]
    _methods: dict[str, tuple[str, MethodHandler]]
    _runner: web.AppRunner | None

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
        chat_id = as_chat_id(params.get("chat_id"))
        if chat_id is None:
            raise bad_request("chat_id is empty")
        if not isinstance(chat_id, int) or chat_id == 0:
            raise bad_request("chat not found")
        return chat_id

    @staticmethod
    def _require_message_id(params: dict[str, Any]) -> int:
        message_id = as_int(params.get("message_id"), 0)
        if message_id <= 0:
            raise bad_request("message identifier is not specified")
        return message_id

    def _parse_text(
        self, text: str, parse_mode: Any, entities: Any
    ) -> tuple[str, list[dict[str, Any]]]:
        mode = str(parse_mode).lower() if parse_mode else ""
        if mode == "html":
            try:
                return parse_telegram_html(text, strict_ampersand=self.strict_ampersand)
            except HtmlParseError as exc:
                raise bad_request(f"can't parse entities: {exc.reason}") from exc
        if mode in ("", "markdown", "markdownv2"):
            # Markdown is not parsed by the fake: the raw text counts as visible text.
            given = entities if isinstance(entities, list) and not mode else []
            return text, given
        raise bad_request("unsupported parse_mode")

    def _parse_message_text(self, params: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        raw = params.get("text")
        if raw is None or raw == "":
            raise bad_request("message text is empty")
        visible, entities = self._parse_text(
            str(raw), params.get("parse_mode"), params.get("entities")
        )
        if not visible.strip():
            raise bad_request("message text is empty")
        if len(visible.strip()) > MAX_TEXT_LENGTH:
            raise bad_request("message is too long")
        return visible, entities

    def _parse_caption(self, params: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
        raw = params.get("caption")
        if raw is None or raw == "":
            return None, []
        visible, entities = self._parse_text(
            str(raw), params.get("parse_mode"), params.get("caption_entities")
        )
        if len(visible.strip()) > MAX_CAPTION_LENGTH:
            raise bad_request("message caption is too long")
        return visible, entities

    def _find_message(self, chat_id: int, message_id: int, missing: str) -> dict[str, Any]:
        message = self._messages.get(chat_id, {}).get(message_id)
        if message is None:
            raise bad_request(missing)
        return message

    def _require_editable(self, message: dict[str, Any]) -> None:
        if message.get("from", {}).get("id") != self.bot_user["id"]:
            raise bad_request("message can't be edited")

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
