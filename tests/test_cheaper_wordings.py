"""Asking for cheaper wine in everyday words (issue 40), and «вдвое дешевле» meaning half the
price of the wines shown, not a rouble under them."""

from __future__ import annotations

import pytest

from core.language.reading import read
from services.app.runtime import Runtime
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    "text",
    ["кусается цена", "не, столько не готов отдать", "многовато, а за полцены?"],
)
def test_cheaper_is_read(text: str) -> None:
    assert read(text).followup.cheaper


async def test_half_the_price_is_half_of_the_cheapest_shown(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(491, "красное сухое от 3000")
        half = await chat.turns.answer(491, "а в два раза дешевле есть?")
    assert first.wines and half.wines
    ceiling = min(w.price_rub for w in first.wines) / 2
    assert all(w.price_rub <= ceiling for w in half.wines)
    assert all(w.wine_type == "red" for w in half.wines)
