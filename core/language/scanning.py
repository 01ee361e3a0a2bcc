"""Scanning a folded message for the phrases of a vocabulary table: the longest phrase at each
token first, a phrase negated («не сладкое») or a false friend («сырой погоды») left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.language.folding import Token, fold, tokenize
from core.language.foods import FOOD_WORDS
from core.language.typos import corrected_tokens
from core.language.vocabulary import FALSE_FRIENDS, MEAL_WORDS, NEGATION_FILLERS, NEGATIONS

V = TypeVar("V")


@dataclass(frozen=True)
class Hit(Generic[V]):
    start: int  # token index, inclusive
    end: int  # token index, exclusive
    value: V
    key: str


def max_words(table: Mapping[str, object]) -> int:
    return max(len(key.split()) for key in table)


_MAX_WORDS: dict[int, int] = {}
# The stems that begin a phrase of each table: most tokens begin none, and are skipped at once.
_FIRST_WORDS: dict[int, frozenset[str]] = {}


def match_at(table: Mapping[str, V], tokens: list[Token], index: int) -> Hit[V] | None:
    first = _FIRST_WORDS.get(id(table))
    if first is None:
        first = _FIRST_WORDS[id(table)] = frozenset(key.split()[0] for key in table)
    if tokens[index].stem not in first:
        return None
    longest = _MAX_WORDS.get(id(table))
    if longest is None:
        longest = _MAX_WORDS[id(table)] = max_words(table)
    for size in range(min(longest, len(tokens) - index), 0, -1):
        key = " ".join(token.stem for token in tokens[index : index + size])
        value = table.get(key)
        if value is not None:
            return Hit(index, index + size, value, key)
    return None


def scan(table: Mapping[str, V], tokens: list[Token]) -> list[Hit[V]]:
    """All non-overlapping hits, left to right, longest phrase first at each position."""
    hits: list[Hit[V]] = []
    index = 0
    while index < len(tokens):
        hit = match_at(table, tokens, index)
        if hit is None:
            index += 1
        else:
            hits.append(hit)
            index = hit.end
    return hits


def negated(tokens: list[Token], index: int) -> bool:
    position = index - 1
    for _ in range(3):
        if position < 0:
            return False
        word = tokens[position].text
        if word in NEGATIONS:
            return True
        if word not in NEGATION_FILLERS:
            return False
        position -= 1
    return False


@dataclass
class ScannedText:
    original: str
    folded: str
    tokens: list[Token]

    @classmethod
    def of(cls, text: str) -> ScannedText:
        folded = fold(text)
        return cls(text, folded, corrected_tokens(tokenize(folded)))

    def span(self, hit: Hit[object]) -> str:
        return self.original[self.tokens[hit.start].start : self.tokens[hit.end - 1].end]

    def next_word(self, hit: Hit[object]) -> str | None:
        return self.tokens[hit.end].text if hit.end < len(self.tokens) else None

    def previous_word(self, hit: Hit[object]) -> str | None:
        return self.tokens[hit.start - 1].text if hit.start > 0 else None

    def food_follows(self, hit: Hit[object]) -> bool:
        return hit.end < len(self.tokens) and (
            match_at(FOOD_WORDS, self.tokens, hit.end) is not None
            or self.tokens[hit.end].stem in MEAL_WORDS
        )


def live_hits(table: Mapping[str, V], text: ScannedText) -> list[Hit[V]]:
    """Hits that are neither negated («не сладкое») nor false friends («сырой погоды»)."""
    return [
        hit
        for hit in scan(table, text.tokens)
        if not negated(text.tokens, hit.start)
        and not any(t.text in FALSE_FRIENDS for t in text.tokens[hit.start : hit.end])
    ]


def first_distinct(hits: list[Hit[V]]) -> list[Hit[V]]:
    seen: dict[V, Hit[V]] = {}
    for hit in hits:
        seen.setdefault(hit.value, hit)
    return list(seen.values())
