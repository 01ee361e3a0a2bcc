"""A pattern is searched only in a text holding one of the words every match of it holds, read
off the pattern (core/language/required_words.py): the words must be right, or the check would
miss a claim («95 баллов») it reads today."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.language import amounts, claim_cues, claim_numbers, claim_words, names, world
from core.language.folding import fold
from core.language.knowledge import knowledge_base
from core.language.required_words import finditer_gated, gate_of, required_words
from seeds.loader import load_seed_file

# Every pattern searched through its gate.
GATED = {
    **{f"cue {kind}": pattern for kind, pattern in claim_cues.CUES.items()},
    "rank": claim_cues._RANKED,
    "standing": claim_cues._STANDING,
    "comparison": claim_cues._COMPARISON,
    "ageing span": claim_cues._SPAN,
    "side": claim_cues._SIDE,
    "sum in words": amounts._WORD_AMOUNT_RE,
    "bare sum after a bound": amounts._BARE_AFTER_BOUND_RE,
    "slang sum": amounts._SLANG_RE,
    "hundreds": amounts._HUNDREDS_RE,
    "past century": claim_numbers._PAST_CENTURY,
    "roman century": claim_numbers.ROMAN_CENTURY,
    "length adjective": claim_numbers._LENGTH_ADJECTIVE,
    "relative vintage": claim_numbers._RELATIVE_VINTAGE,
    "method term": names._METHOD_TERM,
}


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _texts() -> list[str]:
    """The development sets' messages and prose, the knowledge base and the demo catalog."""
    texts: list[str] = []
    for path in sorted(Path("bench/eval/dev").glob("*.json")):
        texts += _strings(json.loads(path.read_text(encoding="utf-8")))
    for entry in knowledge_base():
        texts += [entry.title, entry.answer, *entry.facts, *entry.questions]
    for record in load_seed_file():
        texts += _strings(record.model_dump(mode="json"))
    texts += [
        "95 баллов Паркера, золотая медаль Decanter",
        "Старейшая винодельня, основана в 1870 году, с восточных склонов",
        "Пятое гран крю классе, дороже большинства соседей, долгая выдержка в дубе",
        "Одно из самых продаваемых вин в мире, лидер Аргентины",
        "Саперави урожая прошлого года, стоит тысяча двести, полторашка",
    ]
    return [fold(text) for text in texts] + texts


TEXTS = _texts()


@pytest.mark.parametrize("name", list(GATED))
def test_a_gated_pattern_finds_what_the_pattern_finds(name: str) -> None:
    pattern = GATED[name]
    assert gate_of(pattern) is not None  # else the gate does nothing and the test proves nothing
    found = 0
    for text in TEXTS:
        gated = [(m.span(), m.group()) for m in finditer_gated(pattern, text)]
        assert gated == [(m.span(), m.group()) for m in pattern.finditer(text)], text
        found += bool(gated)
    assert found, f"no text of the sets holds a {name}: the comparison is empty"


@pytest.mark.parametrize(
    ("pattern", "words"),
    [
        (r"(?<![а-яё])(?:балл|очк[аоу]|\bwa\s?\d)", {"балл", "очк", "wa"}),
        (r"(?:\d|одн|дв)\w*\s+звезд", {"звезд"}),  # the rarest part of a sequence
        (r"премье\s*-?\s*(?:крю|cru)", {"премье"}),
        (r"лет(?:ний)+", {"лет"}),
        (r"(?:ab|cd)+x?", {"ab", "cd"}),
    ],
)
def test_the_words_a_pattern_requires(pattern: str, words: set[str]) -> None:
    assert required_words(re.compile(pattern)) == words


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?i:дом)\s+\w+",  # case-insensitive: a capital would not be found by the word
        r"(?:балл|\d+)",  # an alternative with no word
        r"(?:балл)?\s*\d",  # an optional word
        r"[а-я]+",
    ],
)
def test_a_pattern_that_requires_no_word_is_not_gated(pattern: str) -> None:
    assert required_words(re.compile(pattern)) is None


def test_a_text_passed_over_for_producers_or_groups_of_countries_names_none() -> None:
    """The gates written by hand: a Latin capital or a producer's title in any case before
    the producer pattern, a word of a group in any case before the groups of countries."""
    extra = ["ВИНОДЕЛЬНЯ Ведерников", "from Antinori", "НОВЫЙ СВЕТ", "Old World", "из НАШИХ"]
    producers = groups = 0
    for text in [*TEXTS, *extra]:
        if claim_words._PRODUCER.search(text):
            assert claim_words._may_name_producer(text), text
            producers += 1
        if any(pattern.search(text) for pattern, _ in world._GROUPS):
            assert world._GROUP_WORDS.search(text.casefold()), text
            groups += 1
    assert producers > len(extra) and groups > len(extra)  # the sets' own texts are checked
