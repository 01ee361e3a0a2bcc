"""Spoken Russian in knowledge questions: fillers that say nothing, words clipped the way speech
clips them, the subject said before the question word, and the asks that read as shop talk —
each a rule for the language, checked on wordings of its own."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.knowledge import match_knowledge
from core.language.reading import read


def entry_of(message: str) -> str | None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, (message, reading.message)
    return reading.entry.id if reading.entry is not None else None


def test_a_slang_filler_is_no_subject_of_the_question() -> None:
    # «типо» is not the dictionary's «тип»: weighed as a rare term, it let «сахар» pull the
    # question to diabetes
    reading = read("сухое это типо без сахара вообще?")
    assert reading.entry is not None and reading.entry.id == "sweetness"
    assert not reading.message.health


@pytest.mark.parametrize(
    ("spoken", "plain"),
    [
        ("скока сахара в полусладком", "сколько сахара в полусладком"),
        ("оранж вайн из какого винограда", "оранжевое вино из какого винограда"),
    ],
)
def test_a_spoken_spelling_finds_what_the_plain_one_finds(spoken: str, plain: str) -> None:
    found = match_knowledge(plain)
    assert found is not None
    spoken_match = match_knowledge(spoken)
    assert spoken_match is not None and spoken_match.entry.id == found.entry.id


def test_a_clipped_word_is_read_as_the_word_it_clips() -> None:
    assert entry_of("что значит дегустить вслепую") == "tasting"


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("рислинг что напоминает по запаху", "petrol"),
        ("мальбек что за вино такое", "malbec"),
        ("тоскана — что там за вина делают", "tuscany"),
    ],
)
def test_the_subject_first_then_what_is_asked_of_it(message: str, entry: str) -> None:
    assert entry_of(message) == entry


@pytest.mark.parametrize("message", ["красное что взять к утке", "белое что подешевле есть"])
def test_a_question_word_before_a_pick_stays_a_request(message: str) -> None:
    assert read(message).kind is MessageKind.request


def test_a_trick_asked_for_is_no_stock_asked_for() -> None:
    assert entry_of("шампанское открыть без хлопка, есть хитрость?") == "open_champagne"


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("красное к рыбе хорошая идея?", "red_with_fish"),
        ("к сыру красное удачное сочетание?", None),
    ],
)
def test_whether_a_pairing_holds_is_a_question(message: str, entry: str | None) -> None:
    found = entry_of(message)
    assert found is not None and (entry is None or found == entry)


def test_wine_given_to_a_child_is_a_health_question() -> None:
    reading = read("детям можно давать попробовать глинтвейн?")
    assert reading.kind is MessageKind.wine_question and reading.message.health
    assert reading.entry is None or reading.entry.health
    assert read("подбери вино на день рождения ребенка").kind is MessageKind.request


def test_a_hangover_said_in_other_words_gets_the_health_answer() -> None:
    reading = read("как не болеть наутро после вина?")
    assert reading.message.health
    assert reading.entry is not None and reading.entry.id == "health_hangover"


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("пино гриджо и пино гри одно и то же", "pinot_grigio"),
        ("сира и шираз одно и то же", "syrah"),
    ],
)
def test_whether_two_names_are_one_is_asked_without_a_question_mark(
    message: str, entry: str
) -> None:
    assert entry_of(message) == entry


def test_a_verb_asked_with_li_asks_whether_a_pairing_holds() -> None:
    assert entry_of("сочетается ли сыр с красным вином") == "wine_and_cheese"
    assert read("есть ли у вас мерло").kind is MessageKind.request


@pytest.mark.parametrize(
    ("message", "entry"),
    [
        ("совик какой по вкусу?", "sauvignon_blanc"),
        ("кабер какой на вкус", "cabernet"),
        ("как открыть шампунь, чтобы пробка не улетела в люстру", "open_champagne"),
    ],
)
def test_a_pet_name_of_a_wine_asks_what_its_proper_name_asks(message: str, entry: str) -> None:
    assert entry_of(message) == entry


def test_the_general_neighbour_answers_when_no_sparkling_word_is_said() -> None:
    assert entry_of("открыл белое вчера, сегодня уже не пить?") == "open_bottle"
    assert entry_of("открытое игристое как хранить, чтобы не выдохлось") == "open_sparkling"


@pytest.mark.parametrize(
    "message",
    ["какое вино подавали на свадьбе принца Чарльза", "какое вино пил Хемингуэй на Кубе"],
)
def test_which_wine_was_drunk_once_is_a_question_about_history(message: str) -> None:
    reading = read(message)
    assert reading.kind is MessageKind.wine_question and not reading.message.wants_cards


def test_which_wine_to_take_for_an_occasion_stays_a_request() -> None:
    assert read("какое вино взять на свадьбу").kind is MessageKind.request
