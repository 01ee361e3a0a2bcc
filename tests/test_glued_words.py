"""Words typed together on a phone («подрыбу», «дотрёх тысяч», «розовоесухое») are split
before reading; names and words of the dictionary are never split. Wordings of our own."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from core.language.reading import read
from core.language.typos import split_glued


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("что-нибудь подрыбу", "что-нибудь под рыбу"),
        ("красное дотрёх тысяч", "красное до трёх тысяч"),
        ("вино кстейку", "вино к стейку"),
        ("розовоесухое", "розовое сухое"),
    ],
)
def test_words_typed_together_are_split(typed: str, meant: str) -> None:
    assert split_glued(typed) == meant


@pytest.mark.parametrize(
    "text",
    [
        "кстати, а новосветское есть?",
        "сансер и короче всё",
        "Наусе от Бутари",
        "шардоне и пинонуар",
        "слабоигристое",
        "амароне",
    ],
)
def test_words_that_are_one_word_stay_whole(text: str) -> None:
    assert split_glued(text) == text


def test_a_glued_request_reads_as_written_apart() -> None:
    filters = read("розовоесухое дотысячи").query.filters
    assert filters.wine_type is WineType.rose
    assert filters.sweetness is Sweetness.dry
    assert filters.price_max == Decimal(1000)
