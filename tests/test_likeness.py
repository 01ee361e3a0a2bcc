"""«Такое же, но …»: a wine like the ones just shown. The likeness keeps their colour and
sweetness, and their grape when they are all of one single grape (another chardonnay after a
Chablis while one fits); what the message says wins over the likeness («такое же, но
красное» is the request in force in red), «другой сорт» leaves the grape out, and the grape
is given up first when nothing new of it is left. Wordings of our own."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.followups import asks_similar
from core.language.reading import read
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    "text",
    [
        "такой же, только из Италии",
        "а такую же, но попроще",
        "что-нибудь подобное, но белое",
        "в таком же роде, подешевле",
        "the same but cheaper",
        "same thing but from Spain?",
    ],
)
def test_the_same_but_is_a_likeness(text: str) -> None:
    assert asks_similar(text)


def test_a_likeness_opening_the_message_is_not_taken_off_as_filler() -> None:
    reading = read("а такое же, но подешевле")
    assert "такое же" in reading.proper
    assert read("ну, спасибо, а красное есть?").proper == "а красное есть?"


async def test_like_a_single_grape_wine_shown_keeps_its_grape(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4301, "есть Chablis?")
        second = await _ask(chat, 4301, "такое же, только дешевле")
    assert [w.name for w in first.wines] == ["Chablis"]
    assert second.wines
    for wine in second.wines:
        assert wine.wine_type is WineType.white
        assert "шардоне" in wine.grape_varieties
        assert wine.price_rub < first.wines[0].price_rub


async def test_the_same_in_another_colour_follows_the_colour(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await _ask(chat, 4302, "белое к курице")
        second = await _ask(chat, 4302, "а такое же, но красное")
    assert second.wines
    assert {w.wine_type for w in second.wines} == {WineType.red}


async def test_the_same_but_another_grape_leaves_the_grape_out(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4303, "посоветуй пино нуар красный")
        second = await _ask(chat, 4303, "что-нибудь подобное, но другой сорт")
    assert first.wines and second.wines
    for wine in second.wines:
        assert wine.wine_type is WineType.red
        assert "пино нуар" not in wine.grape_varieties


async def test_more_like_a_one_of_a_kind_wine_gives_the_grape_up(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4304, "просекко есть?")
        second = await _ask(chat, 4304, "а ещё такое же игристое?")
    shown = {w.id for w in first.wines}
    assert second.wines
    assert all(w.id not in shown for w in second.wines)
    assert {w.wine_type for w in second.wines} == {WineType.sparkling}
