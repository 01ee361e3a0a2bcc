"""Shapes of a wine question the message kinds (`kinds`) tell from a request: which wine for an
entry's own subject, a term no dictionary knows, a place whose wines a phrase names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.domain import WineFilters
from core.language import message_cues as cue
from core.language.lemmas import Word, is_statement_verb
from core.language.price_bands import PriceBand
from core.language.retrieval import KnowledgeEntry

_CONDITIONS = ("country", "region", "grape_variety", "price_min", "price_max")


def about_subject(
    folded: str, asks_which: bool, filters: WineFilters, price_band: PriceBand | None
) -> bool:
    """A question which wine, or which is better, that sets no condition of a pick (a price, a
    place, a grape, one colour, a verb asking the bot to pick): «какое вино подходит к сыру?»,
    «к сырной тарелке белое или красное лучше?» — it asks about a subject, when an entry's
    title names it."""
    if not (asks_which or cue.BETTER.search(folded)) or price_band is not None:
        return False
    if any(getattr(filters, name) is not None for name in _CONDITIONS):
        return False
    if filters.wine_type is not None and not re.search(r"(?<![а-я])или(?![а-я])", folded):
        return False
    return not (cue.PICK.search(folded) or cue.AVAILABLE.search(folded))


def unknown_term(word: Word) -> bool:
    """A Cyrillic word of five letters or more that no dictionary knows and is no name."""
    return not word.known and not word.person and len(word.text) >= 5 and not word.text.isascii()


def names_a_place(entry: KnowledgeEntry) -> bool:
    """The entry is about a country or region (its example wines are chosen by place)."""
    return bool(entry.cards) and not {"country", "region"}.isdisjoint(entry.cards or {})


_ASKING_WORDS = frozenset({"что", "чем", "кто", "шо", "чё", "че"})
_BETWEEN = frozenset({"там", "тут", "же", "вообще", "это", "ж", "у", "них", "него", "нее"})


def asks_after_subject(words: Sequence[Word]) -> bool:
    """The subject first, then what is asked of it (spoken word order): «слезы вина на стенках
    что показывают», «бургундия — что там за вино делают», «брют, экстра брют — что слаще»: a
    question word followed by a verb that states or a comparative, or by «за» («что там за»),
    not by an infinitive that asks for a pick («что взять»)."""
    for number, word in enumerate(words):
        if word.text not in _ASKING_WORDS:
            continue
        rest = [w.text for w in words[number + 1 :] if w.text not in _BETWEEN]
        if rest and (rest[0] == "за" or is_statement_verb(rest[0])):
            return True
    return False
