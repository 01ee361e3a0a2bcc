"""Files and media users send: documents (getFile and the download, issue-13), photos in
Telegram's sizes, voice messages and video notes (issue-17)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from fakes.telegram.html import utf16_len
from fakes.telegram.state import TelegramState
from fakes.telegram.wire import SentCall, bad_request

#: The longest side of the sizes Telegram makes of a photo (plus the original, when larger).
PHOTO_SIDES = (90, 320, 800, 1280, 2560)
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024  # the Bot API's getFile limit (issue-13)


class MediaMixin(TelegramState):
    """Files of FakeTelegramServer: the updates that carry them, getFile, the download."""

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
                    {"type": "bot_command", "offset": 0, "length": utf16_len(command)}
                ]
        return {"update_id": self._new_update_id(), "message": message}

    async def _get_file(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        file_id = params.get("file_id")
        if not isinstance(file_id, str) or not file_id:
            raise bad_request("file_id is empty")
        stored = self._files.get(file_id)
        if stored is None:
            raise bad_request("invalid file_id")
        path, content = stored
        if len(content) > MAX_DOWNLOAD_BYTES:
            raise bad_request("file is too big")
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
