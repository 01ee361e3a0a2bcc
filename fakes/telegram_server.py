"""The fake Telegram Bot API server (see fakes/telegram/): this module keeps the import path
``fakes.telegram_server`` that tests, the bench and scripts/fake_telegram.py use, re-exporting
every public name of the package."""

from __future__ import annotations

from fakes.telegram import (
    CHAT_ACTIONS,
    FakeTelegramServer,
    HtmlParseError,
    SentCall,
    UploadedFile,
    parse_telegram_html,
)
from fakes.telegram.inline import MAX_INLINE_RESULT_ID_BYTES as MAX_INLINE_RESULT_ID_BYTES
from fakes.telegram.inline import MAX_INLINE_RESULTS as MAX_INLINE_RESULTS
from fakes.telegram.inline import MAX_NEXT_OFFSET_BYTES as MAX_NEXT_OFFSET_BYTES
from fakes.telegram.media import MAX_DOWNLOAD_BYTES as MAX_DOWNLOAD_BYTES
from fakes.telegram.media import PHOTO_SIDES as PHOTO_SIDES
from fakes.telegram.messages import MESSAGE_CREATING_METHODS as MESSAGE_CREATING_METHODS
from fakes.telegram.validation import MAX_CALLBACK_ANSWER_LENGTH as MAX_CALLBACK_ANSWER_LENGTH
from fakes.telegram.validation import MAX_CALLBACK_DATA_BYTES as MAX_CALLBACK_DATA_BYTES
from fakes.telegram.validation import MAX_CAPTION_LENGTH as MAX_CAPTION_LENGTH
from fakes.telegram.validation import MAX_INLINE_BUTTONS as MAX_INLINE_BUTTONS
from fakes.telegram.validation import MAX_TEXT_LENGTH as MAX_TEXT_LENGTH

__all__ = [
    "CHAT_ACTIONS",
    "FakeTelegramServer",
    "HtmlParseError",
    "SentCall",
    "UploadedFile",
    "parse_telegram_html",
]
