"""Names the wine's words may write otherwise: an ordinal they write as a Roman numeral
(«Виктором Эммануилом Вторым» of «Виктором Эммануилом II»), a grape the vocabulary lacks that
is one of the row's spelt otherwise («ролля» of «роль»)."""

from __future__ import annotations

import re
from collections.abc import Set
from functools import lru_cache

from core.language.folding import fold
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import lemma
from services.agent._name_sounds import name_sounds

_ROMAN = {
    "первый": "I",
    "второй": "II",
    "третий": "III",
    "четвертый": "IV",
    "пятый": "V",
    "шестой": "VI",
    "седьмой": "VII",
    "восьмой": "VIII",
    "девятый": "IX",
    "десятый": "X",
}


def numerals_as_written(name: str, own: str) -> str:
    """A name without the ordinals the wine's words write as Roman numerals: «Виктором
    Эммануилом Вторым» of «Виктором Эммануилом II»."""
    written = roman_numerals(own)
    kept = [w for w in name.split() if _ROMAN.get(lemma(fold(w)), "") not in written]
    return " ".join(kept)


_ROMAN_NUMERAL = re.compile(r"[IVX](?<![\w].)[IVX]*(?![\w])")  # the engine looks at I, V, X only


@lru_cache(maxsize=4096)
def roman_numerals(text: str) -> frozenset[str]:
    return frozenset(_ROMAN_NUMERAL.findall(text))


_KNOWN_GRAPES = frozenset(GRAPE_ALIASES.values())


def spelt_otherwise(grape: str, grapes: Set[str]) -> bool:
    """Is a grape the vocabulary lacks one of the row's `grapes` spelt otherwise, by its sound
    («купаж гренаша, синсо и ролля» of a grenache, cinsault and rolle)?"""
    if grape in _KNOWN_GRAPES or not grapes:
        return False
    sounds = name_sounds(grape)  # a word of «тинта рориш» alone is no grape of the row
    return any(sounds & name_sounds(known) for known in grapes if " " not in known)
