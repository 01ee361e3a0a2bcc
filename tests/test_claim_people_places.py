"""Names, places and worded measures a fluent model slips into a card's reason: a first name
beside the house's family name, a place the row holds written in a case, a hyphenated region,
a sentence opened by «Этот», a biography, a number in an oblique case. Each sentence stands
only when the wine's row or its own words bear out every name and number in it.
"""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

OWN_WORDS = (
    "Семья Бальдуччи делает вино в долине с 1902 года. Виноград подвяливают на решётках перед "
    "брожением. Аромат вишни и сушёных трав."
)


def _wine() -> Facts:
    return facts_of(
        "Balducci Rosso Appassito",
        "Balducci",
        "Италия",
        ("Трентино-Альто-Адидже", "Südtirol DOC"),
        ("лагрейн",),
        WineType.red,
        Sweetness.dry,
        OWN_WORDS,
        vintage=2020,
    )


def kept(sentence: str) -> bool:
    return stands(_wine(), sentence)


CASES = {
    "person beside the family name": [
        ("Семья Бальдуччи делает это вино с 1902 года.", True),
        ("Вино сделано Винодельней Бальдуччи.", True),
        ("Семья Бальдуччи, где Марко Бальдуччи основал дом в 1902 году, сушит виноград.", False),
        ("Джузеппе Бальдуччи начал делать вино в 1902 году.", False),
    ],
    "place the row holds, in any case": [
        ("Лагрейн 2020 года из Трентино-Альто-Адидже.", True),
        ("Это вино родом из Трентино-Альто-Адидже, с лагрейна.", True),
        ("Лагрейн 2020 года из Венето-Фриули.", False),
    ],
    "a sentence opened by a pointing word": [
        ("Этот Бальдуччи 2020 года пахнет вишней и сушёными травами.", True),
        ("Этот Мазетти 2020 года пахнет вишней.", False),
    ],
    "a biography": [
        ("Семья Бальдуччи делает вино с 1902 года, аромат вишни.", True),
        ("Бальдуччи, бывший банкир, делает это вино с 1902 года.", False),
    ],
    "a number in words, in an oblique case": [
        ("Виноград подвяливают на решётках перед брожением.", True),
        ("Виноград подвяливают около ста дней на решётках.", False),
        ("Виноград подвяливают сто двадцать дней.", False),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "true"),
    [case for cases in CASES.values() for case in cases],
    ids=[f"{kind}: {sentence}" for kind, cases in CASES.items() for sentence, _ in cases],
)
def test_a_sentence_stands_only_when_the_wine_bears_out_every_name(
    sentence: str, true: bool
) -> None:
    assert kept(sentence) is true


@pytest.mark.parametrize(
    ("sentence", "true"),
    [
        ("Делают его итальянцы, и это чувствуется.", True),
        ("Его делают французы.", False),
        ("Работа бургундцев из маленького хозяйства.", False),
        ("Вино от грузин с Алазани.", False),
        ("Молодец, а не вино!", True),
    ],
)
def test_a_place_said_by_its_people(sentence: str, true: bool) -> None:
    assert kept(sentence) is true
