"""«Что из белого?», «что к нему из вин?» asks which wine, by the colour it comes from: a
request for picks, not a question for the knowledge base (issue 40)."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


@pytest.mark.parametrize(
    "text",
    [
        "На горячее будет утка. Что к ней из красного?",
        "жарю сибаса, что к нему из белых вин?",
        "а что из игристого к устрицам?",
    ],
)
def test_which_from_a_colour_asks_for_picks(text: str) -> None:
    assert read(text).kind is MessageKind.request


def test_a_question_about_a_place_stays_a_question() -> None:
    assert read("что из вин делают в Бордо?").kind is MessageKind.wine_question
