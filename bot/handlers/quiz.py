"""The taste quiz: one-tap questions in ONE message edited in place, «Пропустить» on each.

Offered after the 18+ gate and on /quiz. Each tap is stored at once (a quiz left halfway
still counts); the last step thanks the person and shows picks that follow the answers.
"""

from __future__ import annotations

import contextlib

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.callbacks import QuizCallback
from bot.coordination import Delivery
from bot.telegram_html import escape
from bot.welcome import send_welcome
from services.app.picks.welcome import WelcomePicks
from services.app.taste.quiz import Quiz
from services.app.texts import T

QUESTIONS: tuple[str, ...] = ("colour", "sweetness", "body", "structure", "budget", "foods")
SKIP = "skip"
STOP = "stop"


def question_text(step: int) -> str:
    title = T.quiz_title.format(number=step + 1, total=len(QUESTIONS))
    return f"{title}\n\n{escape(T.quiz_questions[QUESTIONS[step]])}"


def question_keyboard(step: int) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    options = T.quiz_options[QUESTIONS[step]]
    for value, label in options:
        kb.button(text=label, callback_data=QuizCallback(step=step, value=value))
    kb.button(text=T.quiz_skip, callback_data=QuizCallback(step=step, value=SKIP))
    kb.button(text=T.quiz_stop, callback_data=QuizCallback(step=step, value=STOP))
    kb.adjust(*([2] * ((len(options) + 1) // 2)), 2)
    return kb.as_markup()


async def send_quiz(bot: Bot, chat_id: int) -> None:
    await bot.send_message(chat_id, question_text(0), reply_markup=question_keyboard(0))


async def quiz_command(message: Message, bot: Bot) -> None:
    await send_quiz(bot, message.chat.id)


async def quiz_tap(
    query: CallbackQuery,
    callback_data: QuizCallback,
    quiz: Quiz,
    welcome: WelcomePicks,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    step, value = callback_data.step, callback_data.value
    message = query.message
    if not 0 <= step < len(QUESTIONS) or message is None:
        await query.answer(T.quiz_old)
        return
    user_id = query.from_user.id
    if value not in (SKIP, STOP):
        try:
            await quiz.answer(user_id, QUESTIONS[step], value)
        except ValueError:  # a forged or outdated button
            await query.answer(T.quiz_old)
            return
    await query.answer(T.quiz_saved if value not in (SKIP, STOP) else None)
    finished = value == STOP or step + 1 == len(QUESTIONS)
    if finished:
        what = quiz.words(await quiz.answers(user_id))
        if value == STOP and not what:
            text = T.quiz_stopped
        elif what:
            text = T.quiz_done.format(what=escape(", ".join(what)))
        else:
            text = T.quiz_done_empty
        markup = None
    else:
        text, markup = question_text(step + 1), question_keyboard(step + 1)
    # A double tap edits a message already showing this step: nothing to change.
    with contextlib.suppress(TelegramBadRequest):
        await bot.edit_message_text(
            text, chat_id=message.chat.id, message_id=message.message_id, reply_markup=markup
        )
    if finished and what:
        await send_welcome(bot, message.chat.id, user_id, welcome, delivery)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="quiz")
    router.message.register(quiz_command, Command("quiz"))
    router.callback_query.register(quiz_tap, QuizCallback.filter())
    return router
