"""What the model's prose may say to the user: no prices nobody gave, no links.

The cards carry catalog facts; the model writes the words around them. A model talked into
"every wine now costs 1 ₽" or into posting a phishing link must not get that to the user:
- a price in the prose must be that of a wine shown, or a budget bound the user gave and the
  wines shown keep to; a sentence with any other price is dropped;
- links (with a scheme, www., or a bare domain Telegram would make clickable) are hidden.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from decimal import Decimal

from core.domain import WineFilters
from core.language.amounts import MoneyMention, money_mentions
from core.language.claim_numbers import ROUGHLY
from core.language.folding import fold

LINK_PLACEHOLDER = "(ссылка скрыта)"
# Words that make the amount after them a limit, not a price.
_LIMIT_CUE = re.compile(
    r"(?:\bдо|дешевле|меньше|ниже|дороже|выше|больше|в пределах|бюджет\w*|under|below|cheaper"
    r"|less than|within|up to)\s*$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_TLDS = (
    "com|ru|net|org|info|io|biz|xyz|su|рф|me|app|site|online|shop|top|club|link|click|ly|to"
    "|cc|co|us|uk|de|fr|it|es|pro|live|store|win|vip"
)
_LINK = re.compile(
    r"(?:(?:https?|ftp|tg)://|www\.)\S+"
    rf"|\b[\w-]+(?:\.[\w-]+)*\.(?:{_TLDS})\b(?:/\S*)?",
    re.IGNORECASE,
)


def allowed_prices(wine_prices: Collection[Decimal], asked: WineFilters) -> set[Decimal]:
    """Prices the prose may name: those of the wines shown, and the bounds of the budget the
    person's message names (`asked`) that the shown wines keep to ("до 2000" with wines under
    2000, not "по 1 ₽")."""
    filters = asked
    allowed = set(wine_prices)
    if filters.price_max is not None and any(p <= filters.price_max for p in wine_prices):
        allowed.add(filters.price_max)
    if filters.price_min is not None and any(p >= filters.price_min for p in wine_prices):
        allowed.add(filters.price_min)
    return allowed


def _wrong_prices(
    text: str, allowed: Collection[Decimal], limits: Collection[Decimal] = ()
) -> tuple[list[MoneyMention], list[int]]:
    mentions = money_mentions(text)
    wrong = [
        m.start
        for m in mentions
        if all(abs(m.value - ok) >= 1 for ok in allowed)
        and not (_near(m.value, limits) and _LIMIT_CUE.search(fold(text[: m.start])))
        and not _borne_out_roughly(m.value, fold(text[: m.start]), allowed)
    ]
    return mentions, wrong


# «дешевле тысячи», «не дороже 2000 ₽»: a bound the prices shown keep to; «дороже 500 ₽» the
# other way; «около двух тысяч» of 1900 ₽: a price rounded (a tenth either way).
_UPPER_BOUND = re.compile(
    r"(?:\bдо|дешевле|меньше|ниже|не дороже|не больше|не выше|в пределах|under|below"
    r"|cheaper than|less than|up to)\s*$"
)
_LOWER_BOUND = re.compile(r"(?<!не )(?:дороже|выше|больше|over|more than)\s*$")


def _borne_out_roughly(value: Decimal, before: str, allowed: Collection[Decimal]) -> bool:
    """Is an amount said as a bound or a round figure true of every price shown?"""
    if not allowed:
        return False
    if _UPPER_BOUND.search(before):
        return all(price <= value for price in allowed)
    if _LOWER_BOUND.search(before):
        return all(price >= value for price in allowed)
    if ROUGHLY.search(before):
        return all(abs(price - value) <= value / 10 for price in allowed)
    return False


def _near(value: Decimal, prices: Collection[Decimal]) -> bool:
    return any(abs(value - p) < 1 for p in prices)


def states_unknown_prices(text: str, allowed: Collection[Decimal]) -> bool:
    return bool(_wrong_prices(text, allowed)[1])


def states_wrong_price(
    text: str, allowed: Collection[Decimal], limits: Collection[Decimal] = ()
) -> bool:
    """Does `text` name a price other than the `allowed` ones (`limits` only as limits)?"""
    return bool(_wrong_prices(text, allowed, limits)[1])


def without_false_prices(
    text: str, allowed: Collection[Decimal], limits: Collection[Decimal] = ()
) -> str:
    """`text` without the sentences that name a price other than the `allowed` ones.

    `limits` (the bounds of a search that found nothing) may be named as limits only —
    «дешевле 500 ₽», «до 500 ₽» — never as a price («все вина по 1 ₽»).
    """
    mentions, wrong = _wrong_prices(text, allowed, limits)
    if not wrong:
        return text
    # Sentence ends, except inside an amount ("5 тыс. руб." is one mention, not two sentences).
    cuts = [
        end.end()
        for end in _SENTENCE_END.finditer(text)
        if not any(m.start <= end.start() < m.end for m in mentions)
    ]
    bounds = zip([0, *cuts], [*cuts, len(text)], strict=True)
    kept = [text[a:b].strip() for a, b in bounds if not any(a <= w < b for w in wrong)]
    return " ".join(part for part in kept if part)


def without_links(text: str) -> str:
    return _LINK.sub(LINK_PLACEHOLDER, text)
