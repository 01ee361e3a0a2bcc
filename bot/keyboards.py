"""Inline keyboards."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.callbacks import (
    AgeCallback,
    AlertCallback,
    AlertCancelCallback,
    FavouriteCallback,
    ForgetCallback,
    PriceWatchCallback,
    ProfilePartResetCallback,
    ProfileResetCallback,
    SimilarCallback,
    VoteCallback,
)
from core.recommendation import Recommendation
from services.app.texts import T


def forget_confirmation() -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=T.forget_yes, callback_data=ForgetCallback(confirmed=True))
    kb.button(text=T.forget_no, callback_data=ForgetCallback(confirmed=False))
    kb.adjust(2)
    return kb.as_markup()


def age_gate() -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=T.age_yes, callback_data=AgeCallback(adult=True))
    kb.button(text=T.age_no, callback_data=AgeCallback(adult=False))
    kb.adjust(1)
    return kb.as_markup()


def wine_card(
    wine_id: uuid.UUID, vote: int | None = None, url: str | None = None, kept: bool = False
) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup.model_validate(wine_card_json(wine_id, vote, url, kept))


def wine_card_json(
    wine_id: uuid.UUID, vote: int | None = None, url: str | None = None, kept: bool = False
) -> dict[str, Any]:
    """A card's keyboard as the Bot API's JSON: an answer sends three cards, and building the
    keyboard's models to dump them again cost more CPU than the rest of its request."""
    wine = wine_id.hex
    rows: list[list[dict[str, Any]]] = [
        [
            {
                "text": "👍" + (" ✓" if vote == 1 else ""),
                "callback_data": VoteCallback(vote=1, wine=wine).pack(),
            },
            {
                "text": "👎" + (" ✓" if vote == -1 else ""),
                "callback_data": VoteCallback(vote=-1, wine=wine).pack(),
            },
            {"text": T.similar_button, "callback_data": SimilarCallback(wine=wine).pack()},
        ]
    ]
    if link := shop_url(url):
        rows.append([{"text": T.buy_button, "url": link}])
    favourite = {
        "text": T.favourite_button_kept + " ✓" if kept else T.favourite_button,
        "callback_data": FavouriteCallback(add=True, wine=wine).pack(),
    }
    rows.append([favourite, _share_button_json(wine)])
    return {"inline_keyboard": rows}


def card_vote(markup: InlineKeyboardMarkup | None) -> int | None:
    """The vote a card's keyboard shows (👍 ✓ / 👎 ✓), to keep it when the keyboard is redrawn."""
    for row in markup.inline_keyboard if markup else []:
        for button in row:
            if button.text == "👍 ✓":
                return 1
            if button.text == "👎 ✓":
                return -1
    return None


def card_kept(markup: InlineKeyboardMarkup | None) -> bool:
    """Whether a card's keyboard shows the wine as a favourite."""
    return any(
        button.text.startswith(T.favourite_button_kept)
        for row in (markup.inline_keyboard if markup else [])
        for button in row
    )


@dataclass(frozen=True)
class FavouriteButtons:
    wine_id: uuid.UUID
    name: str
    on_sale: bool
    watched: bool  # its price drops (on sale) or its return (sold out) alert


def favourites_list(items: list[FavouriteButtons]) -> InlineKeyboardMarkup | None:
    """Per favourite: «✖ name» removes it from the list; «🔔»/«🔕» turns its price drop
    alerts on or off (on sale), or asks to be told when it is back (sold out)."""
    if not items:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    for item in items:
        name = item.name[:28]
        if item.on_sale:
            bell = PriceWatchCallback(on=not item.watched, wine=item.wine_id.hex).pack()
        else:
            bell = AlertCallback(of="w", ref=item.wine_id.hex).pack()
        rows.append(
            [
                InlineKeyboardButton(
                    text=T.favourite_remove_button.format(name=name),
                    callback_data=FavouriteCallback(add=False, wine=item.wine_id.hex).pack(),
                ),
                InlineKeyboardButton(
                    text=(
                        T.favourite_watching_button if item.watched else T.favourite_watch_button
                    ).format(name=name[:14]),
                    callback_data=bell,
                ),
            ]
        )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def alert_offer(rec: Recommendation, chat_id: int) -> InlineKeyboardMarkup | None:
    """«🔔 Сообщить, когда появится» under an answer's closing: a wine asked for that the shop
    lacks (`n`), or one shown earlier that sold out (`w`). Private chats only (the alert goes
    to whoever pressed)."""
    if chat_id <= 0:
        return None
    if rec.unmet_name and rec.fact_id is not None:
        of, ref = "n", rec.fact_id
    elif rec.sold_out_id is not None:
        of, ref = "w", rec.sold_out_id
    else:
        return None
    button = InlineKeyboardButton(
        text=T.alert_offer_button, callback_data=AlertCallback(of=of, ref=ref.hex).pack()
    )
    return InlineKeyboardMarkup(inline_keyboard=[[button]])


def alerts_list(items: list[tuple[int, str]]) -> InlineKeyboardMarkup | None:
    """One «✖ n. name» per subscription in /alerts: cancels it."""
    if not items:
        return None
    rows = [
        [
            InlineKeyboardButton(
                text=T.alert_cancel_button.format(n=n, name=name[:36]),
                callback_data=AlertCancelCallback(id=subscription_id).pack(),
            )
        ]
        for n, (subscription_id, name) in enumerate(items, 1)
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def card_url(markup: InlineKeyboardMarkup | None) -> str | None:
    """The «Купить» link of a card's keyboard, to keep it when the keyboard is redrawn."""
    for row in markup.inline_keyboard if markup else []:
        for button in row:
            if button.url:
                return button.url
    return None


def profile_reset() -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=T.profile_reset_button, callback_data=ProfileResetCallback(confirm=True))
    return kb.as_markup()


def shop_url(url: str | None) -> str | None:
    return url if url and url.startswith(("https://", "http://")) else None


def wine_deep_link(bot_username: str, wine_id: uuid.UUID) -> str:
    """Opens the private chat on this wine's card (/start wine_<hex>)."""
    return f"https://t.me/{bot_username}?start=wine_{wine_id.hex}"


def _share_button_json(wine: str) -> dict[str, Any]:
    """Opens the chat picker with this wine ready to send as an inline result."""
    return {
        "text": T.share_button,
        "switch_inline_query_chosen_chat": {
            "query": f"wine:{wine}",
            "allow_user_chats": True,
            "allow_group_chats": True,
            "allow_channel_chats": False,
            "allow_bot_chats": False,
        },
    }


def shared_card(wine_id: uuid.UUID, bot_username: str, url: str | None) -> InlineKeyboardMarkup:
    """The buttons of a wine sent into another chat: the shop's page and the bot's card."""
    kb = InlineKeyboardBuilder()
    if link := shop_url(url):
        kb.button(text=T.buy_button, url=link)
    kb.button(text=T.open_in_bot_button, url=wine_deep_link(bot_username, wine_id))
    kb.adjust(1)
    return kb.as_markup()


def profile_parts_reset(votes: bool) -> InlineKeyboardMarkup:
    """Reset the quiz's answers, and the 👍/👎 when there are any, each on its own."""
    kb = InlineKeyboardBuilder()
    kb.button(text=T.profile_reset_quiz_button, callback_data=ProfilePartResetCallback(part="quiz"))
    if votes:
        kb.button(
            text=T.profile_reset_votes_button, callback_data=ProfilePartResetCallback(part="votes")
        )
    kb.adjust(1)
    return kb.as_markup()
