"""The literal strings one of which every match of a pattern holds, read off the pattern itself.

A cue pattern (core/language/claim_cues.py) is an alternation of words behind a look-behind, so
Python's regex engine tries it at every position of a text; most sentences hold none of its
words. `required_words` finds, for a pattern, strings such that any match contains one of them
(«балл», «медал», «звезд»… for the awards), and a text holding none of them is not searched.
Derived from the parsed pattern, not written by hand: it cannot drift from the pattern.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any


def required_words(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings one of which every match of `pattern` contains, or None when the pattern
    requires none this reading can tell (a case-insensitive part, a bare character class)."""
    if pattern.flags & re.IGNORECASE:
        return None
    return _of_sequence(sre_parse.parse(pattern.pattern, pattern.flags))


def _of_sequence(items: Any) -> frozenset[str] | None:
    """The most selective requirement of a sequence: any one item's requirement holds for it."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, argument in items:
        if op is sre.LITERAL:
            run.append(chr(argument))
            continue
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        found = _of_item(op, argument)
        if found is not None:
            candidates.append(found)
    if run:
        candidates.append(frozenset({"".join(run)}))
    # the longest shortest string, then the fewest strings: the rarest in a text
    return max(candidates, key=lambda words: (min(map(len, words)), -len(words)), default=None)


def _of_item(op: Any, argument: Any) -> frozenset[str] | None:
    if op is sre.SUBPATTERN:
        _, added_flags, _, sequence = argument
        if added_flags & sre.SRE_FLAG_IGNORECASE:
            return None
        return _of_sequence(sequence)
    if op is sre.BRANCH:  # each alternative must require something
        found: set[str] = set()
        for alternative in argument[1]:
            words = _of_sequence(alternative)
            if words is None:
                return None
            found |= words
        return frozenset(found)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        least, _, sequence = argument
        return _of_sequence(sequence) if least >= 1 else None
    return None  # a class, an anchor, a look-around: no literal this reading relies on


def any_word_pattern(words: frozenset[str]) -> re.Pattern[str]:
    """One pattern finding any of `words` (longest first)."""
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))))


# By the pattern's id: hashing a compiled pattern hashes its whole code. The pattern is kept
# beside its gate, so its id is never another's.
_GATES: dict[int, tuple[re.Pattern[str], re.Pattern[str] | None]] = {}
_NOTHING: Iterator[re.Match[str]] = iter(())  # empty for good: shared by every call


def gate_of(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """The pattern finding any word every match of `pattern` holds (None: no such words)."""
    known = _GATES.get(id(pattern))
    if known is None:
        words = required_words(pattern)
        known = _GATES[id(pattern)] = (pattern, any_word_pattern(words) if words else None)
    return known[1]


def finditer_gated(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, at once empty when `text` holds none of its required words."""
    known = _GATES.get(id(pattern))
    gate = known[1] if known is not None else gate_of(pattern)
    return _NOTHING if gate is not None and gate.search(text) is None else pattern.finditer(text)
