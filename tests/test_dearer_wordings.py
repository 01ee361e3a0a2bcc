"""Asking for dearer wine in everyday words (issue 40): a complaint that the wines are too cheap
is a wish for dearer ones, never for cheaper; «подороже,» at the start is no way of calling
someone «дорогой»; «деньги не проблема» lifts the budget."""

from __future__ import annotations

import pytest

from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    "text",
    [
        "это слишком дёшево, хочу солиднее",
        "дешевковато как-то, найдётся посерьёзнее?",
        "too cheap for a present, something better?",
        "а можно классом повыше?",
        "а из дорогих что есть?",
        "подороже, тысяч до пяти",
    ],
)
def test_dearer_is_read_and_cheaper_is_not(text: str) -> None:
    reading = read(text)
    assert reading.followup.dearer and not reading.followup.cheaper
    assert reading.price_band is None or reading.price_band.value != "budget"


def test_a_price_said_after_a_comparative_stays_with_the_message() -> None:
    reading = read("подороже, до пяти тысяч")
    assert reading.proper.startswith("подороже")
    assert reading.query.filters.price_max == 5000


@pytest.mark.parametrize("text", ["деньги не проблема", "не жалко денег, покажи лучшее"])
def test_money_no_object_lifts_the_budget(text: str) -> None:
    assert "price_max" in read(text).followup.dropped


def test_calling_the_bot_dear_is_still_an_address() -> None:
    assert read("дорогой сомелье, а подешевле?").followup.cheaper


@pytest.mark.parametrize("text", ["а подороже?", "подороже", "получше бы"])
def test_a_comparative_alone_is_a_request_not_small_talk(text: str) -> None:
    reading = read(text)
    assert reading.is_request and reading.followup.dearer


async def test_dearer_within_a_cap_below_the_dearest_shown_stays_above_the_cheapest(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(501, "красное к шашлыку")
        then = await chat.turns.answer(501, "а чуть подороже, но не дороже двух тысяч?")
    floor = min(w.price_rub for w in first.wines)
    assert first.wines and then.wines
    assert all(floor < w.price_rub <= 2000 for w in then.wines)


async def test_pasta_brings_the_wines_paired_with_a_pasta_of_any_sauce(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(502, "красное к пасте от 2000")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.price_rub >= 2000 for w in wines)
    assert all(any("паст" in p for p in w.food_pairings) for w in wines)
