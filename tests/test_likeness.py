"""«Такое же, но …», «что-нибудь подобное», «the same but cheaper»: a wine like the ones just
shown, and a clause of filler words that opens it is not taken off as a greeting would be.
Wordings of our own."""

from __future__ import annotations

import pytest

from core.language.followups import asks_similar
from core.language.reading import read


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
