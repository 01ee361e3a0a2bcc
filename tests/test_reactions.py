"""A reaction between requests («ого, круто», «хаха норм», «мда») is small talk that shows no
cards, and the request before it goes on after it (issue 40)."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import wines_by_id
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    "text",
    [
        "ого, круто",
        "хаха норм",
        "интересно)",
        "мда",
        "отлично, то что нужно",
        "хм, дай подумать",
        "ахах ну ты даёшь",
        "а ты сам что любишь?",
        "что вы сами пьёте?",
    ],
)
def test_a_reaction_is_small_talk(text: str) -> None:
    assert read(text).kind is MessageKind.smalltalk


@pytest.mark.parametrize("text", ["норм, а подешевле?", "ого, а белое есть?"])
def test_a_reaction_before_a_change_is_still_the_change(text: str) -> None:
    assert read(text).kind is MessageKind.request


async def test_the_request_goes_on_after_a_reaction(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(481, "красное сухое к стейку")
        aside = await chat.turns.answer(481, "ого, круто")
        then = await chat.turns.answer(481, "а подешевле?")
    assert first.wines and not aside.wines
    cheaper = await wines_by_id(seeded, [w.id for w in then.wines])
    assert cheaper and all(w.wine_type.value == "red" for w in cheaper.values())
    assert max(w.price_rub for w in cheaper.values()) < min(w.price_rub for w in first.wines)
