"""Claims as a chat model writes them under a card, the twelfth round: a sweetness said of a
grape after other adjectives («совершенно сухой мозельский рислинг») or of the taste
(«с мягким сладковатым вкусом»); a dish of the wine's own pairings named in the prose («к
эмпанадас»); a story named after a number of years, not the soldiers of the wine's own words.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands


def _semi_dry_riesling() -> Facts:
    return facts_of(
        "Weingut Berg Riesling",
        "Weingut Berg",
        "Германия",
        ("Мозель",),
        ("рислинг",),
        WineType.white,
        Sweetness.semi_dry,
        "Weingut Berg Riesling. Мозельский рислинг с небольшой сладостью и ароматом лайма.",
    )


def _brut() -> Facts:
    return facts_of(
        "Colle Verde Prosecco Brut",
        "Colle Verde",
        "Италия",
        ("Венето",),
        ("глера",),
        WineType.sparkling,
        Sweetness.dry,
        "Colle Verde Prosecco Brut. Вкус лёгкий, сухой, с живыми пузырьками.",
    )


def _malbec() -> Facts:
    return facts_of(
        "Finca Alta Malbec",
        "Finca Alta",
        "Аргентина",
        ("Мендоса",),
        ("мальбек",),
        WineType.red,
        Sweetness.dry,
        "Finca Alta Malbec. Сочный мальбек со сливой и фиалкой.",
        ("эмпанадас", "стейк"),
        price=Decimal(1500),
    )


def _line_120() -> Facts:
    return facts_of(
        "Viña Roja 120 Carmenere",
        "Viña Roja",
        "Чили",
        ("Центральная долина",),
        ("карменер",),
        WineType.red,
        Sweetness.dry,
        "Viña Roja 120 Carmenere. Линейка названа в честь 120 солдат, укрывшихся в погребах "
        "поместья в 1814 году.",
    )


@pytest.mark.parametrize(
    ("facts", "sentence", "true"),
    [
        (_semi_dry_riesling, "Совершенно сухой мозельский рислинг с ароматом лайма.", False),
        (_semi_dry_riesling, "Мозельский рислинг с небольшой сладостью.", True),
        (_brut, "Просекко с мягким сладковатым вкусом и живыми пузырьками.", False),
        (_brut, "Просекко с лёгким сухим вкусом и живыми пузырьками.", True),
    ],
)
def test_a_sweetness_said_of_the_grape_or_the_taste_is_held_to_the_row(
    facts: object, sentence: str, true: bool
) -> None:
    assert stands(facts(), sentence) is true  # type: ignore[operator]


def test_a_dish_of_the_wines_own_pairings_is_no_unknown_name() -> None:
    assert stands(_malbec(), "Сочный мальбек из Мендосы, подайте его к эмпанадас.")
    assert not stands(_malbec(), "Сочный мальбек из Мендосы, подайте его к фейжоаде.")


@pytest.mark.parametrize(
    ("sentence", "true"),
    [
        ("Линейка названа в честь ста двадцати лет истории поместья.", False),
        ("Линейка названа в честь ста двадцати солдат.", True),
    ],
)
def test_a_story_is_about_what_it_is_named_after_not_its_number(sentence: str, true: bool) -> None:
    assert stands(_line_120(), sentence) is true
