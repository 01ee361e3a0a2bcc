"""Dishes said fondly («к шашлычку», «под сырок», «к уточке») are the dishes themselves,
whatever form the diminutive takes. Wordings of our own."""

from __future__ import annotations

import pytest

from core.language.request import food_from_text


@pytest.mark.parametrize(
    ("text", "dish"),
    [
        ("красненького к шашлычку", "шашлык"),
        ("что-нибудь под шашлычок", "шашлык"),
        ("белое к сырку", "сыр"),
        ("к сырочку и фруктам", "сыр"),
        ("к уточке с яблоками", "утка"),
    ],
)
def test_a_dish_said_fondly_is_the_dish(text: str, dish: str) -> None:
    assert food_from_text(text) == dish
