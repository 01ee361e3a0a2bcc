"""«Не сладкое», «not sweet»: no sugar to speak of — dry or semi-dry — for the rest of the
conversation, not a step drier than the wines shown (as «не такое сладкое», «менее сладкое»,
«not too sweet» are). The spoken «тока» / «ток» («только») is no Tokaji. Wordings of our own."""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from core.language.followups import read_followup
from core.language.request import parse_query
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat

NOT_SWEET = {Sweetness.dry, Sweetness.semi_dry}


@pytest.mark.parametrize(
    ("text", "not_sweet"),
    [
        ("лишь бы не сладкое", True),
        ("и чтобы не сладкое было", True),
        ("not sweet please", True),
        ("не слишком сладкое", False),
        ("менее сладкое", False),
        ("not too sweet", False),
    ],
)
def test_not_sweet_is_told_from_a_step_drier(text: str, not_sweet: bool) -> None:
    followup = read_followup(text)
    assert followup.not_sweet is not_sweet
    assert followup.drier


@pytest.mark.parametrize("text", ["ток красное", "тока сухое из испании"])
def test_spoken_only_is_no_tokaji(text: str) -> None:
    assert parse_query(text).filters.region is None


async def test_not_sweet_holds_for_the_turns_after(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await _ask(chat, 4401, "вино к фруктам")
        second = await _ask(chat, 4401, "лишь бы не сладкое")
        third = await _ask(chat, 4401, "а с пузырьками есть?")
    assert second.wines and third.wines
    assert {w.sweetness for w in second.wines} <= NOT_SWEET
    assert {w.sweetness for w in third.wines} <= NOT_SWEET
    assert {w.wine_type for w in third.wines} == {WineType.sparkling}
