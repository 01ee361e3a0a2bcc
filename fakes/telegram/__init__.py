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

Where each concern lives: ``html.py`` (the HTML parser), ``wire.py`` (call records, errors,
parameter decoding), ``validation.py`` (limits, markup and keyboard buttons), ``state.py``
(chats, messages, ids and the helpers on them), ``updates.py`` (queueing and building updates,
getUpdates, webhooks), ``messages.py`` (send/edit/delete and the other chat methods),
``media.py`` (files, photos, voice, video notes), ``inline.py`` (inline and guest queries),
``server.py`` (FakeTelegramServer: HTTP plumbing, lifecycle, inspection, fault injection).
"""

from fakes.telegram.html import HtmlParseError, parse_telegram_html
from fakes.telegram.server import FakeTelegramServer
from fakes.telegram.validation import CHAT_ACTIONS
from fakes.telegram.wire import SentCall, UploadedFile

__all__ = [
    "CHAT_ACTIONS",
    "FakeTelegramServer",
    "HtmlParseError",
    "SentCall",
    "UploadedFile",
    "parse_telegram_html",
]
