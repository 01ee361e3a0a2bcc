"""Facts by their shape, the tenth round: a house's title, ownership said with a common noun, a
lower-case hyphenated name, an altitude, a distance or an area in words, a grape-like word in an
English sentence, the place a standing holds in, and stories of the wine's past.

Stories (decided by the grounding rule: a fact about the wine's history is a claim, whoever is
in it): a story told with common nouns only («его подавали на свадьбе принца», «пили при
царском дворе», «назван в честь мельницы») stands only when the wine's own words tell a story
of the same kind (served, named after, hidden, invented, saved, carried, kept secret, once)
with the same people or things in it; one with a name in it («любимое вино Черчилля») is held
to the wine's words by that name as well. Advice in the present («его подают к рыбе») tells no
story.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands


def _maremma() -> Facts:
    return facts_of(
        "Tenuta Poggio Lungo Morellino di Scansano",
        "Tenuta Poggio Lungo",
        "Италия",
        ("Тоскана", "Morellino di Scansano DOCG"),
        ("санджовезе",),
        WineType.red,
        Sweetness.dry,
        "Tenuta Poggio Lungo Morellino di Scansano. Тенута Поджо Лунго — одна из старейших "
        "тенут Мареммы, которой с 1950-х годов владеет семья Бруни. Виноградники лежат на "
        "высоте около трёхсот метров над морем, в нескольких километрах от побережья. Вино "
        "названо в честь старой мельницы на холме. Санджовезе выдерживается в крупных бочках.",
        vintage=2021,
        price=Decimal(1900),
    )


def _loire() -> Facts:
    return facts_of(
        "Domaine des Trois Sables Sancerre",
        "Domaine des Trois Sables",
        "Франция",
        ("Долина Луары", "Sancerre AOC"),
        ("совиньон блан",),
        WineType.white,
        Sweetness.dry,
        "Domaine des Trois Sables Sancerre. Домен Труа Сабль — крупнейший владелец "
        "виноградников в Сансере и часть кооператива виноделов Луары. Его совиньон подавали "
        "на приёмах в президентском дворце. Участки площадью в сорок гектаров лежат на "
        "кремнистых склонах.",
        vintage=2022,
        price=Decimal(3400),
    )


MAREMMA = {
    "a house's title": [
        ("Тенута Поджо Лунго — одна из старейших в Маремме.", True),
        ("Санджовезе от тенуты Поджо Лунго.", True),
        ("Шато Поджо Лунго — одна из старейших в Маремме.", False),
        ("Санджовезе от домена Поджо Лунго.", False),
        ("Бодега Поджо Лунго делает морелино.", False),
        ("Кинта Поджо Лунго делает морелино.", False),
    ],
    "ownership by a common noun": [
        ("Хозяйство принадлежит семье Бруни.", True),
        ("Хозяйством с 1950-х годов владеет одна семья.", True),
        ("Хозяйство принадлежит крупному винному концерну.", False),
        ("Тенута входит в международную группу.", False),
        ("Хозяйством владеет банк из Сиены.", False),
        ("The estate is owned by an investment fund.", False),
        ("Сегодня тенута в руках инвестиционного фонда.", False),
    ],
    "a lower-case hyphenated name": [
        ("Настоящее морелино-ди-скансано.", True),
        ("Санджовезе в духе брунелло-ди-монтальчино.", False),
        ("Санджовезе мягче, чем вино-нобиле-ди-монтепульчано.", False),
        ("Тосканское красное в стиле кьянти-руфина.", False),
        ("Тёмно-рубиновое санджовезе.", True),
    ],
    "an altitude or a distance in words": [
        ("С виноградников на высоте около трёхсот метров.", True),
        ("С виноградников в нескольких километрах от побережья.", True),
        ("С виноградников на высоте полукилометра над морем.", False),
        ("Виноградники в двух шагах от моря.", False),
        ("Лозам здесь по полвека.", False),
        ("Vineyards a mile from the sea.", False),
    ],
    "a standing's place": [
        ("Одна из старейших тенут Мареммы.", True),
        ("Старейшая тенута Мареммы.", True),
        ("Старейшая тенута Тосканы.", False),
        ("Старейшее хозяйство Италии.", False),
        ("The oldest estate in Tuscany.", False),
        ("Tuscany's oldest estate.", False),
        ("Maremma's oldest estate.", True),
    ],
    "stories": [
        ("Вино названо в честь старой мельницы.", True),
        ("Вино названо в честь местного пастуха.", False),
        ("Его подавали на свадьбе принца.", False),
        ("В войну семья прятала вино от солдат.", False),
        ("Его подают к пасте с мясным рагу.", True),
        ("Его подавали в посольствах.", False),
        ("В тенуте не раз останавливался король.", False),
    ],
}

LOIRE = {
    "a house's title": [
        ("Домен Труа Сабль из Сансера.", True),
        ("Шато Труа Сабль из Сансера.", False),
        ("Кантина Труа Сабль из Сансера.", False),
    ],
    "ownership by a common noun": [
        ("Домен — часть кооператива виноделов Луары.", True),
        ("Домен принадлежит кооперативу.", True),
        ("Домен принадлежит семье виноделов.", False),
        ("Домен входит в крупный холдинг.", False),
    ],
    "a lower-case hyphenated name": [
        ("Совиньон блан в стиле пуйи-фюме.", False),
        ("Свежий совиньон, как у сен-бри.", False),
        ("A sancerre with a pouilly-sur-loire feel.", False),
    ],
    "an area in words": [
        ("Участки площадью в сорок гектаров.", True),
        ("Участки площадью в сотню акров.", False),
    ],
    "a grape-like word in English": [
        ("Sauvignon blanc from Sancerre.", True),
        ("Sauvignon blanc with a splash of romorantin.", False),
        ("Sauvignon blanc with a hint of citrus.", True),
        ("Sauvignon blanc blended with a little sauvignon gris.", False),
        ("Sauvignon blanc rounded off with some melon de bourgogne.", False),
    ],
    "a standing's place": [
        ("Крупнейший владелец виноградников в Сансере.", True),
        ("Крупнейший владелец виноградников в Луаре.", False),
        ("The largest vineyard owner in France.", False),
    ],
    "stories": [
        ("Его совиньон подавали на приёмах в президентском дворце.", True),
        ("Его подавали на королевских приёмах.", False),
        ("Любимое вино президента.", False),
        ("Его возили на кораблях в Англию.", False),
        ("Рецепт держат в секрете.", False),
    ],
}


@pytest.mark.parametrize(
    ("kind", "sentence", "true"),
    [(kind, s, t) for kind, cases in MAREMMA.items() for s, t in cases],
)
def test_a_maremma_red(kind: str, sentence: str, true: bool) -> None:
    assert stands(_maremma(), sentence) is true, kind


@pytest.mark.parametrize(
    ("kind", "sentence", "true"),
    [(kind, s, t) for kind, cases in LOIRE.items() for s, t in cases],
)
def test_a_loire_white(kind: str, sentence: str, true: bool) -> None:
    assert stands(_loire(), sentence) is true, kind
