"""Dates, sums, places and names by their shape, however a sentence words them: a short year
(«урожая девятнадцатого года», «19-го»), a decade or a century («с тридцатых годов прошлого
века»), a bare sum at the end of a clause, an age said as an adjective («сорокалетние лозы»), a
range in words, a place by an adjective the dictionary lacks («алентежанских»), a term it lacks
(«с долей мукузани»), a name written in another alphabet («Кинта ду Вале Эскуру»), a Roman
numeral said as a word. Each sentence stands only when the wine's row or its own words bear out
every one.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineFilters, WineType
from core.language.claims import read_claims
from core.language.reading import read
from services.agent._grounding import Request
from services.agent._request_state import RequestState
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

OWN_WORDS = (
    "Quinta do Vale Escuro Reserva. Семья Мендеш основала кинту в 1932 году на террасах над "
    "Дору, у Пиньяна, и поставляла вино королю Карлушу I. Вино выдерживается двенадцать месяцев "
    "во французских бочках. Лозам около сорока лет. Аромат ежевики и фиалки."
)


def _wine() -> Facts:
    return facts_of(
        "Quinta do Vale Escuro Reserva",
        "Quinta do Vale Escuro",
        "Португалия",
        ("Дору", "Douro DOC"),
        ("турига насьональ", "тинта рориш"),
        WineType.red,
        Sweetness.dry,
        OWN_WORDS,
        vintage=2019,
        price=Decimal(2400),
    )


CASES = {
    "a short year": [
        ("Турига насьональ урожая девятнадцатого года.", True),
        ("Дору, урожай девятнадцатого.", True),
        ("тинта рориш 19-го, с террас над Дору.", True),
        ("Дору, урожай семнадцатого года.", False),
        ("тинта рориш 18-го, с террас над Дору.", False),
    ],
    "a year in words": [
        ("Кинту основали в тысяча девятьсот тридцать втором году.", True),
        ("Кинту основали в тысяча девятьсот двадцать втором году.", False),
    ],
    "a decade or a century": [
        ("Кинту основали в тридцатых годах прошлого века.", True),
        ("Семья Мендеш делает вино с тридцатых.", True),
        ("Кинту основали в прошлом веке, над Дору.", True),
        ("Кинту основали в пятидесятых.", False),
        ("Хозяйство работает с девятнадцатого века.", False),
        ("Хозяйство работает с позапрошлого века.", False),
        ("Кинту основали в XX веке, над Дору.", True),
        ("Хозяйство работает с XIX века.", False),
    ],
    "a bare sum at the end of a clause": [
        ("Дору, тинта рориш, две тысячи четыреста.", True),
        ("Дору, тинта рориш, две тысячи восемьсот.", False),
        ("Дору, тинта рориш, две с половиной тысячи.", False),
    ],
    "an age or a length said as an adjective": [
        ("Сорокалетние лозы над Дору.", True),
        ("Столетние лозы над Дору.", False),
        ("Трёхлетняя выдержка во французских бочках.", False),
        ("Лозам полвека, террасы над Дору.", False),
        ("Треть купажа — тинта рориш.", False),
        ("Дюжина месяцев во французских бочках.", True),
    ],
    "a range in words": [
        ("Двенадцать месяцев во французских бочках.", True),
        ("Лозам сорок–пятьдесят лет.", False),
        ("От десяти до двенадцати месяцев в бочках.", False),
    ],
    "a place by an adjective the dictionary lacks": [
        ("С пиньянских террас над Дору.", True),
        ("С алентежанских виноградников.", False),
        ("Турига насьональ, как у бэйрадских соседей.", False),
    ],
    "a term the dictionary lacks": [
        ("Турига насьональ с долей тинта рориш.", True),
        ("Турига насьональ с небольшой долей мукузани.", False),
        ("Выдержана по методу эштуфажен.", False),
        ("Купаж туриги насьональ и кастелау.", False),
    ],
    "a name written in another alphabet": [
        ("Кинта ду Вале Эскуру — семейное хозяйство над Дору.", True),
        ("Хозяйство Мендеш работает над Дору.", True),
        ("Кинта ду Вале Крашту — семейное хозяйство над Дору.", False),
        ("Хозяйство Мартинш работает над Дору.", False),
        ("Турига плотная, как у Юэ.", False),
    ],
    "a place's name in lower case, as a wine is called after it": [
        ("Турига насьональ с террас над Дору, не хуже бароло.", False),
        ("Дору, турига насьональ — миллезимное вино урожая девятнадцатого года.", True),
    ],
    "an award as a rating": [
        ("Турига насьональ — пять звёзд от покупателей.", False),
        ("Дору, 4 stars.", False),
    ],
    "a Roman numeral said as a word": [
        ("Вино поставляли королю Карлушу Первому.", True),
        ("Вино поставляли королю Карлушу Второму.", False),
    ],
    "a place said of the thing before it": [
        ("Бочки французские — двенадцать месяцев.", True),
        ("Бочки американские — двенадцать месяцев.", False),
    ],
}


@pytest.mark.parametrize(
    ("sentence", "true"),
    [case for cases in CASES.values() for case in cases],
    ids=[f"{kind}: {sentence}" for kind, cases in CASES.items() for sentence, _ in cases],
)
def test_a_sentence_stands_only_when_the_wine_bears_out_every_date_sum_and_name(
    sentence: str, true: bool
) -> None:
    assert stands(_wine(), sentence) is true


def _loire() -> Facts:
    return facts_of(
        "Jardin Ste. Guénolé",
        "Tenuta Jardin",
        "Франция",
        ("Долина Луары",),
        ("шенен блан",),
        WineType.white,
        Sweetness.dry,
        "Jardin Ste. Guénolé. Шенен с известняковых склонов.",
        vintage=2021,
        price=Decimal(2000),
    )


SPELLINGS = [
    ("Тенута Жарден — шенен с известняковых склонов.", True),
    ("Сент-Гвеноле — шенен блан.", True),
    ("Тенута Морен — шенен с известняковых склонов.", False),
    ("Сент-Эмильон — шенен блан.", False),
    ("шенен блан в стиле ротшильдов.", False),  # a name the dictionary knows, in lower case
    ("шенен блан от jardin, с известняка.", True),  # a Latin name in lower case
    ("шенен блан от huet, с известняка.", False),
    ("Луарский шенен с известняка, две тысячи.", True),  # a sum, not the year 2000
    ("Луарский шенен урожая двадцать первого года, две тысячи.", True),
]


@pytest.mark.parametrize(("sentence", "true"), SPELLINGS, ids=[s for s, _ in SPELLINGS])
def test_a_name_stands_however_russian_spells_its_latin(sentence: str, true: bool) -> None:
    assert stands(_loire(), sentence) is true


def test_a_word_of_what_was_searched_is_no_invention() -> None:
    """«тельность» is the shop's own word for body: an intro that repeats what was searched
    («Искал: красное, тельность до 2») names nothing the person did not ask for."""
    state = RequestState(filters=WineFilters(wine_type=WineType.red, body_max=2))
    request = Request.of(read("что-нибудь лёгкое красное"), state)
    intro = read_claims("Искал: красное, тельность до 2.")
    assert [c for c in intro if c.kind == "name"], "the word is read as a name"
    assert all(request.says(c) for c in intro if c.kind == "name")


@pytest.mark.parametrize(
    "sentence",
    [
        "Причина для id-3afae88b-0: отличный выбор.",
        'Вот <b>что</b> я нашел <img src=x onerror="window.x=1"> [тут](javascript:window.x=3).',
    ],
)
def test_code_and_markup_in_a_sentence_name_nothing(sentence: str) -> None:
    """Latin letters inside an id, markup or a link are no lower-case name."""
    assert not [c for c in read_claims(sentence) if c.kind == "name"]
