"""Inline mode and guest mode (issue-20): inline query and guest message updates, the
validation of InlineQueryResults, answerInlineQuery and answerGuestQuery."""

from __future__ import annotations

import re
from typing import Any

from fakes.telegram.html import utf16_len
from fakes.telegram.state import TelegramState
from fakes.telegram.validation import (
    BUTTON_URL_RE,
    MAX_TEXT_LENGTH,
    markup_for_message,
    validate_reply_markup,
)
from fakes.telegram.wire import SentCall, bad_request

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


def _validate_inline_result(server: TelegramState, result: Any) -> dict[str, Any]:
    """An InlineQueryResult as Telegram checks it; returns the message it would send."""
    if not isinstance(result, dict):
        raise bad_request("can't parse InlineQueryResult JSON object")
    kind = result.get("type")
    if kind not in _INLINE_RESULT_TYPES:
        raise bad_request("RESULT_TYPE_INVALID")
    result_id = result.get("id")
    if not isinstance(result_id, str) or not 1 <= len(result_id.encode("utf-8")) <= 64:
        raise bad_request("RESULT_ID_INVALID")
    if kind != "article":
        raise bad_request("only article results are supported by the fake server")
    title = result.get("title")
    if not isinstance(title, str) or not title.strip():
        raise bad_request("RESULT_TITLE_EMPTY")
    for key in ("thumbnail_url", "url"):
        if key in result and not (
            isinstance(result[key], str) and BUTTON_URL_RE.match(result[key])
        ):
            raise bad_request(f"{key.upper()}_INVALID")
    content = result.get("input_message_content")
    if not isinstance(content, dict) or "message_text" not in content:
        raise bad_request("SEND_MESSAGE_MEDIA_INVALID")
    raw = content.get("message_text")
    if not isinstance(raw, str) or not raw.strip():
        raise bad_request("MESSAGE_EMPTY")
    visible, entities = server._parse_text(raw, content.get("parse_mode"), content.get("entities"))
    if not visible.strip():
        raise bad_request("MESSAGE_EMPTY")
    if len(visible.strip()) > MAX_TEXT_LENGTH:
        raise bad_request("MESSAGE_TOO_LONG")
    markup = validate_reply_markup(result.get("reply_markup"))
    return {
        "text": visible,
        "entities": entities or None,
        "reply_markup": markup_for_message(markup),
    }


def _validate_results_button(button: Any) -> None:
    if button is None:
        return
    if not isinstance(button, dict):
        raise bad_request("can't parse InlineQueryResultsButton JSON object")
    text = button.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request("BUTTON_TEXT_INVALID")
    has_start = "start_parameter" in button
    if has_start == ("web_app" in button):
        raise bad_request("exactly one of start_parameter and web_app must be used")
    if has_start and not _START_PARAMETER_RE.match(str(button["start_parameter"])):
        raise bad_request("START_PARAM_INVALID")


class InlineMixin(TelegramState):
    """Methods FakeTelegramServer gains for inline and guest queries."""

    def _init_inline(self) -> None:
        self._open_inline_queries: dict[str, int] = {}  # query id -> user id
        self._open_guest_queries: dict[str, int] = {}  # guest query id -> chat id
        #: Every accepted answerInlineQuery, keyed by inline query id (params as decoded).
        self.inline_answers: dict[str, dict[str, Any]] = {}
        #: The message each accepted answerGuestQuery put into its chat, keyed by query id.
        self.guest_answers: dict[str, dict[str, Any]] = {}
        self._methods["answerinlinequery"] = ("answerInlineQuery", self._answer_inline_query)
        self._methods["answerguestquery"] = ("answerGuestQuery", self._answer_guest_query)

    def inline_query_update(
        self,
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

    def chosen_inline_result_update(
        self, user_id: int, result_id: str, query: str
    ) -> dict[str, Any]:
        return {
            "update_id": self._new_update_id(),
            "chosen_inline_result": {
                "result_id": result_id,
                "from": self._user(user_id, "Ivan"),
                "query": query,
            },
        }

    def send_inline_result(self, chat_id: int, query_id: str, result_id: str) -> dict[str, Any]:
        """What Telegram does when the person taps a result: the message appears in the
        chat "via @bot". Raises KeyError when the query was not answered with that result."""
        answer = self.inline_answers[query_id]
        result = next(r for r in answer["results"] if r["id"] == result_id)
        content = _validate_inline_result(self, result)
        message = self._create_bot_message(chat_id, content)
        message["via_bot"] = self._bot_from()
        self._messages[chat_id][message["message_id"]]["via_bot"] = self._bot_from()
        return message

    def guest_message_update(
        self,
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
                    "offset": utf16_len(text[:at]),
                    "length": utf16_len(mention),
                }
            ]
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        self._open_guest_queries[query_id] = chat_id
        return {"update_id": update_id, "guest_message": message}

    async def _answer_inline_query(self, params: dict[str, Any], call: SentCall) -> bool:
        query_id = str(params.get("inline_query_id") or "")
        if query_id not in self._open_inline_queries:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if not isinstance(results, list):
            raise bad_request("can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise bad_request("RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            _validate_inline_result(self, result)
            if result["id"] in seen:
                raise bad_request("RESULT_ID_DUPLICATE")
            seen.add(result["id"])
        next_offset = params.get("next_offset")
        if next_offset is not None and len(str(next_offset).encode("utf-8")) > 64:
            raise bad_request("NEXT_OFFSET_INVALID")
        cache_time = params.get("cache_time")
        if cache_time is not None and (not isinstance(cache_time, int) or cache_time < 0):
            raise bad_request("CACHE_TIME_INVALID")
        _validate_results_button(params.get("button"))
        del self._open_inline_queries[query_id]
        self.inline_answers[query_id] = params
        return True

    async def _answer_guest_query(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        query_id = str(params.get("guest_query_id") or "")
        if query_id not in self._open_guest_queries:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        content = _validate_inline_result(self, params.get("result"))
        chat_id = self._open_guest_queries.pop(query_id)
        message = self._create_bot_message(chat_id, content)
        self.guest_answers[query_id] = message
        call.visible_text = content["text"]
        return {"inline_message_id": f"im{message['message_id']}"}
