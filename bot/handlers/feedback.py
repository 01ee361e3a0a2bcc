"""👍/👎 and "Похожие" under a wine card."""

from __future__ import annotations

import contextlib

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.answering import typing_indicator
from bot.callbacks import SimilarCallback, VoteCallback
from bot.coordination import Delivery, plan_with_turn
from bot.delivery import send_recommendation
from bot.keyboards import card_kept, card_url, wine_card
from services.app.alerts.service import Alerts
from services.app.taste.profiles import TasteProfiles
from services.app.taste.similar import SimilarWines
from services.app.texts import T


async def vote(
    query: CallbackQuery,
    callback_data: VoteCallback,
    taste: TasteProfiles,
    alerts: Alerts,
    bot: Bot,
) -> None:
    if callback_data.vote not in (-1, 1):
        await query.answer()
        return
    change = await taste.vote(query.from_user.id, callback_data.wine_id, callback_data.vote)
    await alerts.opened(query.from_user.id, callback_data.wine_id)
    if change is None:
        await query.answer(T.wine_gone)
        return
    on_sale = change.on_sale
    if change.previous == change.current:
        await query.answer(T.vote_same if on_sale else T.out_of_stock)
        return
    saved = T.vote_saved[change.current] if change.previous is None else T.vote_changed
    await query.answer(saved if on_sale else f"{saved}. {T.out_of_stock}")
    if isinstance(query.message, Message):
        # The card may be too old to edit; the vote is stored either way.
        with contextlib.suppress(TelegramBadRequest):
            await bot.edit_message_reply_markup(
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                reply_markup=wine_card(
                    callback_data.wine_id,
                    change.current,
                    card_url(query.message.reply_markup),
                    card_kept(query.message.reply_markup),
                ),
            )


async def similar(
    query: CallbackQuery,
    callback_data: SimilarCallback,
    similar: SimilarWines,
    alerts: Alerts,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    on_sale = await similar.on_sale(callback_data.wine_id)
    await alerts.opened(query.from_user.id, callback_data.wine_id)
    await query.answer(T.out_of_stock_similar if on_sale is False else None)
    if query.message is None:
        return
    chat_id = query.message.chat.id
    with_turn = plan_with_turn(delivery)
    async with typing_indicator(bot, chat_id):
        rec = await similar.similar(query.from_user.id, callback_data.wine_id, with_turn)
    if rec is None:
        await bot.send_message(chat_id, T.wine_gone)
        return
    await send_recommendation(bot, chat_id, rec, delivery)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="feedback")
    router.callback_query.register(vote, VoteCallback.filter())
    router.callback_query.register(similar, SimilarCallback.filter())
    return router
