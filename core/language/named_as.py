"""Names given as what something is called: «синсо, который в ЮАР зовут эрмитажем», «он же
тинта рориш», «known as steen». The word after the naming words is a name, though the
dictionary knows it as a common word («эрмитаж»), and the wine's own words must bear it out;
a grape or a place the vocabulary reads is left to its own reader («шираз, он же сира»).
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.language.folding import word_set
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import analyse, is_adjective, noun_lemma
from core.language.places import COUNTRY_ALIASES, REGION_ALIASES
from core.language.required_words import finditer_gated
from core.language.scanning import ScannedText, live_hits

_NAMING = re.compile(
    r"(?<![а-яёa-z])(?:зов[уеё]т\w*|называ\w+|именуе?\w*|прозва\w+|прозыва\w+"
    r"|известн\w* как|он же|она же|оно же|они же|(?:also )?known as|called|aka)(?![а-яёa-z])"
)
# Words between the naming words and the name: «зовут в ЮАР», «называют его», «known as the».
_PREPOSITIONS = frozenset({"в", "во", "на", "у", "по", "in", "on", "by"})
_PASSED = word_set(
    "его себя ее их так также тоже часто иногда порой нередко еще местные здесь там тут просто "
    "the a locally also sometimes"
)
_VOCABULARY = (GRAPE_ALIASES, COUNTRY_ALIASES, REGION_ALIASES)


def named_as(message: ScannedText) -> list[str]:
    """The names `message` gives as what something is called, as written."""
    if next(finditer_gated(_NAMING, message.folded), None) is None:
        return []
    return _named_as(message.original)


@lru_cache(maxsize=4096)
def _named_as(text: str) -> list[str]:
    message = ScannedText.of(text)
    tokens = message.tokens
    covered = {
        position
        for table in _VOCABULARY
        for hit in live_hits(table, message)
        for position in range(hit.start, hit.end)
    }
    found: list[str] = []
    for match in _NAMING.finditer(message.folded):
        position = next((i for i, t in enumerate(tokens) if t.start >= match.end()), len(tokens))
        while position < len(tokens) and position not in covered:
            word = tokens[position].text
            if word in _PREPOSITIONS:
                position += 2  # «в ЮАР»: where it is called so, not what
            elif word in _PASSED:
                position += 1
            else:
                break
        if position >= len(tokens) or position in covered:
            continue
        token = tokens[position]
        written = message.original[token.start : token.end]
        if len(written) >= 3 and _may_be_a_name(token.text):
            found.append(written)
    return found


def _may_be_a_name(word: str) -> bool:
    """A noun, or a word the dictionary lacks; not an adjective («называют лучшим»)."""
    if word.isascii():
        return True
    return not is_adjective(word) and (noun_lemma(word) is not None or not analyse(word)[1])
