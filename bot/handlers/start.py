"""/start: the 18+ gate first, then a welcome with three picks for today."""

from __future__ import annotations

import contextlib

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message

from bot.callbacks import AgeCallback
from bot.coordination import Delivery
from bot.delivery import send_card
from bot.handlers.quiz import send_quiz
from bot.keyboards import age_gate
from bot.users import user_details
from bot.welcome import send_welcome
from services.app.people.people import People
from services.app.picks.inline import QuickPicks, shared_wine_id
from services.app.picks.welcome import WelcomePicks
from services.app.texts import T


async def start(
    message: Message,
    people: People,
    welcome: WelcomePicks,
    quick_picks: QuickPicks,
    bot: Bot,
    command: CommandObject | None = None,
    delivery: Delivery | None = None,
) -> None:
    if message.from_user is None:
        return
    state = await people.register(user_details(message.from_user))
    if not state.age_confirmed:
        await message.answer(T.age_question, reply_markup=age_gate())
        return
    wine_id = shared_wine_id((command.args or "").replace("_", ":", 1)) if command else None
    if wine_id is not None:
        page = await quick_picks.for_person(message.from_user.id, f"wine:{wine_id.hex}")
        if page.wines:  # a wine a friend shared: its card
            await send_card(bot, message.chat.id, page.wines[0])
            return
        await message.answer(T.shared_wine_gone)
    await send_welcome(bot, message.chat.id, message.from_user.id, welcome, delivery)


async def age_confirmed(
    query: CallbackQuery,
    people: People,
    welcome: WelcomePicks,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    state = await people.register(user_details(query.from_user))
    if not state.age_confirmed:
        await people.confirm_age(query.from_user.id)
    await query.answer(T.age_confirmed)
    if query.message is not None:
        # A double tap edits an already edited message ("message is not modified"); an older
        # gate message pressed later must not repeat the welcome either.
        with contextlib.suppress(TelegramBadRequest):
            await bot.edit_message_text(
                T.age_confirmed, chat_id=query.message.chat.id, message_id=query.message.message_id
            )
        if not state.age_confirmed:
            await send_welcome(bot, query.message.chat.id, query.from_user.id, welcome, delivery)
            await send_quiz(bot, query.message.chat.id)  # optional: picks are already there


async def age_refused(query: CallbackQuery, bot: Bot) -> None:
    await query.answer()
    if query.message is not None:
        with contextlib.suppress(TelegramBadRequest):  # a double tap: already refused
            await bot.edit_message_text(
                T.age_refused, chat_id=query.message.chat.id, message_id=query.message.message_id
            )


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="start")
    router.message.register(start, CommandStart())
    router.callback_query.register(age_confirmed, AgeCallback.filter(F.adult))
    router.callback_query.register(age_refused, AgeCallback.filter(~F.adult))
    return router
