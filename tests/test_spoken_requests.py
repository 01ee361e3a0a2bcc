"""Requests said as a polite or a conditional question («какое бы вы выбрали?», «нельзя ли
что-нибудь…?») are requests, not questions for the knowledge base; the price of what was
shown said as a complaint or a wish («не, дорого», «а поскромнее?», «что-нибудь более доступное
по цене») asks for cheaper wines. Wordings of our own."""

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


@pytest.mark.parametrize(
    "text",
    [
        "хм, дорого",
        "а поскромнее есть?",
        "что-нибудь более доступное по цене",
        "а не такое дорогое?",
        "ну а попроще?",
    ],
)
def test_the_price_said_as_a_complaint_asks_for_cheaper(text: str) -> None:
    reading = read(text)
    assert reading.message.kind is MessageKind.request
    assert reading.followup.cheaper and not reading.followup.dearer


@pytest.mark.parametrize(
    "text",
    [
        "хочу что-нибудь дорогое",
        "попроще по телу",
        "не дороже 2000",
        "можно и дорого, это на юбилей",
        "пусть дорого, лишь бы вкусно",
        "подороже, не страшно если дорого",
    ],
)
def test_dear_wine_lighter_body_and_a_bound_are_not_cheaper(text: str) -> None:
    assert not read(text).followup.cheaper


@pytest.mark.parametrize("text", ["а красное какое?", "а из белых какое?", "и сухое у них какое?"])
def test_a_refinement_that_asks_which_is_a_request(text: str) -> None:
    assert read(text).message.kind is MessageKind.request


@pytest.mark.parametrize("text", ["крымские вина какие", "херес это вино какое?"])
def test_asking_what_wines_are_like_stays_a_question(text: str) -> None:
    assert read(text).message.kind is MessageKind.wine_question
