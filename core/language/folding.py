"""The one text folding and the one word stemmer every reader of people's words uses.

Folding is character by character (lowercase, ``ё`` -> ``е``, accents stripped, dashes and
no-break spaces unified), so positions in the folded text match the original. Words are
reduced with the Snowball stemmers (Russian for Cyrillic words, English for Latin ones): the
Russian one is the same Snowball algorithm as PostgreSQL's `russian` text-search
configuration, so matching in Python and in the database agree on what a word's stem is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple, TypeVar

import snowballstemmer

_CHAR_MAP = {
    "ё": "е",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2007": " ",
    "\u2009": " ",
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
}
TOKEN_RE = re.compile(r"[a-zа-я]+")
_CYRILLIC = re.compile(r"[а-я]")
_RUSSIAN = snowballstemmer.stemmer("russian")
_ENGLISH = snowballstemmer.stemmer("english")
V = TypeVar("V")


def _fold_char(char: str) -> str:
    lowered = char.lower()
    if len(lowered) == 1:
        char = lowered
    mapped = _CHAR_MAP.get(char)
    if mapped is not None:
        return mapped
    if "\u00c0" <= char <= "\u024f":  # Latin with diacritics: é -> e, ü -> u, ñ -> n
        base = unicodedata.normalize("NFKD", char)[0]
        if base.isascii():
            return base
    return char


class _FoldTable(dict[int, str]):
    """``str.translate`` table filled on first sight of each character: folding then runs in C."""

    def __missing__(self, code: int) -> str:
        folded = self[code] = _fold_char(chr(code))
        return folded


_FOLD_TABLE = _FoldTable()


# Latin letters that look like Cyrillic ones: «уткe» typed with a Latin «e» is «утке».
_TO_CYRILLIC = str.maketrans("aeopcxykmthb", "аеорсхукмтнв")
_TO_LATIN = str.maketrans("аеорсхукмтнв", "aeopcxykmthb")
_MIXED = re.compile(r"[a-z]*(?:[а-я][a-z]|[a-z][а-я])[a-zа-я]*")


def _one_script(word: re.Match[str]) -> str:
    """A word typed in two alphabets, in the one most of its letters are in (the letters
    that look alike changed; the word's length kept)."""
    text = word.group()
    cyrillic = sum("а" <= char <= "я" for char in text)
    return text.translate(_TO_CYRILLIC if 2 * cyrillic >= len(text) else _TO_LATIN)


@lru_cache(maxsize=1024)  # a sentence is folded by each reader of it
def fold(text: str) -> str:
    """Fold ``text`` character by character, so positions in the result match the original."""
    folded = text.translate(_FOLD_TABLE)
    return _MIXED.sub(_one_script, folded) if _MIXED.search(folded) else folded


class Token(NamedTuple):  # a tuple: made by the thousand per answer, and made quickly
    text: str  # folded
    stem: str
    start: int
    end: int


def tokenize(folded: str) -> list[Token]:
    return [
        Token(m.group(), stem(m.group()), m.start(), m.end()) for m in TOKEN_RE.finditer(folded)
    ]


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of one folded word: «красного» -> «красн», «oysters» -> «oyster»."""
    return (_RUSSIAN if _CYRILLIC.search(word) else _ENGLISH).stemWord(word)


def word_set(text: str) -> frozenset[str]:
    """A set of words written as one space-separated string (long lists read better so)."""
    return frozenset(text.split())


def words(text: str) -> list[str]:
    """The folded words of ``text``."""
    return TOKEN_RE.findall(fold(text))


# Little words that carry no meaning in a filter value: «к стейку» is «стейк».
STOP_WORDS = frozenset(
    {"к", "ко", "с", "со", "на", "под", "для", "из", "в", "и", "or", "for", "with", "to"}
    | {"the", "a", "an", "of", "and", "или"}
)


# Words that say nothing about which wine is meant, dropped from a full-text query: without
# this, «вино с ягодными нотами» ranks every description that says «вино».
SEARCH_STOP_WORDS = STOP_WORDS | frozenset(
    {"вино", "вина", "вину", "вином", "вине", "винцо", "вин", "wine", "wines"}
    | {"что", "то", "нибудь", "нибуть", "хочу", "хочется", "нужно", "нужен", "нужна", "какое"}
    | {"посоветуй", "посоветуйте", "подбери", "подберите", "есть", "можно", "мне", "бы"}
    | {"нота", "ноты", "нотами", "нотой", "нотки", "нотками", "оттенками", "вкусом"}
    | {"something", "some", "want", "need", "please", "notes", "note", "hints", "like"}
)
# Suffixes that make an adjective of a noun («ягодн» of «ягод», «вишнев» of «вишн»): a search
# for «ягодными» should find «ягоды» too.
_DERIVING_SUFFIXES = ("ов", "ев", "ск", "н")


def search_roots(text: str) -> list[str]:
    """The roots of the meaningful words of `text`, for prefix full-text search."""
    roots: list[str] = []
    for word in words(text):
        if word in SEARCH_STOP_WORDS or len(word) < 3:
            continue
        root = stem(word)
        for suffix in _DERIVING_SUFFIXES:
            if root.endswith(suffix) and len(root) - len(suffix) >= 4:
                root = root[: -len(suffix)]
                break
        if root not in roots:
            roots.append(root)
    return roots


def content_key(phrase: str) -> str:
    """`stem_key` without the little words: «к стейку» -> «стейк», «for a steak» -> «steak»."""
    return " ".join(stem(word) for word in words(phrase) if word not in STOP_WORDS)


def stem_key(phrase: str) -> str:
    """A phrase as the space-joined stems of its words: «Новой Зеландии» -> «нов зеланд»."""
    return " ".join(stem(word) for word in words(phrase))


def phrases(first: Iterable[str], second: Iterable[str]) -> list[str]:
    """Every «first second» combination: phrases(["к", "ко"], ["сладкому"])."""
    second = list(second)
    return [f"{a} {b}" for a in first for b in second]


def phrase_table(groups: Mapping[V, Iterable[str]]) -> dict[str, V]:
    """{meaning: phrases} -> {stem key of a phrase: meaning}; the first meaning listed wins."""
    table: dict[str, V] = {}
    for value, aliases in groups.items():
        for alias in aliases:
            key = stem_key(alias)
            if key:
                table.setdefault(key, value)
    return table
