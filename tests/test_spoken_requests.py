"""Requests said as a polite or a conditional question («какое бы вы выбрали?», «нельзя ли
что-нибудь…?») are requests, not questions for the knowledge base. Wordings of our own."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


@pytest.mark.parametrize(
    "text",
    [
        "а вы бы что взяли к запечённой форели?",
        "какое бы вы открыли на годовщину?",
        "что бы вы посоветовали к плову?",
        "нельзя ли подобрать что-то к сырной тарелке?",
        "можно ли мне показать что-нибудь грузинское?",
    ],
)
def test_asking_the_bot_to_pick_is_a_request(text: str) -> None:
    assert read(text).message.kind is MessageKind.request


@pytest.mark.parametrize(
    "text",
    ["можно ли красное к лососю?", "что такое брют?", "почему вино бывает мутным?"],
)
def test_questions_about_wine_stay_questions(text: str) -> None:
    assert read(text).message.kind is MessageKind.wine_question
