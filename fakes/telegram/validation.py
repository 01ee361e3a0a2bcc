"""What Telegram checks of what a bot sends: the limits, chat actions, reply markup and inline
keyboard buttons (inline query results: inline.py)."""

from __future__ import annotations

import re
from typing import Any

from fakes.telegram.wire import bad_request

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
BUTTON_URL_RE = re.compile(r"^(?:https?|tg)://\S+$", re.IGNORECASE)


def markup_for_message(markup: dict[str, Any] | None) -> dict[str, Any] | None:
    """Only inline keyboards are part of a Message object."""
    if markup and "inline_keyboard" in markup:
        return markup
    return None


def validate_reply_markup(markup: Any) -> dict[str, Any] | None:
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
        raise bad_request("reply markup is too long")
    for row in rows:
        for button in row:
            _validate_inline_button(button)
    return markup


def _validate_inline_button(button: Any) -> None:
    prefix = "can't parse inline keyboard button: "
    if not isinstance(button, dict):
        raise bad_request(prefix + "InlineKeyboardButton must be an Object")
    text = button.get("text")
    if not isinstance(text, str):
        raise bad_request(prefix + 'Field "text" must be of type String')
    if not text.strip():
        raise bad_request(prefix + 'Field "text" must be non-empty')
    actions = [key for key in _INLINE_BUTTON_ACTIONS if key in button]
    if not actions:
        raise bad_request(prefix + "Text buttons are unallowed in the inline keyboard")
    if len(actions) > 1:
        raise bad_request(prefix + "exactly one of the optional fields must be used")
    if "callback_data" in button:
        data = button["callback_data"]
        if not isinstance(data, str) or not 1 <= len(data.encode("utf-8")) <= 64:
            raise bad_request("BUTTON_DATA_INVALID")
    if "url" in button:
        url = button["url"]
        if not isinstance(url, str) or not BUTTON_URL_RE.match(url):
            raise bad_request("BUTTON_URL_INVALID")
    if "switch_inline_query_chosen_chat" in button:
        _validate_chosen_chat_switch(button["switch_inline_query_chosen_chat"])


def _validate_chosen_chat_switch(switch: Any) -> None:
    """SwitchInlineQueryChosenChat: a query of at most 256 characters and some chat allowed."""
    if not isinstance(switch, dict):
        raise bad_request("can't parse inline keyboard button: SwitchInlineQueryChosenChat")
    query = switch.get("query", "")
    if not isinstance(query, str) or len(query) > 256:
        raise bad_request("BUTTON_DATA_INVALID")
    kinds = ("allow_user_chats", "allow_bot_chats", "allow_group_chats", "allow_channel_chats")
    if not any(switch.get(kind) is True for kind in kinds):
        raise bad_request("BUTTON_TYPE_INVALID")
