"""Bot API requests as one JSON body, read back without aiogram's typed `Response` where the
reply is only `true` or a message id: the same request and the same result as aiogram's own
form and reading, for every shape of call the bot makes."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.enums import ParseMode
from aiogram.methods import (
    AnswerCallbackQuery,
    AnswerInlineQuery,
    EditMessageText,
    GetUpdates,
    SendChatAction,
    SendMessage,
    SendMessageDraft,
    SendPhoto,
    SetMyCommands,
    TelegramMethod,
)
from aiogram.types import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    ReplyParameters,
)

from bot.delivery import SendAnswerPart, SendCardPart
from bot.keyboards import wine_card_json
from bot.telegram_session import JsonBodySession, _plain_result

KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[
        [
            InlineKeyboardButton(text="a", callback_data="x"),
            InlineKeyboardButton(text="b", url="https://example.com"),
        ]
    ]
)


def _calls() -> list[TelegramMethod[Any]]:
    marked = SendAnswerPart(chat_id=5, text="marked")
    marked.bench_update_id = 9  # type: ignore[attr-defined]  # an extra field goes out too
    return [
        SendAnswerPart(chat_id=5, text="<b>intro</b>"),
        SendAnswerPart(chat_id=5, text="closing", reply_markup=KEYBOARD),
        SendMessage(chat_id=5, text="plain", parse_mode=None),
        SendMessage(chat_id=-7, text="x", reply_parameters=ReplyParameters(message_id=3)),
        SendMessageDraft(chat_id=5, draft_id=7, text="draft", parse_mode=None),
        SendChatAction(chat_id=5, action="typing"),
        EditMessageText(chat_id=5, message_id=3, text="edited", reply_markup=KEYBOARD),
        AnswerCallbackQuery(callback_query_id="q", text="toast", show_alert=False),
        SetMyCommands(commands=[BotCommand(command="start", description="Start")]),
        GetUpdates(offset=3, timeout=30, allowed_updates=["message"]),
        SendPhoto(chat_id=5, photo="https://example.com/a.jpg", caption="c", reply_markup=KEYBOARD),
        AnswerInlineQuery(
            inline_query_id="i",
            results=[
                InlineQueryResultArticle(
                    id="1",
                    title="t",
                    input_message_content=InputTextMessageContent(message_text="m"),
                )
            ],
            cache_time=5,
        ),
        marked,
    ]


@pytest.fixture
def bot() -> Bot:
    default = DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True)
    return Bot("1:token", session=JsonBodySession(), default=default)


@pytest.mark.parametrize("call", _calls(), ids=lambda c: type(c).__name__)
def test_the_json_body_says_what_aiograms_form_says(bot: Bot, call: TelegramMethod[Any]) -> None:
    session = bot.session
    assert isinstance(session, JsonBodySession)
    body = session.json_body(bot, call)
    assert body is not None
    form = session.build_form_data(bot, call)
    fields = {options["name"]: value for options, _, value in form._fields}
    as_form = {
        key: value if isinstance(value, str) else json.dumps(value)
        for key, value in json.loads(body).items()
    }
    assert {k: _decoded(v) for k, v in as_form.items()} == {
        k: _decoded(v) for k, v in fields.items() if v != ""
    }


def test_a_card_s_keyboard_goes_as_the_bot_api_s_json(bot: Bot) -> None:
    keyboard = wine_card_json(uuid.uuid4(), url="https://shop.example/wine")
    body = bot.session.json_body(bot, SendCardPart(chat_id=5, text="card", reply_markup=keyboard))  # type: ignore[attr-defined]
    assert body is not None and json.loads(body)["reply_markup"] == keyboard


def _decoded(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


@pytest.mark.parametrize(
    ("call", "raw"),
    [
        (SendChatAction(chat_id=5, action="typing"), '{"ok":true,"result":true}'),
        (SendMessageDraft(chat_id=5, draft_id=1, text="d"), '{"ok":true,"result":true}'),
        (
            SendAnswerPart(chat_id=5, text="t"),
            '{"ok":true,"result":{"message_id":42,"date":1,"chat":{"id":5,"type":"private"},'
            '"text":"t"}}',
        ),
    ],
    ids=["chat action", "draft", "answer part"],
)
def test_a_plain_reply_reads_as_aiogram_reads_it(
    bot: Bot, call: TelegramMethod[Any], raw: str
) -> None:
    quick = _plain_result(call, raw)
    assert quick is not None
    aiograms = bot.session.check_response(bot, call, 200, raw).result
    # the id is what anything reads of a part sent (aiogram keeps Telegram's echo besides)
    assert getattr(quick[0], "message_id", quick[0]) == getattr(aiograms, "message_id", aiograms)


@pytest.mark.parametrize(
    ("call", "raw"),
    [
        (
            SendChatAction(chat_id=5, action="typing"),
            '{"ok":false,"error_code":400,"description":"x"}',
        ),
        (SendAnswerPart(chat_id=5, text="t"), '{"ok":true,"result":{"date":1}}'),
        (GetUpdates(), '{"ok":true,"result":[]}'),
        (SendMessage(chat_id=5, text="t"), '{"ok":true,"result":{"message_id":1}}'),
        (SendChatAction(chat_id=5, action="typing"), "not json"),
    ],
    ids=["refused", "no message id", "updates", "a whole message", "not json"],
)
def test_anything_else_is_left_to_aiogram(call: TelegramMethod[Any], raw: str) -> None:
    assert _plain_result(call, raw) is None
