"""Each kind of claim a sentence under a card can make, true and false, in several wordings: a
sentence stands only when the wine's row or its own words bear out every claim in it.
"""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from core.language.claim_grapes import foods_of
from core.language.claims import read_claims
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

OWN_WORDS = (
    "Bodegas Altamira основана в 1898 году в городке Эльсиего. Купаж с преобладанием "
    "темпранильо, виноград собирают вручную. Резерва выдерживается около восемнадцати месяцев "
    "в бочках из американского дуба, а затем ещё два года в бутылке. Вино отмечено золотой "
    "медалью. Аромат вишни, ванили и шоколада."
)


def _wine() -> Facts:
    return facts_of(
        "Altamira Reserva",
        "Bodegas Altamira",
        "Испания",
        ("Риоха",),
        ("темпранильо", "гренаш"),
        WineType.red,
        Sweetness.dry,
        OWN_WORDS,
        vintage=2019,
        foods=foods_of(("стейк из говядины", "баранина", "выдержанные сыры")),
        body=4,
    )


def kept(sentence: str) -> bool:
    return stands(_wine(), sentence)


CASES = {
    "producer": [
        ("Его делает Bodegas Altamira.", True),
        ("Вино выпускает хозяйство Альтамира.", True),
        ("Его делает винодельня Muga.", False),
        ("Это вино от Marqués de Murrieta.", False),
        ("Хозяйство основали братья Хуан и Педро Альтамира.", False),
    ],
    "country and region": [
        ("Родом из Испании, из Риохи.", True),
        ("Это не французское вино, а испанское.", True),
        ("Это вино не из Испании.", False),
        ("Виноград собран в Наварре.", False),
        ("Выдержано в бочках из американского дуба.", True),
        ("Выдержано во французском дубе.", False),  # the oak's origin, not the wine's
        ("Это темпранильо из Бордо.", False),
    ],
    "grape": [
        ("Купаж темпранильо и гарначи.", True),
        ("В купаже нет мерло.", True),
        ("В основе — темпранильо с добавлением гренаша.", True),
        ("С преобладанием темпранильо.", True),
        ("С преобладанием гренаша.", False),
        ("Купаж темпранильо и грасиано.", False),
        ("Чистый темпранильо.", False),
        ("В купаже нет гренаша.", False),
        ("Купаж темпранильо и мазуэло.", False),  # a grape the vocabulary does not know
        ("Вино из двух сортов.", True),
        ("Вино из трёх сортов.", False),
    ],
    "vintage and history": [
        ("Урожай 2019 года.", True),
        ("Урожай 2017 года.", False),
        ("Хозяйство основано в 1898 году.", True),
        ("Хозяйство основано в тысяча восемьсот девяносто восьмом году.", True),
        ("Хозяйство основано в тысяча девятьсот двадцатом году.", False),
        ("Хозяйство старше этого урожая на 121 год.", True),
        ("Хозяйство старше этого урожая на 150 лет.", False),
    ],
    "ageing": [
        ("Выдерживается около восемнадцати месяцев в американском дубе.", True),
        ("Выдержка — 18 месяцев в бочках.", True),
        ("Выдерживается двадцать четыре месяца в дубе.", False),
        ("Вино не видело дуба.", False),
        ("Без выдержки в бочках, чтобы сохранить фрукт.", False),
        ("Выдерживается не менее восемнадцати месяцев в дубе.", True),
        ("Ещё два года вино отдыхает в бутылке.", True),
        ("Вино 5 лет отдыхает в погребе.", False),
        ("Вино можно хранить ещё лет пять.", False),
    ],
    "alcohol and numbers": [
        ("Крепость 14 %.", False),
        ("В нём четырнадцать градусов.", False),
        ("Виноградники лежат на высоте полутора тысяч метров.", False),
        ("Возьмите две бутылки: хватит на компанию.", True),  # a count of bottles, no claim
    ],
    "award": [
        ("Вино отмечено золотой медалью.", True),
        ("Вино получило 95 баллов Паркера.", False),
    ],
    "label and method": [
        ("Это резерва.", True),
        ("Это гран резерва.", False),
        ("Это крианса.", False),
        ("Вино сделано из подвяленного винограда.", False),
        ("Это риоха категории смарагд.", False),
        ("Виноград собирают вручную.", True),
        ("Вино из органического винограда.", False),
        ("Вино нефильтрованное, веганское.", False),
    ],
    "colour, sweetness and body": [
        ("Сухое красное.", True),
        ("Полусладкое красное.", False),
        ("Это не сладкое вино.", True),
        ("Насыщенное, плотное красное.", True),
        ("Лёгкое красное вино для жаркого дня.", False),
        ("Это не лёгкое вино.", True),
        ("Это не тяжёлое вино.", False),
    ],
    "food": [
        ("Подойдёт к стейку и баранине.", True),
        ("Хорошо к мясу.", True),
        ("Подайте к выдержанным сырам.", True),
        ("Подойдёт к устрицам.", False),
        ("Хорошо с баранины и белой рыбы.", False),
        ("Подойдёт к баранине, сыру и суши.", False),
        ("В аромате вишня, ваниль и шоколад.", True),  # an aroma, not a dish
    ],
}


@pytest.mark.parametrize(
    ("kind", "sentence", "true"),
    [(kind, sentence, true) for kind, rows in CASES.items() for sentence, true in rows],
)
def test_a_sentence_stands_only_when_every_claim_in_it_holds(
    kind: str, sentence: str, true: bool
) -> None:
    assert kept(sentence) is true, (kind, sentence, read_claims(sentence))
