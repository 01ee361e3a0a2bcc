"""Scanning a folded message for the phrases of a vocabulary table: the longest phrase at each
token first, a phrase negated («не сладкое») or a false friend («сырой погоды») left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Generic, TypeVar

from core.language.folding import Token, fold
from core.language.foods import FOOD_WORDS
from core.language.typos import corrected_tokens
from core.language.vocabulary import FALSE_FRIENDS, MEAL_WORDS, NEGATION_FILLERS, NEGATIONS

V = TypeVar("V")


_FEMININE_ENDINGS = ("ая", "ую")
# «белое», «красненькое»: the form a wine's colour takes; the food it could describe must be
# neuter too («красное мясо»), not «рыба», «рыбку», «рыбы», «курицу»
_NEUTER_ENDINGS = ("ое", "ее")
_NOT_NEUTER_NOUN_ENDINGS = ("а", "у", "ы", "и", "ю", "я", "ой", "ей")


@dataclass(frozen=True)
class Hit(Generic[V]):
    start: int  # token index, inclusive
    end: int  # token index, exclusive
    value: V
    key: str


def max_words(table: Mapping[str, object]) -> int:
    return max(len(key.split()) for key in table)


# For each table, the stem that begins a phrase -> the phrase lengths (in words) that begin
# with it, longest first: most tokens begin none and are skipped at once, and the others try
# only the lengths some phrase has.
_SIZES_BY_FIRST: dict[int, dict[str, tuple[int, ...]]] = {}
_STEM_OF = attrgetter("stem")


def _sizes_by_first(table: Mapping[str, object]) -> dict[str, tuple[int, ...]]:
    sizes: dict[str, set[int]] = {}
    for key in table:
        words = key.split(" ")
        sizes.setdefault(words[0], set()).add(len(words))
    return {first: tuple(sorted(found, reverse=True)) for first, found in sizes.items()}


def _table_sizes(table: Mapping[str, object]) -> dict[str, tuple[int, ...]]:
    by_first = _SIZES_BY_FIRST.get(id(table))
    if by_first is None:
        by_first = _SIZES_BY_FIRST[id(table)] = _sizes_by_first(table)
    return by_first


def _longest_at(
    table: Mapping[str, V], sizes: tuple[int, ...], tokens: list[Token], index: int
) -> Hit[V] | None:
    remaining = len(tokens) - index
    for size in sizes:
        if size > remaining:
            continue
        key = " ".join(t.stem for t in tokens[index : index + size]) if size > 1 else None
        key = tokens[index].stem if key is None else key
        value = table.get(key)
        if value is not None:
            return Hit(index, index + size, value, key)
    return None


def match_at(table: Mapping[str, V], tokens: list[Token], index: int) -> Hit[V] | None:
    sizes = _table_sizes(table).get(tokens[index].stem)
    return None if sizes is None else _longest_at(table, sizes, tokens, index)


def scan(
    table: Mapping[str, V], tokens: list[Token], stems: frozenset[str] | None = None
) -> list[Hit[V]]:
    """All non-overlapping hits, left to right, longest phrase first at each position
    (`stems`: the tokens' stems, when known)."""
    by_first = _table_sizes(table)
    if by_first.keys().isdisjoint(stems if stems is not None else map(_STEM_OF, tokens)):
        return []  # most tables have no phrase in most sentences
    stems_in_order = list(map(_STEM_OF, tokens))
    hits: list[Hit[V]] = []
    index = 0
    while index < len(tokens):
        sizes = by_first.get(stems_in_order[index])
        hit = None if sizes is None else _longest_at(table, sizes, tokens, index)
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


_QUOTES = "«\"“„'"


@dataclass
class ScannedText:
    original: str
    folded: str
    tokens: list[Token]
    stems: frozenset[str] | None = None  # of the tokens: a table none begins is not scanned
    # what a scan of the whole text found, for readers that ask of it word by word
    memo: dict[str, frozenset[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str) -> ScannedText:
        folded = fold(text)
        tokens = corrected_tokens(folded)
        return cls(text, folded, tokens, frozenset(map(_STEM_OF, tokens)))

    def quoted(self, index: int) -> bool:
        """Does a quotation mark open right before the token at `index` («„золотое“ имя»)?"""
        start = self.tokens[index].start
        return start > 0 and self.original[start - 1] in _QUOTES

    def span(self, hit: Hit[object]) -> str:
        return self.original[self.tokens[hit.start].start : self.tokens[hit.end - 1].end]

    def next_word(self, hit: Hit[object]) -> str | None:
        return self.tokens[hit.end].text if hit.end < len(self.tokens) else None

    def previous_word(self, hit: Hit[object]) -> str | None:
        return self.tokens[hit.start - 1].text if hit.start > 0 else None

    def food_follows(self, hit: Hit[object]) -> bool:
        """«красная рыба», «white fish», «red meat»: the colour is the food's. «белое рыба»
        (a neuter colour before a noun it cannot agree with) is the wine's colour and a dish."""
        if hit.end >= len(self.tokens):
            return False
        if self.disagrees(hit.end - 1):
            return False
        return (
            match_at(FOOD_WORDS, self.tokens, hit.end) is not None
            or self.tokens[hit.end].stem in MEAL_WORDS
        )

    def disagrees(self, index: int) -> bool:
        """A neuter adjective («белое», «красное») before a word it cannot agree with
        («рыба», «рыбку»): they are not one phrase."""
        if index + 1 >= len(self.tokens):
            return False
        first, then = self.tokens[index].text, self.tokens[index + 1].text
        return first.endswith(_NEUTER_ENDINGS) and then.endswith(_NOT_NEUTER_NOUN_ENDINGS)

    def food_apart_from_colour(self, hit: Hit[V]) -> Hit[V] | None:
        """«белое рыба»: the food a phrase names without the wine's colour before it (the
        hit itself when its words agree: «красная рыба», «красное мясо»)."""
        if hit.end - hit.start < 2 or not self.disagrees(hit.start):
            return hit
        return match_at(FOOD_WORDS, self.tokens, hit.start + 1)  # type: ignore[return-value]

    def food_before_agrees(self, hit: Hit[object]) -> bool:
        """«рыба будет красная»: a feminine adjective after a food says what the food is like
        (a wine is «красное»); «к рыбе красное» is the wine."""
        if not self.tokens[hit.start].text.endswith(_FEMININE_ENDINGS):
            return False
        return any(
            match_at(FOOD_WORDS, self.tokens, at) is not None
            for at in range(max(0, hit.start - 3), hit.start)
        )


def live_hits(table: Mapping[str, V], text: ScannedText) -> list[Hit[V]]:
    """Hits that are neither negated («не сладкое») nor false friends («сырой погоды»)."""
    return [
        hit
        for hit in scan(table, text.tokens, text.stems)
        if not negated(text.tokens, hit.start)
        and not any(t.text in FALSE_FRIENDS for t in text.tokens[hit.start : hit.end])
    ]


def first_distinct(hits: list[Hit[V]]) -> list[Hit[V]]:
    seen: dict[V, Hit[V]] = {}
    for hit in hits:
        seen.setdefault(hit.value, hit)
    return list(seen.values())
