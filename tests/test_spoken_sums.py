"""Sums people say rather than write: hundreds and compound numbers in words («до восьмисот»,
«тысяча пятьсот»), slang («два косаря», «за пятихатку», «полторашка»), the bare end of a range
of thousands («полторы-две тысячи», «тыща-полторы»), «с половиной» after a bound, the inverted
«тыщи за три» (about three thousand) and a bound said after the sum («две тыщи максимум»).
Wordings of our own, not the development dialogs'."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.language.request import parse_query

# (message, price_min, price_max)
SUMS: list[tuple[str, int | None, int | None]] = [
    ("вино за восемьсот рублей", None, 800),
    ("что-то до шестисот", None, 600),
    ("белое не дороже тысячи пятисот", None, 1500),
    ("красное до двух тысяч трёхсот", None, 2300),
    ("до трёх с половиной", None, 3500),
    ("розовое на два косаря", None, 2000),
    ("игристое до косаря", None, 1000),
    ("есть что-нибудь за пятихатку?", None, 500),
    ("сухое за полторашку", None, 1500),
    ("красное в пределах полторы-две тысячи", 1500, 2000),
    ("белое, тыща-полторы", 1000, 1500),
    ("портвейн от трёх до четырёх тысяч", 3000, 4000),
    ("к утке тыщи за три", 2400, 3600),
    ("две тыщи максимум", None, 2000),
    ("1800 не больше", None, 1800),
]


@pytest.mark.parametrize(("text", "low", "high"), SUMS)
def test_a_sum_said_in_words_bounds_the_price(text: str, low: int | None, high: int | None) -> None:
    filters = parse_query(text).filters
    assert filters.price_min == (None if low is None else Decimal(low)), text
    assert filters.price_max == (None if high is None else Decimal(high)), text


@pytest.mark.parametrize(
    "text",
    [
        "на все сто уверен, что красное",
        "бутылка семьсот пятьдесят миллилитров",
        "двести грамм сыра к вину",
        "вино лет триста назад делали иначе",
        "две или три бутылки красного",
    ],
)
def test_numbers_that_are_no_sum_set_no_price(text: str) -> None:
    filters = parse_query(text).filters
    assert filters.price_min is None and filters.price_max is None, text
