"""Updates: queueing them for getUpdates (or accepting them for a webhook), the builders tests
use (a text message, a callback press, a sticker ...), and getUpdates/setWebhook themselves."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from typing import Any

from fakes.telegram.html import utf16_len
from fakes.telegram.state import TelegramState
from fakes.telegram.wire import ApiError, SentCall, UploadedFile, as_int, bad_request

#: Update types delivered when ``allowed_updates`` was never given (or given as ``[]``).
_DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
_NON_TEXT_KINDS = ("photo", "sticker", "voice", "location", "document")


def _update_type(update: dict[str, Any]) -> str | None:
    return next((key for key in update if key != "update_id"), None)


class UpdatesMixin(TelegramState):
    """Updates of FakeTelegramServer: what tests push and build, what the bot fetches."""

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
                {"type": "bot_command", "offset": 0, "length": utf16_len(command)}
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

    # ---------------------------------------------------------------- getUpdates and webhooks

    async def _get_updates(self, params: dict[str, Any], call: SentCall) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
            )
        offset = as_int(params.get("offset"), 0)
        limit = min(max(as_int(params.get("limit"), 100), 1), 100)
        timeout = max(as_int(params.get("timeout"), 0), 0)
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
                raise ApiError(
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
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
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
            info["max_connections"] = as_int(self.webhook.get("max_connections"), 40)
            if isinstance(self.webhook.get("allowed_updates"), list):
                info["allowed_updates"] = self.webhook["allowed_updates"]
        return info
