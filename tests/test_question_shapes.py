"""Shapes of a question about wine that the reader once took for a request, and the requests
that keep their reading beside them: each a general rule, checked on wordings of its own."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


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
    reading = read(message)
    assert reading.kind is MessageKind.wine_question, reading.message
    assert reading.entry is not None and reading.entry.id == entry
    assert not reading.message.wants_cards


def test_a_pairing_asked_for_stays_a_request() -> None:
    assert read("какое красное подать к форели?").kind is MessageKind.request
