"""Facts by their shape, the ninth round: a standing or a decade said in English, an English
sentence's first word, a house's title written in Cyrillic, a century after a title, names
given as what a thing is called («он же …», «known as …»), a grape spelt otherwise, a place
named by an adjective the dictionary knows («альпийских склонов»), where a place stands («самый
высокий виноградник»), critics, juries and guides as awards, counts of tens and parts by an
ordinal, vessels other than oak. Each sentence stands only when the wine's row or its own words
bear out every one.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

_ATLANTIC_OWN_WORDS = (
    "Vilar do Mar Albariño. Бодега Vilar do Mar с 1980-х годов работает на атлантическом "
    "побережье Галисии и считается старейшей винодельней долины Сальнес. Альбариньо полгода "
    "выдерживается в бетонных чанах. Погреба хозяйства устроены в бывшем монастыре XVIII века."
)


def _atlantic() -> Facts:
    return facts_of(
        "Vilar do Mar Albariño",
        "Bodega Vilar do Mar",
        "Испания",
        ("Галисия", "Rías Baixas DO"),
        ("альбариньо",),
        WineType.white,
        Sweetness.dry,
        _ATLANTIC_OWN_WORDS,
        vintage=2022,
        price=Decimal(2100),
    )


def _alpine() -> Facts:
    return facts_of(
        "Clos des Pins Rosé",
        "Clos des Pins",
        "Франция",
        ("Прованс", "Côtes de Provence AOC"),
        ("гренаш", "синсо", "роль"),
        WineType.rose,
        Sweetness.dry,
        "Clos des Pins Rosé. Хозяйство семьи Лоран лежит у подножия Альп, на самом высоком "
        "винограднике Прованса. Критики журнала Vinum не раз отмечали его розовое. Вино делает "
        "William Laurent.",
        vintage=2023,
        price=Decimal(2600),
    )


ATLANTIC = {
    "a standing said in English": [
        ("The oldest winery of the Salnés valley.", True),
        ("The largest winery of the Salnés valley.", False),
        ("Galicia's oldest winery.", False),  # the oldest of a valley in it
        ("One of Spain's best-selling albariños.", False),
    ],
    "a decade said in English": [
        ("Made in Galicia since the 1980s.", True),
        ("Made in Galicia since the 1960s.", False),
        ("Made in Galicia since the eighties.", True),
        ("Made in Galicia since the seventies.", False),
    ],
    "an English sentence's first word": [
        ("From the Salnés valley in Galicia.", True),
        ("With six months in concrete, from Galicia.", True),
        ("From Bodega Vilar do Mar, in Galicia.", True),
        ("From Bodega Pazo Baión, in Galicia.", False),
    ],
    "a house's title in Cyrillic": [
        ("Альбариньо бодеги из Галисии.", True),
        ("Альбариньо бодеги Вилар-ду-Мар из Галисии.", True),
        ("Альбариньо кантины Вилар-ду-Мар из Галисии.", False),  # a title not its own
        ("Альбариньо бодеги Пасо-Сеньоранс из Галисии.", False),
    ],
    "a century after a title": [
        ("Дом конца XX века с атлантического побережья.", True),
        ("Дом конца XIX века с атлантического побережья.", False),
    ],
    "cellars are no cellaring advice": [
        ("Its cellars sit in a former monastery.", True),
        ("Worth cellaring for ten years.", False),
    ],
    "a place named by an adjective the dictionary knows": [
        ("Альбариньо с атлантического побережья.", True),
        ("Альбариньо, которому атлантические бризы дают свежесть.", True),
        ("Альбариньо с альпийских склонов.", False),
        ("Альбариньо, выросшее на пиренейских склонах.", False),
        ("Альбариньо к средиземноморской кухне.", True),
        ("Альбариньо, которому морские бризы дают свежесть.", True),
    ],
    "names given as what a thing is called": [
        ("Альбариньо, который в Португалии зовут альвариньо.", False),
        ("Альбариньо — его ещё называют рейнским рислингом Испании.", False),
        ("Альбариньо, он же шардоне Атлантики.", False),
    ],
    "critics, juries and guides": [
        ("Альбариньо, любимое критиками.", False),
        ("Альбариньо, трижды отмеченное жюри в Мадриде.", False),
        ("Альбариньо с высшей оценкой гида Пеньина.", False),
        ("Альбариньо с тремя бокалами в гиде.", False),
        ("Бодега — поставщик королевского двора.", False),
    ],
    "counts of tens and parts by an ordinal": [
        ("Лозам здесь три десятка лет.", False),
        ("Альбариньо, где лоурейру не больше пятой части.", False),
        ("Альбариньо, выдержанное полгода в бетоне.", True),
    ],
    "vessels other than oak": [
        ("Альбариньо полгода в бетонных чанах.", True),
        ("Альбариньо, год в бетоне.", True),
    ],
}

ALPINE = {
    "a grape spelt otherwise": [
        ("Купаж гренаша, синсо и ролля.", True),
        ("Купаж гренаша, синсо и тибурена.", False),
    ],
    "a place named by an adjective the dictionary knows": [
        ("Розовое с альпийских склонов Прованса.", True),
        ("Розовое с андских склонов.", False),
        ("Розовое, которое дышит прохладой альпийских ледников.", True),
    ],
    "where a place stands": [
        ("Розовое с самого высокого виноградника Прованса.", True),
        ("Розовое с высочайших виноградников Прованса.", True),
        ("Розовое с самого южного виноградника Прованса.", False),
        ("Rosé from the highest vineyard in Provence.", True),
        ("Rosé from the southernmost vineyard in Provence.", False),
        ("Rosé from Provence's southernmost vineyard.", False),
    ],
    "a name across alphabets, Latin with accents": [
        ("Розовое от Уильяма Лорана.", True),
        ("Розовое от Уильяма Бертрана.", False),
        ("Розовое из гренаша с каплей rolle.", True),
        ("Розовое из гренаша с каплей tibouren.", False),
        ("Розовое из гренаша с каплей tibourén.", False),
    ],
    "vessels other than oak": [
        ("Розовое, год в бетоне.", False),
        ("Розовое, полгода в стали.", False),
    ],
    "critics, juries and guides": [
        ("Розовое, которое любят критики.", True),
        ("Розовое, которое не раз отмечали критики.", True),
    ],
}


@pytest.mark.parametrize(
    ("kind", "sentence", "true"),
    [(kind, s, t) for kind, cases in ATLANTIC.items() for s, t in cases],
)
def test_an_atlantic_white(kind: str, sentence: str, true: bool) -> None:
    assert stands(_atlantic(), sentence) is true, kind


@pytest.mark.parametrize(
    ("kind", "sentence", "true"),
    [(kind, s, t) for kind, cases in ALPINE.items() for s, t in cases],
)
def test_an_alpine_rose(kind: str, sentence: str, true: bool) -> None:
    assert stands(_alpine(), sentence) is true, kind
