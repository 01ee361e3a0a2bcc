"""«А его розовое?», «белое у них есть?», «their white?»: after a maker's wines were named, a
pronoun for the maker keeps them while another colour is asked. Wordings of our own."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.followups import read_followup
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    ("text", "same"),
    [
        ("а их белое как?", True),
        ("а у этого производителя розовое есть?", True),
        ("игристое от них бывает?", True),
        ("their red?", True),
        ("а белое есть?", False),
        ("их много?", False),
    ],
)
def test_a_pronoun_for_the_maker_is_read(text: str, same: bool) -> None:
    assert read_followup(text).same_maker is same


async def test_the_makers_other_colour(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4601, "что есть от Tbilvino?")
        second = await _ask(chat, 4601, "а белое у них какое?")
    assert first.wines and second.wines
    assert {w.producer for w in second.wines} == {w.producer for w in first.wines}
    assert {w.wine_type for w in second.wines} == {WineType.white}


async def test_another_colour_without_the_pronoun_leaves_the_maker(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4602, "что есть от Tbilvino?")
        second = await _ask(chat, 4602, "а розовое есть?")
    assert second.wines
    assert {w.producer for w in second.wines}.isdisjoint({w.producer for w in first.wines})
