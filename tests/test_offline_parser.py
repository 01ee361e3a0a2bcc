"""The deterministic (no-LLM) reader of user messages."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from core.domain import Sweetness, WineFilters, WineType
from core.language.folding import stem_key
from core.language.foods import FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.places import COUNTRY_ALIASES
from core.language.request import (
    ParsedQuery,
    country_from_text,
    food_from_text,
    grape_from_text,
    parse_query,
    region_from_text,
    sweetness_from_word,
    wine_type_from_word,
)

RED, WHITE, ROSE = WineType.red, WineType.white, WineType.rose
SPARKLING, DESSERT, FORTIFIED = WineType.sparkling, WineType.dessert, WineType.fortified
DRY, SEMI_DRY = Sweetness.dry, Sweetness.semi_dry
SEMI_SWEET, SWEET = Sweetness.semi_sweet, Sweetness.sweet


def _d(value: int) -> Decimal:
    return Decimal(value)


# (message, every filter the message must produce; anything not listed must stay None)
PARSE_CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "красное сухое к стейку до 2000",
        {"wine_type": RED, "sweetness": DRY, "food_pairing": "стейк", "price_max": _d(2000)},
    ),
    ("что взять к стейку до 2000 ₽?", {"food_pairing": "стейк", "price_max": _d(2000)}),
    (
        "Посоветуй белое вино к рыбе дешевле 1500 руб",
        {"wine_type": WHITE, "food_pairing": "рыба", "price_max": _d(1500)},
    ),
    (
        "игристое на новый год от 3000 до 5000",
        {"wine_type": SPARKLING, "price_min": _d(3000), "price_max": _d(5000)},
    ),
    (
        "dry red wine for steak under 2000",
        {"wine_type": RED, "sweetness": DRY, "food_pairing": "стейк", "price_max": _d(2000)},
    ),
    (
        "sweet white riesling from Germany",
        {"wine_type": WHITE, "sweetness": SWEET, "grape_variety": "рислинг", "country": "Германия"},
    ),
    ("полусладкое грузинское", {"sweetness": SEMI_SWEET, "country": "Грузия"}),
    ("бутылка за 1 500 р", {"price_max": _d(1500)}),
    ("прекрасное вино к утке", {"food_pairing": "утка"}),
    ("полусухое", {"sweetness": SEMI_DRY}),
    ("каберне из Чили", {"grape_variety": "каберне совиньон", "country": "Чили"}),
    (
        "Pinot noir from New Zealand up to 3k",
        {"grape_variety": "пино нуар", "country": "Новая Зеландия", "price_max": _d(3000)},
    ),
    ("вино 2015 года до 3000", {"price_max": _d(3000)}),
    ("просто хорошее вино", {}),
    ("шампанское дороже 5000", {"wine_type": SPARKLING, "price_min": _d(5000)}),
    (
        "Riesling from the Mosel",
        {"grape_variety": "рислинг", "region": "Мозель", "country": "Германия"},
    ),
    ("между 1000 и 2000 рублей", {"price_min": _d(1000), "price_max": _d(2000)}),
    ("2000–4000 ₽", {"price_min": _d(2000), "price_max": _d(4000)}),
    ("лёгкое красное", {"wine_type": RED, "body_max": 2}),
    # price phrasings, Russian
    ("не дороже 2000 рублей", {"price_max": _d(2000)}),
    ("что-нибудь меньше 1500", {"price_max": _d(1500)}),
    ("в пределах 3000 р.", {"price_max": _d(3000)}),
    ("бюджет 2500", {"price_max": _d(2500)}),
    ("розовое за 1000", {"wine_type": ROSE, "price_max": _d(1000)}),
    ("3000-5000", {"price_min": _d(3000), "price_max": _d(5000)}),
    ("красное от 5000", {"wine_type": RED, "price_min": _d(5000)}),
    ("больше 5000 руб", {"price_min": _d(5000)}),
    ("до 2.000 руб", {"price_max": _d(2000)}),
    ("белое до 2к", {"wine_type": WHITE, "price_max": _d(2000)}),
    ("до 2 тыс", {"price_max": _d(2000)}),
    ("сухое до 2 тысячи рублей", {"sweetness": DRY, "price_max": _d(2000)}),
    ("за полторы тысячи", {"price_max": _d(1500)}),
    ("от 3 до 5 тысяч", {"price_min": _d(3000), "price_max": _d(5000)}),
    ("до 2\u00a0000\u00a0₽", {"price_max": _d(2000)}),
    ("2000 ₽", {"price_max": _d(2000)}),
    ("дешевле чем 1200", {"price_max": _d(1200)}),
    ("бюджет у меня 2500, хочу красное", {"wine_type": RED, "price_max": _d(2500)}),
    ("под 1000", {}),
    ("2 бутылки по 1500", {"price_max": _d(1500)}),
    ("белое на 1500", {"wine_type": WHITE, "price_max": _d(1500)}),
    ("что-то на 2-3 тысячи", {"price_min": _d(2000), "price_max": _d(3000)}),
    ("дороже 2000 но дешевле 4000", {"price_min": _d(2000), "price_max": _d(4000)}),
    ("за пару тысяч", {"price_max": _d(2000)}),
    ("Хочу вино под пиццу за 800р", {"food_pairing": "пицца", "price_max": _d(800)}),
    ("между 1 500 и 2 500 ₽", {"price_min": _d(1500), "price_max": _d(2500)}),
    ("с 1000 по 2000", {"price_min": _d(1000), "price_max": _d(2000)}),
    ("красное сухое, 750 мл", {"wine_type": RED, "sweetness": DRY}),
    ("до 23:00", {}),
    # price phrasings, English
    ("below 1500", {"price_max": _d(1500)}),
    ("less than 1500 rubles", {"price_max": _d(1500)}),
    ("max 2000", {"price_max": _d(2000)}),
    ("budget 2000, something white", {"wine_type": WHITE, "price_max": _d(2000)}),
    ("over 5000", {"price_min": _d(5000)}),
    ("champagne more than 5000", {"wine_type": SPARKLING, "price_min": _d(5000)}),
    ("from 3000 to 5000", {"price_min": _d(3000), "price_max": _d(5000)}),
    ("between 3000 and 5000", {"price_min": _d(3000), "price_max": _d(5000)}),
    ("3000–5000 rub", {"price_min": _d(3000), "price_max": _d(5000)}),
    ("more expensive than 3000", {"price_min": _d(3000)}),
    ("at least 1,000 rub", {"price_min": _d(1000)}),
    ("price up to 2,500 RUB", {"price_max": _d(2500)}),
    ("2-4k", {"price_min": _d(2000), "price_max": _d(4000)}),
    # vintages and counts are not prices
    ("урожая 2018 за 2000", {"price_max": _d(2000)}),
    ("vintage 2015 under 4000", {"price_max": _d(4000)}),
    ("вино 2015-2018 годов", {}),
    ("на 4 человек до 3000", {"price_max": _d(3000)}),
    ("12% до 900", {"price_max": _d(900)}),
    ("около 2000", {"price_min": _d(1600), "price_max": _d(2400)}),
    # word boundaries and negation
    ("сухое", {"sweetness": DRY}),
    ("полусладкое", {"sweetness": SEMI_SWEET}),
    ("сладкое", {"sweetness": SWEET}),
    ("не слишком сладкое белое", {"wine_type": WHITE}),
    ("только не красное", {}),
    ("красное или белое", {}),
    ("сухое или полусухое", {}),
    ("вино на сладкое", {"food_pairing": "десерт"}),
    ("красностоп", {"grape_variety": "красностоп"}),
    ("give us something nice", {}),
    ("wine from the US", {"country": "США"}),
    # types and styles
    ("розовое игристое", {"wine_type": SPARKLING}),
    ("шампанское брют", {"wine_type": SPARKLING, "sweetness": DRY}),
    ("Prosecco", {"wine_type": SPARKLING}),
    ("кава до 1500", {"wine_type": SPARKLING, "price_max": _d(1500)}),
    ("портвейн к шоколаду", {"wine_type": FORTIFIED, "food_pairing": "шоколад"}),
    (
        "sweet dessert wine with chocolate",
        {"wine_type": DESSERT, "sweetness": SWEET, "food_pairing": "шоколад"},
    ),
    ("wine for dessert", {"food_pairing": "десерт"}),
    ("Rosé from Provence", {"wine_type": ROSE, "region": "Прованс", "country": "Франция"}),
    # food vs colour
    ("к красной рыбе", {"food_pairing": "лосось"}),
    ("white wine for white fish", {"wine_type": WHITE, "food_pairing": "белая рыба"}),
    ("something for red meat", {"food_pairing": "мясо"}),
    ("белое к белому мясу", {"wine_type": WHITE, "food_pairing": "курица"}),
    ("вино к шашлыку", {"food_pairing": "шашлык"}),
    ("к сырной тарелке", {"food_pairing": "сыр"}),
    ("под суши и роллы", {"food_pairing": "суши"}),
    ("к фуа-гра", {"food_pairing": "фуа-гра"}),
    ("легкие закуски", {"food_pairing": "закуски"}),
    # body
    (
        "насыщенное красное к баранине",
        {"wine_type": RED, "body_min": 4, "food_pairing": "баранина"},
    ),
    ("full-bodied cabernet", {"grape_variety": "каберне совиньон", "body_min": 4}),
    ("medium-bodied red", {"wine_type": RED, "body_min": 3, "body_max": 3}),
    ("light red", {"wine_type": RED, "body_max": 2}),
    # regions, grapes, countries
    (
        "Sauvignon blanc из Мальборо",
        {"grape_variety": "совиньон блан", "region": "Мальборо", "country": "Новая Зеландия"},
    ),
    ("Крымское игристое", {"wine_type": SPARKLING, "region": "Крым", "country": "Россия"}),
    ("Бордо до 5000", {"region": "Бордо", "country": "Франция", "price_max": _d(5000)}),
    ("Тосканское красное", {"wine_type": RED, "region": "Тоскана", "country": "Италия"}),
    ("Шираз из Австралии", {"grape_variety": "шираз", "country": "Австралия"}),
    (
        "Malbec from Mendoza",
        {"grape_variety": "мальбек", "region": "Мендоса", "country": "Аргентина"},
    ),
    ("Пино гриджо", {"grape_variety": "пино гри"}),
    (
        "Gewürztraminer из Эльзаса",
        {"grape_variety": "гевюрцтраминер", "region": "Эльзас", "country": "Франция"},
    ),
    (
        "испанское темпранильо из Риохи",
        {"grape_variety": "темпранильо", "region": "Риоха", "country": "Испания"},
    ),
    ("французское, не итальянское", {"country": "Франция"}),
    (
        "Полусухое белое из Германии к курице, бюджет 1500-2500",
        {
            "wine_type": WHITE,
            "sweetness": SEMI_DRY,
            "country": "Германия",
            "food_pairing": "курица",
            "price_min": _d(1500),
            "price_max": _d(2500),
        },
    ),
]


@pytest.mark.parametrize(("text", "expected"), PARSE_CASES, ids=[case[0] for case in PARSE_CASES])
def test_parse_query_reads_all_filters(text: str, expected: dict[str, Any]) -> None:
    parsed = parse_query(text)
    assert parsed.filters == WineFilters(**expected)
    assert set(parsed.matched) == set(expected)


def test_matched_words_point_at_the_message() -> None:
    parsed = parse_query("Красное сухое к стейку до 2000 ₽")
    assert parsed.matched == {
        "wine_type": "Красное",
        "sweetness": "сухое",
        "food_pairing": "стейку",
        "price_max": "до 2000 ₽",
    }


def test_matched_range_and_region_words() -> None:
    parsed = parse_query("Riesling from the Mosel from 2000 to 3000")
    assert parsed.matched == {
        "grape_variety": "Riesling",
        "country": "Mosel",
        "region": "Mosel",
        "price_min": "from 2000 to 3000",
        "price_max": "from 2000 to 3000",
    }


def test_vintage_year_never_appears_in_the_result() -> None:
    parsed = parse_query("вино 2015 года до 3000")
    assert parsed.matched == {"price_max": "до 3000"}
    assert "2015" not in str(parsed.filters.model_dump())


def test_explicit_country_wins_over_the_region_country() -> None:
    parsed = parse_query("бордоский бленд из Чили, как в Бордо")
    assert parsed.filters.country == "Чили"
    assert parsed.filters.region == "Бордо"


def test_empty_text() -> None:
    parsed = parse_query("")
    assert parsed.filters.is_empty()
    assert parsed.matched == {}
    assert parsed.relaxation_order() == []


def test_relaxation_order_drops_the_budget_last() -> None:
    parsed = parse_query("лёгкое сухое красное пино нуар из Бургундии к утке от 2000 до 6000")
    assert parsed.relaxation_order() == [
        "region",
        "body_max",
        "grape_variety",
        "country",
        "sweetness",
        "food_pairing",
        "price_min",
        "wine_type",
        "price_max",
    ]


def test_relaxation_order_lists_only_present_filters() -> None:
    query = ParsedQuery(
        filters=WineFilters(
            wine_type=WineType.red,
            price_max=Decimal(2000),
            body_min=4,
            food_pairing="стейк",
        ),
        matched={},
    )
    assert query.relaxation_order() == ["body_min", "food_pairing", "wine_type", "price_max"]
    assert ParsedQuery(filters=WineFilters(), matched={}).relaxation_order() == []


def test_parsed_query_is_frozen() -> None:
    parsed = parse_query("красное")
    with pytest.raises(AttributeError):
        parsed.filters = WineFilters()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("красное", RED),
        ("красного", RED),
        ("Красненькое", RED),
        ("red", RED),
        ("Rouge", RED),
        ("белое", WHITE),
        ("белого", WHITE),
        ("WHITE", WHITE),
        ("розе", ROSE),
        ("розовое", ROSE),
        ("rosé", ROSE),
        ("rose", ROSE),
        ("игристое", SPARKLING),
        ("шампанское", SPARKLING),
        ("prosecco", SPARKLING),
        ("брют", SPARKLING),
        ("sparkling", SPARKLING),
        ("десертное", DESSERT),
        ("dessert", DESSERT),
        ("креплёное", FORTIFIED),
        ("портвейн", FORTIFIED),
        ("херес", FORTIFIED),
        ("мадера", FORTIFIED),
        ("port", FORTIFIED),
        ("sherry", FORTIFIED),
        ("fortified", FORTIFIED),
        ("красное вино", RED),
        (WineType.dessert, DESSERT),
        ("прекрасное", None),
        ("красностоп", None),
        ("semi_sweet", None),
        ("сухое", None),
        ("", None),
    ],
)
def test_wine_type_from_word(word: str, expected: WineType | None) -> None:
    assert wine_type_from_word(word) is expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("сухое", DRY),
        ("сухого", DRY),
        ("Сухим", DRY),
        ("dry", DRY),
        ("брют", DRY),
        ("Brut", DRY),
        ("полусухое", SEMI_DRY),
        ("semi-dry", SEMI_DRY),
        ("semi dry", SEMI_DRY),
        ("off-dry", SEMI_DRY),
        ("medium dry", SEMI_DRY),
        ("semi_dry", SEMI_DRY),
        ("полусладкое", SEMI_SWEET),
        ("semi-sweet", SEMI_SWEET),
        ("medium sweet", SEMI_SWEET),
        ("semi_sweet", SEMI_SWEET),
        (Sweetness.semi_sweet, SEMI_SWEET),
        ("сладкое", SWEET),
        ("sweet", SWEET),
        ("десертное", None),
        ("красное", None),
        ("сухарики", None),
        ("", None),
    ],
)
def test_sweetness_from_word(word: str, expected: Sweetness | None) -> None:
    assert sweetness_from_word(word) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Франция", "Франция"),
        ("из Франции", "Франция"),
        ("французского", "Франция"),
        ("France", "Франция"),
        ("итальянское", "Италия"),
        ("Spain", "Испания"),
        ("немецкое", "Германия"),
        ("португальские", "Португалия"),
        ("Австрия", "Австрия"),
        ("Georgia", "Грузия"),
        ("американское", "США"),
        ("USA", "США"),
        ("чилийское", "Чили"),
        ("из Аргентины", "Аргентина"),
        ("South Africa", "ЮАР"),
        ("южноафриканское", "ЮАР"),
        ("австралийское", "Австралия"),
        ("из Новой Зеландии", "Новая Зеландия"),
        ("российское", "Россия"),
        ("русское", "Россия"),
        ("венгерское", "Венгрия"),
        ("Greece", "Греция"),
        ("калифорнийское", None),
        ("прекрасное", None),
        ("send us a bottle", None),
    ],
)
def test_country_from_text(text: str, expected: str | None) -> None:
    assert country_from_text(text) == expected


def test_country_aliases_table() -> None:
    assert COUNTRY_ALIASES[stem_key("france")] == "Франция"
    assert COUNTRY_ALIASES[stem_key("французские")] == "Франция"
    assert COUNTRY_ALIASES[stem_key("новая зеландия")] == "Новая Зеландия"
    assert COUNTRY_ALIASES[stem_key("us")] == "США"
    assert stem_key("крымское") not in COUNTRY_ALIASES
    assert all(key == key.lower() for key in COUNTRY_ALIASES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("каберне", "каберне совиньон"),
        ("Cabernet Sauvignon", "каберне совиньон"),
        ("cabernet", "каберне совиньон"),
        ("Cabernet Franc", "каберне фран"),
        ("мерло", "мерло"),
        ("pinot noir", "пино нуар"),
        ("пино", "пино нуар"),
        ("pinot grigio", "пино гри"),
        ("шардоне", "шардоне"),
        ("совиньон блан", "совиньон блан"),
        ("рислинга", "рислинг"),
        ("Malbec", "мальбек"),
        ("саперави", "саперави"),
        ("сира", "шираз"),
        ("syrah", "шираз"),
        ("примитиво", "зинфандель"),
        ("gruner", "грюнер вельтлинер"),
        ("мускат", "москато"),
        ("glera", "глера"),
        ("гарнача", "гренаш"),
        ("chenin", "шенен блан"),
        ("цимлянский черный", "цимлянский черный"),
        ("турига насьональ", "турига насьональ"),
        ("красное", None),
        ("пиноккио", None),
    ],
)
def test_grape_from_text(text: str, expected: str | None) -> None:
    assert grape_from_text(text) == expected


def test_grape_aliases_table() -> None:
    assert GRAPE_ALIASES[stem_key("cabernet sauvignon")] == "каберне совиньон"
    assert GRAPE_ALIASES[stem_key("shiraz")] == GRAPE_ALIASES[stem_key("шираз")] == "шираз"
    assert set(GRAPE_ALIASES.values()) >= {"рислинг", "пино гри", "карменер", "дольчетто"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("к стейку", "стейк"),
        ("со стейком", "стейк"),
        ("steak", "стейк"),
        ("к говядине", "говядина"),
        ("к мясу", "мясо"),
        ("рыбку", "рыба"),
        ("fish", "рыба"),
        ("к лососю", "лосось"),
        ("с семгой", "лосось"),
        ("креветки", "морепродукты"),
        ("seafood", "морепродукты"),
        ("устрицы", "устрицы"),
        ("к сыру", "сыр"),
        ("cheese", "сыр"),
        ("к курице", "курица"),
        ("duck", "утка"),
        ("ягненок", "баранина"),
        ("барбекю", "барбекю"),
        ("спагетти", "паста"),
        ("pizza", "пицца"),
        ("к десерту", "десерт"),
        ("торт", "десерт"),
        ("chocolate", "шоколад"),
        ("foie gras", "фуа-гра"),
        ("хинкали", "хинкали"),
        ("плов", "плов"),
        ("pork", "свинина"),
        ("индейка", "индейка"),
        ("салат", "салат"),
        ("mushrooms", "грибы"),
        ("дичь", "дичь"),
        ("закуски", "закуски"),
        ("на аперитив", "аперитив"),
        ("без мяса", None),
        ("красное", None),
        ("сырой погоды", None),
        ("слишком сладко, хочу суше", None),  # drier, not sushi
        ("а можно посуше?", None),
        ("что-нибудь к суши", "суши"),
        ("под роллы", "суши"),
    ],
)
def test_food_from_text(text: str, expected: str | None) -> None:
    assert food_from_text(text) == expected


def test_food_words_table() -> None:
    assert FOOD_WORDS[stem_key("стейку")] == "стейк"
    assert FOOD_WORDS[stem_key("фуа гра")] == "фуа-гра"
    assert FOOD_WORDS[stem_key("steak")] == "стейк"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bordeaux", "Бордо"),
        ("из Бургундии", "Бургундия"),
        ("Шампань", "Шампань"),
        ("champagne from Champagne", "Шампань"),
        ("cheap champagne", None),
        ("шампанское", None),
        ("Tuscany", "Тоскана"),
        ("Пьемонт", "Пьемонт"),
        ("Rioja", "Риоха"),
        ("Napa Valley", "Напа"),
        ("Кубань", "Кубань"),
        ("долина Луары", "Долина Луары"),
        ("Rhône", "Долина Роны"),
        ("Токай", "Токай"),
        ("Douro", "Дору"),
        ("Barossa", "Баросса"),
    ],
)
def test_region_from_text(text: str, expected: str | None) -> None:
    assert region_from_text(text) == expected


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("бюджет до двух тысяч", 2000),
        ("до трех тысяч рублей", 3000),
        ("не дороже пяти тысяч", 5000),
    ],
)
def test_budgets_in_words_in_any_case(text: str, budget: int) -> None:
    assert parse_query(text).filters.price_max == budget
