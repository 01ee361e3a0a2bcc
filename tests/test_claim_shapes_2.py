"""Facts by their shape, the eighth round: a wrong fact as the only word of a short sentence
(«Паарл.»), a name in capitals, after emoji or markdown, a borrowed name written in lower
case («напоминает кьянти»), names heard across alphabets but not within one («Кача» is no
«козий»), what a wine was aged in, a price as a bound or a round figure, a sum without its
currency, short years and decades in digits, a flag, a group of countries, still and orange
wine, and the label's small claims (kosher, limited, cork, gift box). Each sentence stands only
when the wine's row or its own words bear out every one.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from services.agent._safety import states_wrong_price
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

_OWN_WORDS = (
    "Viña Los Robles Carmenère. Хозяйство работает в долине Колчагуа с 1870-х годов и "
    "поставляет вино в Casa Grande. Карменер частично выдерживается во французском дубе, "
    "остальное — в стали. Флагманское красное семьи Ортис. Аромат ежевики, перца и кедра."
)


def _red() -> Facts:
    return facts_of(
        "Viña Los Robles Carmenère",
        "Viña Los Robles",
        "Чили",
        ("Центральная долина", "Valle Central DO"),
        ("карменер",),
        WineType.red,
        Sweetness.dry,
        _OWN_WORDS,
        vintage=2021,
        price=Decimal(1900),
        body=4,
    )


def _cava() -> Facts:
    return facts_of(
        "Roca Brut Nature",
        "Caves Roca",
        "Испания",
        ("Каталония", "Cava DO"),
        ("макабео", "шарелло", "парельяда"),
        WineType.sparkling,
        Sweetness.dry,
        "Roca Brut Nature. Caves Roca из Сант-Садурни делает каву классическим методом.",
        price=Decimal(1100),
    )


CASES = {
    "a lone first word": [
        ("Колчагуа.", True),
        ("Карменер. Колчагуа.", True),
        ("Карменер. Майпо.", False),
        ("Регион: Лейда.", False),
        ("Тельность плотная, танины мягкие.", True),
        ("Чилийское, сухое.", True),
    ],
    "capitals, emoji and markdown": [
        ("КОЛЧАГУА, карменер.", True),
        ("Карменер из ЛЕЙДЫ.", False),
        ("ОЧЕНЬ ВКУСНОЕ красное.", True),
        ("🍷 Колчагуа, карменер.", True),
        ("🍷 Сочное и пряное.", True),
        ("**Майпо**, карменер.", False),
    ],
    "a borrowed name in lower case": [
        ("Карменер, по стилю напоминает кьянти.", False),
        ("Карменер, по стилю напоминает шабли.", False),
    ],
    "names heard within and across alphabets": [
        ("Вино Винья Лос Роблес.", True),
        ("Поставляют в Каса Гранде.", True),
        ("Карменер из долины реки Кача.", False),
        ("Вино с виноградников Перу.", False),
    ],
    "what the wine was aged in": [
        ("Частично выдерживается во французском дубе.", True),
        ("Часть вина выдержана в стали.", True),
        ("Полностью выдержан в новом дубе.", False),
        ("Выдержан в новых бочках.", False),
        ("Выдержка в американских бочках, частично.", False),
        ("Частично выдержан в барриках.", False),
        ("Частично в дубе, и ещё год в бутылке.", False),
    ],
    "a year said with «с»": [
        ("Хозяйство работает с 1870-х.", True),
        ("Поставляет вино с 1870-х.", True),
        ("Хозяйство работает с 1890-х.", False),
        ("Хозяйство работает с 1990 года.", False),
    ],
    "a short year in digits": [
        ("Урожай 21 года.", True),
        ("Винтаж '21.", True),
        ("Урожай 19 года.", False),
        ("Винтаж '19.", False),
    ],
    "a sum without its currency": [
        ("Стоит 1900.", True),
        ("Цена — около 2000.", True),
        ("За 1,9 тыс.", True),
        ("Стоит 2500.", False),
        ("За 2,5 тыс.", False),
        ("Карменер, около двух тысяч.", True),
        ("Карменер, около трёх тысяч.", False),
    ],
    "a flag or a group of countries": [
        ("🇨🇱 Карменер.", True),
        ("🇦🇷 Карменер.", False),
        ("Вино Нового Света.", True),
        ("Сделано в Европе.", False),
    ],
    "style words": [
        ("Слабоигристое красное.", False),
        ("Оранжевое вино из карменера.", False),
        ("Безалкогольное.", False),
        ("Полбутылки на двоих.", False),
    ],
    "small claims of the label": [
        ("Флагман семьи Ортис.", True),
        ("Флагман Concha y Toro.", False),
        ("Кошерное.", False),
        ("Лимитированная серия.", False),
        ("Под натуральной пробкой.", False),
        ("В подарочной коробке.", False),
        ("Откройте за час до подачи.", False),
        ("Сахара 2 г/л.", False),
        ("Танины — 4 из 5.", False),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "true"),
    [case for cases in CASES.values() for case in cases],
    ids=[f"{kind}: {sentence}" for kind, cases in CASES.items() for sentence, _ in cases],
)
def test_a_sentence_stands_only_when_the_wine_bears_out_what_its_shape_says(
    sentence: str, true: bool
) -> None:
    assert stands(_red(), sentence) is true


SPARKLING = [
    ("Кава классическим методом из Сант-Садурни.", True),
    ("Игристое брют натюр.", True),
    ("Тихое вино из Каталонии.", False),
    ("Кава без единого пузырька.", False),
]


@pytest.mark.parametrize(("sentence", "true"), SPARKLING, ids=[s for s, _ in SPARKLING])
def test_a_still_wine_is_not_said_of_a_sparkling_one(sentence: str, true: bool) -> None:
    assert stands(_cava(), sentence) is true


PRICES = [
    ("Дешевле двух тысяч рублей.", True),
    ("Не дороже 2000 ₽.", True),
    ("Дороже 1500 ₽.", True),
    ("Около 2000 рублей.", True),
    ("Дешевле 1500 ₽.", False),
    ("Дороже 2500 ₽.", False),
    ("Около 2500 рублей.", False),
    ("Всего 1 ₽.", False),
]


@pytest.mark.parametrize(("sentence", "true"), PRICES, ids=[s for s, _ in PRICES])
def test_a_price_said_as_a_bound_or_a_round_figure_is_held_to_the_price(
    sentence: str, true: bool
) -> None:
    assert states_wrong_price(sentence, {Decimal(1900)}) is not true


def test_a_bound_is_no_price_when_no_wine_is_shown() -> None:
    assert states_wrong_price("Всё дешевле 5000 ₽.", set())
