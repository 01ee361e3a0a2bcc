"""A wine's colour, said in every way a model writes it: by hue («бледно-лимонный», «цвета
спелой вишни», «тёмное, почти чёрное»), by the colour of its grapes («из белых сортов»), as a
plural standing for wines («одно из лучших красных»), in trade words («розэ», «кларет») and in
English. A colour is held to the row, and a sparkling, sweet or fortified wine's colour to its
own words (a port is red unless they say otherwise). Words that only look like a colour are
not one: a flower («аромат розы»), a name («Red Label», «Красный Камень», «Чёрное море»), an
aroma («белого персика», «красным вулканическим сланцем»).
"""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands


def _red() -> Facts:
    return facts_of(
        "Poggio Alto Barbaresco",
        "Poggio Alto",
        "Италия",
        ("Пьемонт",),
        ("неббиоло",),
        WineType.red,
        Sweetness.dry,
        "Poggio Alto Barbaresco. Строгое неббиоло с ароматом розы, вишни и смолы.",
    )


def _white() -> Facts:
    return facts_of(
        "Weingut Steinhang Riesling",
        "Weingut Steinhang",
        "Германия",
        ("Мозель",),
        ("рислинг",),
        WineType.white,
        Sweetness.dry,
        "Weingut Steinhang Riesling. Лоза растёт на красным вулканическим сланцем склоне над "
        "рекой. Аромат белого персика и лайма.",
    )


def _rose() -> Facts:
    return facts_of(
        "Clos des Pins Rosé",
        "Clos des Pins",
        "Франция",
        ("Прованс",),
        ("гренаш", "сенсо"),
        WineType.rose,
        Sweetness.dry,
        "Clos des Pins Rosé. Бледное розовое из красных сортов, с видом на Чёрное море.",
    )


def _sparkling_red() -> Facts:
    return facts_of(
        "Cantina Lunga Lambrusco",
        "Cantina Lunga",
        "Италия",
        ("Эмилия-Романья",),
        ("ламбруско",),
        WineType.sparkling,
        Sweetness.semi_dry,
        "Cantina Lunga Lambrusco. Красное слабоигристое с ароматом вишни.",
    )


def _port() -> Facts:
    return facts_of(
        "Quinta do Vale Late Bottled Vintage Port",
        "Quinta do Vale",
        "Португалия",
        ("Дору",),
        ("турига насьонал",),
        WineType.fortified,
        Sweetness.sweet,
        "Quinta do Vale Late Bottled Vintage Port. Вино одного урожая, выдержанное четыре года.",
    )


def _muscat() -> Facts:
    return facts_of(
        "Мускат белый Красного Камня",
        "Массандра",
        "Россия",
        ("Крым",),
        ("мускат белый",),
        WineType.dessert,
        Sweetness.sweet,
        "Мускат белый Красного Камня. Десертное вино с виноградника Красный Камень.",
    )


def _tokaji() -> Facts:
    return facts_of(
        "Royal Hill Aszú Red Label",
        "Royal Hill",
        "Венгрия",
        ("Токай",),
        ("фурминт",),
        WineType.dessert,
        Sweetness.sweet,
        "Royal Hill Aszú Red Label. Сладкое вино из ботритизированного фурминта.",
    )


def _zinfandel_rose() -> Facts:
    return facts_of(
        "Sunny Creek White Zinfandel",
        "Sunny Creek",
        "США",
        ("Калифорния",),
        ("зинфандель",),
        WineType.rose,
        Sweetness.semi_sweet,
        "Sunny Creek White Zinfandel. Её White Zinfandel — полусладкое розовое.",
    )


def _burgundy_red() -> Facts:
    return facts_of(
        "Maison Roche Bourgogne Pinot Noir",
        "Maison Roche",
        "Франция",
        ("Бургундия",),
        ("пино нуар",),
        WineType.red,
        Sweetness.dry,
        "Maison Roche Bourgogne Pinot Noir. Лёгкое красное бургундское.",
    )


def _light_pinot() -> Facts:
    return facts_of(
        "Clos Léger Bourgogne Pinot Noir",
        "Clos Léger",
        "Франция",
        ("Бургундия",),
        ("пино нуар",),
        WineType.red,
        Sweetness.dry,
        "Clos Léger Bourgogne Pinot Noir. Лёгкое пино нуар с малиной и шелковистыми танинами.",
        body=2,
    )


def _madeira() -> Facts:
    return facts_of(
        "Casa Velha Malmsey",
        "Casa Velha",
        "Португалия",
        ("Мадейра",),
        ("мальвазия",),
        WineType.fortified,
        Sweetness.sweet,
        "Casa Velha Malmsey. Сладкая мадера, выдержанная в тепле.",
    )


@pytest.mark.parametrize(
    ("facts", "sentence"),
    [
        (_red, "Цвет бледно-лимонный."),
        (_red, "По цвету оно бледно-золотое."),
        (_red, "В бокале оно янтарное."),
        (_white, "Вино цвета спелой вишни."),
        (_white, "Вино тёмного, почти чёрного цвета."),
        (_white, "Тёмно-вишнёвое, почти непрозрачное."),
        (_rose, "Тёмное, почти непрозрачное."),
        (_red, "Искрится золотом."),
        (_red, "Бесцветное, как вода."),
        (_red, "Цвета апельсиновой корки."),
        (_white, "A garnet-coloured wine with a brick rim."),
        (_rose, "Отливает в бокале глубоким рубином."),
        (_light_pinot, "Отличается глубоким, почти чернильным цветом."),
    ],
)
def test_a_hue_the_row_does_not_bear_out_is_dropped(facts: object, sentence: str) -> None:
    assert not stands(facts(), sentence)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("facts", "sentence"),
    [
        (_red, "Глубокий рубиновый цвет."),
        (_red, "Тёмно-гранатовое, почти непрозрачное."),
        (_white, "Соломенный цвет с зеленоватым отливом."),
        (_white, "Цвет бледно-лимонный."),
        (_rose, "В бокале — нежный цвет лососины."),
        (_rose, "Бледно-розовое, цвета лепестков."),
        (_madeira, "В бокале оно янтарное."),
        (_white, "В аромате чёрная смородина и лимонная цедра."),
        (_rose, "Виноградники смотрят на Чёрное море."),
        (_white, "Ноты вишнёвого варенья и мёда."),
        (_white, "A crisp white with notes of strawberry."),
        (_white, "Вовсе не зелёное, а лёгкое белое."),
        (_red, "Несмотря на «золотое» имя, это строгое неббиоло."),
        (_red, "Это мощное красное, а вовсе не розовое вино."),
    ],
)
def test_a_hue_the_row_bears_out_or_no_hue_at_all_stands(facts: object, sentence: str) -> None:
    assert stands(facts(), sentence)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("facts", "sentence", "true"),
    [
        (_red, "Сделано из белых сортов.", False),
        (_white, "Сделано из чёрного винограда.", False),
        (_rose, "Розовое из красных сортов.", True),
        (_white, "Из белого винограда, без мацерации.", True),
        (_white, "Среди красных Германии это редкость.", False),
        (_red, "Среди красных Италии это неббиоло.", True),
        (_white, "Это розэ.", False),
        (_rose, "Кларет в лучших традициях.", False),
        (_red, "Это Rosso из Пьемонта.", True),
        (_white, "Немецкий Weißwein из рислинга.", True),
        (_red, "Немецкий Weißwein из рислинга.", False),
    ],
)
def test_colour_by_grapes_plurals_and_trade_words(facts: object, sentence: str, true: bool) -> None:
    assert stands(facts(), sentence) is true  # type: ignore[operator]


@pytest.mark.parametrize(
    ("facts", "sentence", "true"),
    [
        # a flower in the wine's own words is no rosé
        (_red, "Это розовое вино.", False),
        # an aroma and a soil in the wine's own words are no colour
        (_white, "Это красное вино.", False),
        # a name is no colour
        (_tokaji, "Это красное десертное вино.", False),
        (_muscat, "Красный мускат из Крыма.", False),
        (_muscat, "Белый мускат из Крыма.", True),
        (_zinfandel_rose, "Это белое вино.", False),
        (_zinfandel_rose, "Классический White Zinfandel из Калифорнии.", True),
        # a colour before a place is the colour of that place's wine, not a name
        (_burgundy_red, "A fine White Burgundy.", False),
        (_burgundy_red, "Белое Бургундское.", False),
    ],
)
def test_words_that_look_like_a_colour_confirm_none(
    facts: object, sentence: str, true: bool
) -> None:
    assert stands(facts(), sentence) is true  # type: ignore[operator]


@pytest.mark.parametrize(
    ("facts", "sentence", "true"),
    [
        (_sparkling_red, "Белое игристое.", False),
        (_sparkling_red, "Красное игристое.", True),
        (_port, "Белый портвейн.", False),
        (_port, "Красный портвейн.", True),
        (_madeira, "Белое креплёное вино.", True),
        # «тихое»: said not to sparkle, of a colour or a sparkling wine's own name
        (_sparkling_red, "Тихое красное.", False),
        (_sparkling_red, "Это тихое.", False),
        (_red, "Тихое красное, без пузырьков.", True),
        (_red, "Для тихого вечера вдвоём.", True),
    ],
)
def test_a_styled_wine_has_the_colour_of_its_own_words(
    facts: object, sentence: str, true: bool
) -> None:
    assert stands(facts(), sentence) is true  # type: ignore[operator]
