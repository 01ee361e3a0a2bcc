"""Wine cards in Telegram HTML: the full card, the compact one and the group answer.

Fitting a card into Telegram's limits (caption, message length) is `bot.telegram_html`'s job.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Protocol

from bot.telegram_html import escape
from core.domain import (
    SWEETNESS_RU,
    WINE_TYPE_RU,
    Sweetness,
    WineType,
    format_price,
)
from services.app.texts import T


class CardData(Protocol):
    """What a wine card shows; core.recommendation.RecommendedWine is one."""

    name: str
    producer: str
    country: str
    region: str | None
    grape_varieties: list[str]
    wine_type: WineType
    sweetness: Sweetness
    price_rub: Decimal
    vintage_year: int | None
    why: str
    image_url: str | None


# --- card ----------------------------------------------------------------------------------


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def wine_style_ru(wine_type: WineType, sweetness: Sweetness) -> str:
    """E.g. "Красное сухое"."""
    return f"{WINE_TYPE_RU[wine_type].capitalize()} {SWEETNESS_RU[sweetness]}"


def _title_line(card: CardData) -> str:
    name = _one_line(card.name)
    title = f"<b>{escape(name)}</b>" if name else ""
    if card.vintage_year is None:
        return title
    return f"{title}, {card.vintage_year}" if title else str(card.vintage_year)


def _geo_line(card: CardData) -> str:
    places = [place for place in (_one_line(card.country), _one_line(card.region)) if place]
    return "🌍 " + escape(", ".join(places)) if places else ""


def _grapes_line(card: CardData) -> str:
    grapes = [grape for grape in map(_one_line, card.grape_varieties) if grape]
    return "🍇 " + escape(", ".join(grapes)) if grapes else ""


def _price_line(card: CardData) -> str:
    """The price, and the crossed-out old price when the shop has one above it."""
    line = "💰 " + format_price(card.price_rub)
    old = getattr(card, "old_price_rub", None)
    if isinstance(old, Decimal) and old > card.price_rub:
        line += f" <s>{format_price(old)}</s>"
    return line


def _shop_pick_line(card: CardData) -> str:
    """«Выбор магазина» on the card of a wine the shop's own rules boost, and on no other."""
    return f"🏷 <b>{T.shop_pick}</b>" if getattr(card, "shop_pick", False) else ""


def render_card(card: CardData) -> str:
    """Telegram-HTML card: the shop's pick mark, title, producer, origin, grapes, style, price,
    then the "why"."""
    lines = [
        _shop_pick_line(card),
        _title_line(card),
        escape(_one_line(card.producer)),
        _geo_line(card),
        _grapes_line(card),
        "🍷 " + wine_style_ru(card.wine_type, card.sweetness),
        _price_line(card),
    ]
    body = "\n".join(line for line in lines if line)
    why = card.why.strip()
    if why:
        body += f"\n\n<i>{escape(why)}</i>"
    return body


# --- compact card (inline results, shared wines, group replies) ----------------------------

COMPACT_WHY_CHARS = 200


def compact_title(card: CardData) -> str:
    """Plain text: "Name, 2019" (inline result titles are not HTML)."""
    name = _one_line(card.name)
    return f"{name}, {card.vintage_year}" if card.vintage_year else name


def compact_why(card: CardData) -> str:
    """The first line of the "why", short enough for an inline result's description."""
    why = _one_line(card.why)
    if len(why) <= COMPACT_WHY_CHARS:
        return why
    return why[: COMPACT_WHY_CHARS - 1].rstrip() + "…"


def render_compact_card(card: CardData) -> str:
    """Telegram HTML: the title, style and price on one line, then one line why."""
    lines = [
        _shop_pick_line(card),
        _title_line(card),
        "🍷 " + wine_style_ru(card.wine_type, card.sweetness) + " · " + _price_line(card),
    ]
    why = compact_why(card)
    if why:
        lines.append(f"<i>{escape(why)}</i>")
    return "\n".join(line for line in lines if line)


# --- group answers -----------------------------------------------------------------------

_GROUP_REQUEST_RE = re.compile(r"^🍷 По запросу «(?P<request>.*)»:", re.MULTILINE)
_WINE_LINK_RE = re.compile(r"[?&]start=wine_(?P<hex>[0-9a-f]{32})$")


def render_table_reply(
    header: str, wines: Sequence[CardData], link_of: Callable[[CardData], str]
) -> str:
    """A group answer: the request, then per wine a linked title, style and price, and why.
    The links open the bot on the wine and let a reply to this answer find its wines."""
    blocks = [escape(header)]
    for card in wines:
        title = escape(compact_title(card))
        line = (
            f'<a href="{html.escape(link_of(card), quote=True)}">{title}</a> · '
            + wine_style_ru(card.wine_type, card.sweetness)
            + " · "
            + _price_line(card)
        )
        why = compact_why(card)
        blocks.append(line + (f"\n<i>{escape(why)}</i>" if why else ""))
    return "\n\n".join(blocks)


def read_table_reply(text: str | None, link_urls: Sequence[str]) -> tuple[str, list[str]] | None:
    """(request, wine ids as hex) of a group answer rendered above, or None for another text."""
    match = _GROUP_REQUEST_RE.search(text or "")
    if match is None:
        return None
    ids = [m["hex"] for url in link_urls if (m := _WINE_LINK_RE.search(url))]
    return match["request"], ids
