"""A claim the prose makes about a wine stands only when the wine's own words make the same one
in the same relation: a rank or classification as a whole term said of this wine (not of the
wines it is compared with or its owner's other plots), a side of a place, an anniversary, an
award or an age in oak by its own words (not a word that merely contains them), a name by its
sound in either alphabet.
"""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from core.language.claims import read_claims
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

OWN_WORDS = (
    "Третье гран крю классе 1855 года, которое давно не уступает вторым крю соседней "
    "коммуны. Виноградники лежат на южных склонах гравийного холма. Семья Дюваль владеет "
    "также участками премье крю в Бургундии. Вино выдерживают 18 месяцев в дубовых бочках."
)


def _wine() -> Facts:
    return facts_of(
        "Château Belle Rive",
        "Taylor Hill",
        "Франция",
        ("Бордо",),
        ("каберне совиньон", "мерло"),
        WineType.red,
        Sweetness.dry,
        OWN_WORDS,
        vintage=2018,
    )


def kept(sentence: str) -> bool:
    return stands(_wine(), sentence)


@pytest.mark.parametrize(
    ("sentence", "true"),
    [
        # ranks of a classification: the wine's own rank, in any wording
        ("Это третье гран крю классе.", True),
        ("Шато входит в третьи крю классификации 1855 года.", True),
        ("Хозяйство относится к третьему крю.", True),
        ("Это второе гран крю классе.", False),
        ("Шато входит во вторые крю.", False),
        ("Официально это первое гран крю.", False),
        # a rank named only for what the wine is compared with
        ("По качеству оно не уступает вторым крю.", True),
        ("Вино соперничает со вторыми крю.", True),
        # a classification the owner holds elsewhere is not the wine's
        ("Семья владеет участками премье крю.", True),
        ("Это вино премье крю.", False),
        ("Перед вами премьер крю из Бордо.", False),
        # the side of a place
        ("Виноград растёт на южных склонах.", True),
        ("Виноградники на южном склоне холма.", True),
        ("Виноград собран с северных склонов.", False),
        ("Лозы растут на восточном склоне холма.", False),
        # an anniversary is history the own words must hold
        ("Вино выпущено к сотой годовщине хозяйства.", False),
        ("Бутылку выпустили к юбилею шато.", False),
        # ageing and awards by whole words: «бочках» holds no «очки»
        ("Вино выдерживают в дубовых бочках.", True),
        ("Выдержка — 18 месяцев в дубе.", True),
        ("Вино получило золотую медаль.", False),
        ("Критики дали ему 95 очков.", False),
        # a name by its sound: «Тэйлор Хилл» is Taylor Hill
        ("Его делает «Тэйлор Хилл».", True),
        ("Его делает «Тэйлор Вэлли».", False),
    ],
)
def test_a_claim_stands_only_in_the_relation_the_wine_s_words_give_it(
    sentence: str, true: bool
) -> None:
    assert kept(sentence) is true, read_claims(sentence)
