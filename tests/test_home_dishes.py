"""Everyday dishes of a Russian table are dishes to pair, not off-topic words (issue 40):
«что открыть к борщу?» asks for wine; a recipe for borscht is still not the shop's business."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read
from core.recommendation import Recommendation
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    ("text", "dish"),
    [
        ("что открыть к борщу?", "мясо"),
        ("вино к пельменям посоветуй", "мясо"),
        ("на новый год оливье и селёдка под шубой, что к ним?", "салат"),
        ("к селёдке что-нибудь", "рыба"),
        ("вечером фондю, какое вино?", "сыр"),
        ("к чизкейку что-нибудь сладкое", "десерт"),
        ("паста карбонара, что налить?", "паста"),
    ],
)
def test_a_home_dish_is_read_as_the_dish_to_pair(text: str, dish: str) -> None:
    reading = read(text)
    assert reading.kind is MessageKind.request
    assert reading.query.filters.food_pairing == dish


def test_the_dish_said_first_then_which_wine_is_a_request() -> None:
    assert read("к драникам что подойдёт?").kind is MessageKind.request


def test_cooking_the_dish_is_still_off_topic() -> None:
    assert read("как сварить борщ?").kind is MessageKind.offtopic


async def test_wine_for_borscht_gets_cards(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec: Recommendation = await chat.turns.answer(471, "что открыть к борщу?")
    assert rec.kind == "request" and rec.wines


async def test_the_meal_of_the_wine_just_asked_for_keeps_its_colour(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(472, "белое сухое посоветуй")
        rec = await chat.turns.answer(472, "к нему будет курица")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.wine_type.value == "white" for w in wines)
    assert all(any("кур" in p for p in w.food_pairings) for w in wines)
