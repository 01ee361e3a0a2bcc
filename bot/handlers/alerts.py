"""«🔔 Сообщить, когда появится» under an answer or a sold-out favourite, «🔔/🔕» price drops
of a favourite, and /alerts: the person's subscriptions, each cancelled by a button."""

from __future__ import annotations

import contextlib
import html

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.callbacks import AlertCallback, AlertCancelCallback, PriceWatchCallback
from bot.handlers.favourites import favourites_text
from bot.keyboards import alerts_list
from core.domain import format_price
from services.app.alerts.service import AlertItem, Alerts
from services.app.taste.favourites import Favourites
from services.app.texts import T

OFFER_ANSWERS = {
    "subscribed": T.alert_subscribed,
    "already": T.alert_already,
    "in_stock": T.alert_in_stock,
    "unknown": T.alert_unknown,
}


def alerts_text(items: list[AlertItem]) -> tuple[str, InlineKeyboardMarkup | None]:
    if not items:
        return T.alerts_empty, None
    lines = [T.alerts_title, ""]
    for n, item in enumerate(items, 1):
        name = html.escape(item.title)
        until = item.until.strftime("%d.%m.%Y")
        if item.kind == "price" and item.price is not None:
            line = T.alert_line_price.format(
                n=n, name=name, price=format_price(item.price), until=until
            )
        elif item.kind == "name":
            line = T.alert_line_name.format(n=n, name=name, until=until)
        else:
            line = T.alert_line_wine.format(n=n, name=name, until=until)
        lines.append(line)
    lines += ["", T.alerts_hint]
    return "\n".join(lines), alerts_list([(i.id, i.title) for i in items])


async def alerts_command(message: Message, alerts: Alerts) -> None:
    if message.from_user is None:
        return
    text, keyboard = alerts_text(await alerts.list(message.from_user.id))
    await message.answer(text, reply_markup=keyboard)


async def offer_pressed(query: CallbackQuery, callback_data: AlertCallback, alerts: Alerts) -> None:
    user_id = query.from_user.id
    if callback_data.of == "n":
        outcome = await alerts.offer_name(user_id, callback_data.ref_id)
    else:
        outcome = await alerts.offer_wine(user_id, callback_data.ref_id)
    with contextlib.suppress(TelegramBadRequest):
        await query.answer(OFFER_ANSWERS[outcome], show_alert=outcome != "subscribed")


async def cancel_pressed(
    query: CallbackQuery, callback_data: AlertCancelCallback, alerts: Alerts
) -> None:
    user_id = query.from_user.id
    await alerts.cancel(user_id, callback_data.id)
    with contextlib.suppress(TelegramBadRequest):
        await query.answer(T.alert_cancelled)
    if isinstance(query.message, Message):
        text, keyboard = alerts_text(await alerts.list(user_id))
        with contextlib.suppress(TelegramBadRequest):
            await query.message.edit_text(text, reply_markup=keyboard)


async def price_watch_pressed(
    query: CallbackQuery, callback_data: PriceWatchCallback, alerts: Alerts, favourites: Favourites
) -> None:
    user_id = query.from_user.id
    if not await alerts.watch_price(user_id, callback_data.wine_id, callback_data.on):
        with contextlib.suppress(TelegramBadRequest):
            await query.answer(T.wine_gone)
        return
    answer = T.alert_price_on.format(percent=f"{alerts.drop_percent:g}")
    with contextlib.suppress(TelegramBadRequest):
        await query.answer(answer if callback_data.on else T.alert_price_off)
    if isinstance(query.message, Message):
        text, keyboard = await favourites_text(favourites, alerts, user_id)
        with contextlib.suppress(TelegramBadRequest):
            await query.message.edit_text(text, reply_markup=keyboard)


def build_router() -> Router:
    router = Router(name="alerts")
    router.message.register(alerts_command, Command("alerts"))
    router.callback_query.register(offer_pressed, AlertCallback.filter())
    router.callback_query.register(cancel_pressed, AlertCancelCallback.filter())
    router.callback_query.register(price_watch_pressed, PriceWatchCallback.filter())
    return router
