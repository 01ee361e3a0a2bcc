"""A message that swaps or cancels one dish for another asks for wine to the dish that stays
(«вместо рыбы будет ягнёнок», «гуляш отменили, жарим курицу»), whichever comes first (issue 40)."""

from __future__ import annotations

import pytest

from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import wines_by_id
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    ("text", "dish"),
    [
        ("вместо пасты будет утка", "утка"),
        ("вместо сыра подам утиную грудку", "утка"),
        ("шашлык отменяется, жарим курицу", "курица"),
        ("гостям нельзя свинину, будет баранина", "баранина"),
        ("стейков не будет, приготовлю лосося", "лосось"),
        ("let's do duck instead of pizza", "утка"),
    ],
)
def test_the_dish_that_stays_is_the_one_asked_for(text: str, dish: str) -> None:
    assert read(text).query.filters.food_pairing == dish


def test_two_dishes_with_no_swap_keep_the_first() -> None:
    assert read("к утке и к сыру").query.filters.food_pairing == "утка"


async def test_a_swapped_dish_replaces_the_one_before(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(482, "красное к пицце")
        then = await chat.turns.answer(482, "ой, вместо пиццы будет баранина")
    wines = await wines_by_id(seeded, [w.id for w in then.wines])
    assert wines and all(any("баранин" in f for f in w.food_pairings) for w in wines.values())
