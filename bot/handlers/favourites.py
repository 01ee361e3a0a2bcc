"""«⭐ В избранное» under a card, and /favorites: the kept wines with prices and availability
(an unavailable one marked, with the closest wine on sale), each removable by a button."""

from __future__ import annotations

import contextlib
import html

from aiogram import Bot, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.callbacks import FavouriteCallback
from bot.keyboards import FavouriteButtons, card_url, card_vote, favourites_list, wine_card
from core.domain import format_price
from services.app.alerts.service import Alerts
from services.app.taste.favourites import Favourites
from services.app.texts import T


async def favourites_text(
    favourites: Favourites, alerts: Alerts, user_id: int
) -> tuple[str, InlineKeyboardMarkup | None]:
    items = await favourites.list(user_id)
    if not items:
        return T.favourites_empty, None
    lines = [T.favourites_title, ""]
    for number, item in enumerate(items, 1):
        wine = item.wine
        vintage = f", {wine.vintage_year}" if wine.vintage_year else ""
        state = T.favourite_on_sale if item.available else f"<i>{T.favourite_gone}</i>"
        line = (
            f"{number}. <b>{html.escape(wine.name)}</b>{vintage} — "
            f"{format_price(wine.price_rub)} · {state}"
        )
        if item.closest is not None:
            line += "\n    " + T.favourite_closest.format(
                name=html.escape(item.closest.name), price=format_price(item.closest.price_rub)
            )
        lines.append(line)
    lines += ["", T.favourites_hint.format(percent=f"{alerts.drop_percent:g}")]
    watched = await alerts.price_watched(user_id)
    keyboard = favourites_list(
        [FavouriteButtons(i.wine.id, i.wine.name, i.available, i.wine.id in watched) for i in items]
    )
    return "\n".join(lines), keyboard


async def favourites_command(message: Message, favourites: Favourites, alerts: Alerts) -> None:
    if message.from_user is None:
        return
    text, keyboard = await favourites_text(favourites, alerts, message.from_user.id)
    await message.answer(text, reply_markup=keyboard)


async def favourite_pressed(
    query: CallbackQuery,
    callback_data: FavouriteCallback,
    favourites: Favourites,
    alerts: Alerts,
    bot: Bot,
) -> None:
    user_id = query.from_user.id
    if not callback_data.add:
        await favourites.remove(user_id, callback_data.wine_id)
        await alerts.forget_price(user_id, callback_data.wine_id)
        with contextlib.suppress(TelegramBadRequest):
            await query.answer(T.favourite_removed)
        if isinstance(query.message, Message):
            text, keyboard = await favourites_text(favourites, alerts, user_id)
            with contextlib.suppress(TelegramBadRequest):
                await query.message.edit_text(text, reply_markup=keyboard)
        return
    added = await favourites.add(user_id, callback_data.wine_id)
    await alerts.opened(user_id, callback_data.wine_id)
    if added is None:
        with contextlib.suppress(TelegramBadRequest):
            await query.answer(T.wine_gone)
        return
    with contextlib.suppress(TelegramBadRequest):
        await query.answer(T.favourite_added if added else T.favourite_already)
    if added and isinstance(query.message, Message):
        markup = query.message.reply_markup
        with contextlib.suppress(TelegramBadRequest):
            await bot.edit_message_reply_markup(
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                reply_markup=wine_card(
                    callback_data.wine_id, card_vote(markup), card_url(markup), kept=True
                ),
            )


def build_router() -> Router:
    router = Router(name="favourites")
    router.message.register(favourites_command, Command("favorites", "favourites"))
    router.callback_query.register(favourite_pressed, FavouriteCallback.filter())
    return router
