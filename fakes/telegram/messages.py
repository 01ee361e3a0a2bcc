"""The Bot API methods a bot sends to chats: sendMessage, sendPhoto, chat actions, drafts,
edits, callback answers, deletions, commands, getMe and getChat."""

from __future__ import annotations

import copy
import re
from typing import Any

from fakes.telegram.state import TelegramState
from fakes.telegram.validation import (
    CHAT_ACTIONS,
    MAX_CALLBACK_ANSWER_LENGTH,
    MAX_TEXT_LENGTH,
    markup_for_message,
    validate_reply_markup,
)
from fakes.telegram.wire import SentCall, UploadedFile, as_int, bad_request

#: Methods whose successful call creates a new message (``SentCall.message_id`` is set).
MESSAGE_CREATING_METHODS: frozenset[str] = frozenset({"sendMessage", "sendPhoto"})
_BOT_COMMAND_RE = re.compile(r"^[a-z0-9_]{1,32}$")


class MessagesMixin(TelegramState):
    """The chat methods of FakeTelegramServer (registered in its ``__init__``)."""

    async def _return_true(self, params: dict[str, Any], call: SentCall) -> bool:
        return True

    async def _get_me(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        return dict(self.bot_user)

    async def _send_message(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        visible, entities = self._parse_message_text(params)
        markup = validate_reply_markup(params.get("reply_markup"))
        message = self._create_bot_message(
            chat_id,
            {
                "text": visible,
                "entities": entities or None,
                "reply_markup": markup_for_message(markup),
            },
        )
        call.message_id = message["message_id"]
        call.visible_text = visible
        return message

    async def _send_photo(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        chat_id = self._require_chat_id(params)
        photo = params.get("photo")
        if photo is None or photo == "":
            raise bad_request("there is no photo in the request")
        if isinstance(photo, UploadedFile):
            if not photo.data:
                raise bad_request("IMAGE_PROCESS_FAILED")
            size = photo.size
        elif isinstance(photo, str) and not any(c.isspace() for c in photo):
            size = 50_000
        else:
            raise bad_request("wrong file identifier/HTTP URL specified")
        caption, entities = self._parse_caption(params)
        markup = validate_reply_markup(params.get("reply_markup"))
        message = self._create_bot_message(
            chat_id,
            {
                "photo": self._photo_sizes(size),
                "caption": caption,
                "caption_entities": entities or None,
                "reply_markup": markup_for_message(markup),
            },
        )
        call.message_id = message["message_id"]
        call.visible_text = caption
        return message

    async def _send_chat_action(self, params: dict[str, Any], call: SentCall) -> bool:
        self._require_chat_id(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    async def _send_message_draft(self, params: dict[str, Any], call: SentCall) -> bool:
        chat_id = self._require_chat_id(params)
        if chat_id <= 0:
            raise bad_request("chat not found")
        draft_id = as_int(params.get("draft_id"), 0)
        if draft_id == 0:
            raise bad_request("draft_id must be non-zero")
        raw = params.get("text")
        visible = ""
        if raw not in (None, ""):
            visible, _ = self._parse_text(str(raw), params.get("parse_mode"), None)
            if len(visible.strip()) > MAX_TEXT_LENGTH:
                raise bad_request("message is too long")
        self.drafts[(chat_id, draft_id)] = visible
        call.visible_text = visible
        return True

    async def _edit_message_text(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        visible, entities = self._parse_message_text(params)
        markup = validate_reply_markup(params.get("reply_markup"))
        call.visible_text = visible
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        if "text" not in message:
            raise bad_request("there is no text in the message to edit")
        content = {
            "text": visible,
            "entities": entities or None,
            "reply_markup": markup_for_message(markup),
        }
        return self._edit(message, content, call)

    async def _edit_message_reply_markup(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        markup = validate_reply_markup(params.get("reply_markup"))
        if markup is not None and "inline_keyboard" not in markup:
            raise bad_request("inline keyboard expected")
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        content = {"reply_markup": markup}
        return self._edit(message, content, call)

    async def _edit_message_caption(
        self, params: dict[str, Any], call: SentCall
    ) -> dict[str, Any] | bool:
        caption, entities = self._parse_caption(params)
        markup = validate_reply_markup(params.get("reply_markup"))
        call.visible_text = caption
        if params.get("inline_message_id"):
            return True
        message = self._message_to_edit(params)
        if "text" in message:
            raise bad_request("there is no caption in the message to edit")
        content = {
            "caption": caption,
            "caption_entities": entities or None,
            "reply_markup": markup_for_message(markup),
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
            raise bad_request(
                "message is not modified: specified new message content and reply markup are "
                "exactly the same as a current content and reply markup of the message"
            )

    async def _answer_callback_query(self, params: dict[str, Any], call: SentCall) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        if query_id not in self._open_callback_queries:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(str(text)) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
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
            raise bad_request("can't parse commands JSON object")
        if len(commands) > 100:
            raise bad_request("too many commands")
        for command in commands:
            if not isinstance(command, dict):
                raise bad_request("can't parse BotCommand")
            name = command.get("command")
            if not isinstance(name, str) or not _BOT_COMMAND_RE.match(name):
                raise bad_request("BOT_COMMAND_INVALID")
            description = command.get("description")
            if not isinstance(description, str) or not 1 <= len(description.strip()) <= 256:
                raise bad_request("command description is invalid")
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
