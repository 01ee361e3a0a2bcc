"""Shapes of a question about wine that the reader once took for a request, and the requests
that keep their reading beside them: each a general rule, checked on wordings of its own."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import Reading, read


def answered_by(message: str, entry: str) -> Reading:
    """The message read as a wine question that the knowledge entry `entry` answers."""
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert reading.entry is not None and reading.entry.id == entry, reading.entry
    return reading


@pytest.mark.parametrize(
    "message",
    [
        "божоле и божоле нуво — есть разница?",
        "есть смысл декантировать молодое вино?",
        "есть секрет, как открыть шампанское без хлопка?",
    ],
)
def test_there_is_a_difference_asks_rather_than_looks_for_stock(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert reading.entry is not None


@pytest.mark.parametrize(
    "message", ["мадера есть?", "что есть из Португалии?", "есть ли у вас просекко"]
)
def test_asking_for_stock_stays_a_request(message: str) -> None:
    assert read(message).kind is MessageKind.request


@pytest.mark.parametrize("message", ["танины — а это чё", "шо за зверь такой петнат"])
def test_the_spoken_what_asks(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question
    assert reading.entry is not None


def test_the_spoken_what_with_a_request_verb_stays_a_request() -> None:
    assert read("подбери чё нить красное к мясу").kind is MessageKind.request


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("к форели красное — это моветон?", "red_with_fish"),
        ("к тёмному шоколаду брют норм?", "chocolate"),
        ("к суши красное пино нуар можно или нет", "red_with_fish"),
    ],
)
def test_whether_a_pairing_holds_is_a_question(message: str, entry: str) -> None:
    reading = answered_by(message, entry)
    assert not reading.message.wants_cards


def test_a_pairing_asked_for_stays_a_request() -> None:
    assert read("какое красное подать к форели?").kind is MessageKind.request


@pytest.mark.parametrize(
    "message",
    [
        "Can I have a glass of wine while taking painkillers?",
        "на шестом месяце бокал игристого на новый год можно?",
        "на 6 месяце, бокал шампанского на новый год можно?",
        "выпил за ужином бокал, до дома ехать можно?",
    ],
)
def test_a_health_question_gets_a_health_answer_and_no_cards(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert reading.message.health and not reading.message.wants_cards
    assert reading.entry is None or reading.entry.health


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("на пятой неделе бокал вина на свадьбе подруги не навредит?", "health_pregnancy"),
        ("вино правда продлевает жизнь?", "health_heart"),
        ("выпил бокал сухого, через час ехать на машине можно?", "health_driving"),
        ("is wine ok with painkillers?", "health_medication"),
    ],
)
def test_a_health_question_gets_its_own_entry(message: str, entry: str) -> None:
    reading = read(message)
    assert reading.message.health
    assert reading.entry is not None and reading.entry.id == entry


def test_the_age_of_a_wine_is_not_the_age_of_a_customer() -> None:
    reading = read("почему красное с возрастом становится кирпичного цвета")
    assert reading.kind is MessageKind.wine_question and not reading.message.health
    assert reading.entry is not None and reading.entry.id == "browning"


@pytest.mark.parametrize(
    "message", ["Словения делает хорошее вино?", "фетяска — это румынский сорт?"]
)
def test_a_yes_no_question_the_base_cannot_answer_is_told_so(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert reading.entry is None and not reading.message.wants_cards


def test_a_change_said_as_a_question_stays_a_request() -> None:
    assert read("дорого, а австрийское попроще, пусть не сладкое?").kind is MessageKind.request


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("какое вино лучше всего к пармезану и сырам?", "wine_and_cheese"),
        ("какое вино идёт к молочному шоколаду?", "chocolate"),
        ("к сырной нарезке что лучше — красное или белое?", "wine_and_cheese"),
    ],
)
def test_which_wine_for_an_entrys_own_subject_gets_the_entry(message: str, entry: str) -> None:
    answered_by(message, entry)


def test_which_wine_for_the_subject_shows_the_entrys_two_wines() -> None:
    reading = read("какое вино подходит к острой еде?")
    assert reading.entry is not None and reading.entry.id == "spicy_food"
    assert reading.message.wants_cards


@pytest.mark.parametrize(
    "message",
    [
        "какое вино к рыбе?",  # no entry is about fish alone
        "подбери вино к сыру",  # a pick asked for
        "какое красное к сыру до 1500?",  # a budget
        "какое вино подать к утке?",
    ],
)
def test_which_wine_with_a_condition_or_no_subject_entry_stays_a_request(message: str) -> None:
    assert read(message).kind is MessageKind.request


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("пробка раскрошилась, крошки остались в бутылке", "corkscrew"),
        ("сколько лет хранится вино в закрытой бутылке", "unopened_shelf_life"),
        ("бокал вина пахнет мокрым картоном и плесенью", "cork_taint"),
    ],
)
def test_a_subject_said_without_a_question_mark_gets_its_entry(message: str, entry: str) -> None:
    answered_by(message, entry)


@pytest.mark.parametrize(
    "message",
    ["вино с нотами вишни и шоколада", "сухое вино к тайской еде", "вина Краснодарского края"],
)
def test_a_wine_described_or_a_place_named_stays_a_request(message: str) -> None:
    assert read(message).kind is MessageKind.request


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("шабли — это всегда шардоне?", "chardonnay"),
        ("is prosecco always dry?", "prosecco"),
        ("почему некоторые вина бывают мутными", "unfiltered"),
    ],
)
def test_hedges_and_fillers_do_not_hide_the_subject(message: str, entry: str) -> None:
    answered_by(message, entry)


def test_a_safety_question_a_wine_entry_explains_gets_the_wine_entry() -> None:
    reading = read("пробка от игристого может ранить? как безопасно открыть бутылку")
    assert reading.entry is not None and reading.entry.id == "open_champagne"


@pytest.mark.parametrize("message", ["а розовое игристое бывает?", "а грузинский рислинг бывает?"])
def test_whether_such_a_wine_exists_after_wines_were_shown_asks_the_shop(message: str) -> None:
    assert read(message).kind is MessageKind.request


@pytest.mark.parametrize("message", ["что такое фетяска нягрэ?", "Чем знаменит Руссильон?"])
def test_a_question_about_a_term_no_dictionary_knows_is_about_wine(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert not reading.message.wants_cards


@pytest.mark.parametrize("message", ["почему кошка чихаит?", "сколько стоит айфон пятнадцатый?"])
def test_a_misspelt_question_outside_wine_stays_declined(message: str) -> None:
    assert read(message).kind is MessageKind.offtopic


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("алкоголь испаряется при тушении говядины в вине?", "cooking_wine"),
        ("чем знаменита Шампань", "champagne_region"),
        ("есть какие-то правила сочетания вина и блюд?", "pairing_rules"),
    ],
)
def test_a_question_an_entry_explains_whole_gets_it(message: str, entry: str) -> None:
    answered_by(message, entry)


def test_a_price_asked_of_the_wines_shown_stays_a_request() -> None:
    assert read("что-то из этого не дороже 1500?").kind is MessageKind.request


def test_from_which_grapes_asks() -> None:
    reading = read("мадиран из каких сортов делается во Франции")
    assert reading.kind is MessageKind.wine_question and not reading.message.wants_cards


def test_a_message_about_a_wine_shown_is_no_subject_of_the_base() -> None:
    assert read("Повторите, пожалуйста, то первое вино").kind is MessageKind.request
