"""A vintage told from this year («прошлогоднего урожая», «урожай позапрошлого года») is a
year like any other, and a bottle's size without its unit («бутылка 0,375») a volume: each
stands only for a wine whose row says so (issue 40)."""

from __future__ import annotations

from datetime import date

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands


def _wine(vintage: int) -> Facts:
    return facts_of(
        "Costa Verde Tinto",
        "Quinta da Costa",
        "Португалия",
        ("Дору", "Douro DOC"),
        ("турига насьонал",),
        WineType.red,
        Sweetness.dry,
        "Сочное красное из долины Дору.",
        vintage=vintage,
    )


@pytest.mark.parametrize(
    ("sentence", "back"),
    [
        ("Это вино прошлогоднего урожая.", 1),
        ("Винтаж позапрошлого года, уже раскрылся.", 2),
        ("Совсем молодое: урожай этого года.", 0),
    ],
)
def test_a_vintage_told_from_this_year(sentence: str, back: int) -> None:
    this_year = date.today().year
    assert stands(_wine(this_year - back), sentence)
    assert not stands(_wine(this_year - back - 3), sentence)


def test_last_year_said_of_something_else_is_no_vintage() -> None:
    assert stands(_wine(2015), "В прошлом году его хвалили гости.")


def test_a_bottle_size_without_its_unit_is_a_volume() -> None:
    wine = facts_of(
        "Costa Verde Meia",
        "Quinta da Costa",
        "Португалия",
        ("Дору",),
        ("турига насьонал",),
        WineType.red,
        Sweetness.dry,
        "Сочное красное из долины Дору.",
        volume=0.75,
    )
    assert stands(wine, "Бутылка 0,75 — на компанию из четырёх.")
    assert not stands(wine, "Удобная бутылка 0,375 на двоих.")
