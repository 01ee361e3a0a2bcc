"""The fake Bot API is as strict as Telegram about inline and guest answers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import AnswerGuestQuery
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    SwitchInlineQueryChosenChat,
)

from fakes.telegram_server import FakeTelegramServer
from tests.test_fake_telegram_server import make_bot

USER = 31337
GROUP = -4242


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as fake:
        yield fake


@pytest.fixture
async def bot(telegram: FakeTelegramServer) -> AsyncIterator[Bot]:
    b = make_bot(telegram)
    yield b
    await b.session.close()


def article(result_id: str, text: str = "<b>Вино</b>") -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id, title="Вино", input_message_content=InputTextMessageContent(message_text=text)
    )


def open_query(telegram: FakeTelegramServer) -> str:
    return str(telegram.inline_query_update(USER, "красное")["inline_query"]["id"])


@pytest.mark.parametrize(
    ("results", "error"),
    [
        ([article(str(i)) for i in range(51)], "RESULTS_TOO_MUCH"),
        ([article("a"), article("a")], "RESULT_ID_DUPLICATE"),
        ([article("x" * 65)], "RESULT_ID_INVALID"),
        ([article("a", "x" * 4097)], "MESSAGE_TOO_LONG"),
        ([article("a", "<b>не закрыт")], "can't parse entities"),
    ],
)
async def test_answer_inline_query_limits(
    telegram: FakeTelegramServer, bot: Bot, results: list[InlineQueryResultArticle], error: str
) -> None:
    query_id = open_query(telegram)
    with pytest.raises(TelegramBadRequest, match=error):
        await bot.answer_inline_query(query_id, results)  # type: ignore[arg-type]
    assert query_id not in telegram.inline_answers


async def test_a_query_is_answered_once_and_buttons_are_checked(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    query_id = open_query(telegram)
    with pytest.raises(TelegramBadRequest, match="START_PARAM_INVALID"):
        await bot.answer_inline_query(
            query_id, [], button=InlineQueryResultsButton(text="Открыть", start_parameter="a b")
        )
    assert await bot.answer_inline_query(query_id, [article("a")], next_offset="10")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query(query_id, [article("b")])
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query("unknown", [])
    sent = telegram.send_inline_result(GROUP, query_id, "a")
    assert sent["text"] == "Вино" and sent["via_bot"]["is_bot"]


async def test_chosen_chat_switch_needs_an_allowed_chat(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    def markup(**allowed: bool) -> InlineKeyboardMarkup:
        switch = SwitchInlineQueryChosenChat(query="wine:1", **allowed)
        button = InlineKeyboardButton(text="Поделиться", switch_inline_query_chosen_chat=switch)
        return InlineKeyboardMarkup(inline_keyboard=[[button]])

    with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
        await bot.send_message(USER, "x", reply_markup=markup())
    assert await bot.send_message(USER, "x", reply_markup=markup(allow_user_chats=True))


async def test_a_guest_query_is_answered_once(telegram: FakeTelegramServer, bot: Bot) -> None:
    update = telegram.guest_message_update(GROUP, "@sommelier_test_bot красное", user_id=USER)
    message = update["guest_message"]
    assert message["entities"][0]["type"] == "mention"
    query_id = message["guest_query_id"]
    sent = await bot(AnswerGuestQuery(guest_query_id=query_id, result=article("g")))
    assert sent.inline_message_id
    assert telegram.guest_answers[query_id]["text"] == "Вино"
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot(AnswerGuestQuery(guest_query_id=query_id, result=article("g")))
