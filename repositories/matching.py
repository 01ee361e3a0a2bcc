"""Tolerant matching of the free-text filter values people and models write.

Catalog values are stored lowercase in Russian («каберне совиньон», «стейк из говядины»). A
filter term and each stored value are read with the one vocabulary and stemmer of
`core.language`:
- when both name a known concept, they match when it is the same concept: «syrah» and «шираз»
  are one grape, «primitivo» and «зинфандель» too, while «пти сира» is another grape;
- when only the term does, the value matches if one of the concept's phrases begins its words
  («стейку» → стейк finds «стейк из говядины»);
- otherwise every stemmed word of the term must begin a word of the value.
"""

from __future__ import annotations

from collections.abc import Mapping

from core.language.folding import content_key, stem_key, words
from core.language.request import country_from_text


def canonical_country(term: str) -> str:
    """The catalog's name of a country however it is written («USA», «американское» → США)."""
    return country_from_text(term) or term.strip()


def matching_values(
    term: str,
    vocabulary: frozenset[str],
    concepts: Mapping[str, str] | None = None,
    categories: Mapping[str, tuple[str, ...]] | None = None,
) -> list[str]:
    """The stored values (from `vocabulary`) that `term` means; `concepts` maps phrases (as
    stem keys) to their concept, e.g. `core.language.grapes.GRAPE_ALIASES`; `categories`
    widens a concept to its members («мясо» → стейк, баранина…).

    Remembered per (term, vocabulary): the vocabulary is a cached frozenset that changes only
    when the catalog does, and folding every value again on each search costs milliseconds."""
    memo_key = (term, vocabulary, id(concepts), id(categories))
    found = _MATCHES.get(memo_key)
    if found is None:
        if len(_MATCHES) >= MATCH_MEMO_SIZE:
            _MATCHES.clear()
        found = _MATCHES[memo_key] = _matching_values(term, vocabulary, concepts, categories)
    return list(found)


MATCH_MEMO_SIZE = 4096
_MATCHES: dict[tuple[str, frozenset[str], int, int], list[str]] = {}


def _matching_values(
    term: str,
    vocabulary: frozenset[str],
    concepts: Mapping[str, str] | None,
    categories: Mapping[str, tuple[str, ...]] | None,
) -> list[str]:
    table = concepts or {}
    key = content_key(term) or stem_key(term)
    concept = table.get(key)
    if concept is None:
        return sorted(v for v in vocabulary if _begins(key, v))
    wanted = {concept, *(categories or {}).get(concept, ())}
    phrases = [p for c in wanted for p in _phrases_of(table).get(c, [])]
    return sorted(
        value
        for value in vocabulary
        if table.get(stem_key(value)) in wanted
        or (stem_key(value) not in table and any(_begins(p, value) for p in phrases))
    )


def _begins(key: str, value: str) -> bool:
    """Every stem of `key` begins some word of `value`."""
    stems = key.split()
    value_words = words(value)
    return bool(stems) and all(any(w.startswith(s) for w in value_words) for s in stems)


# The vocabulary tables are module constants: their phrases by concept are computed once.
_PHRASES: dict[int, dict[str, list[str]]] = {}


def _phrases_of(table: Mapping[str, str]) -> dict[str, list[str]]:
    by_concept = _PHRASES.get(id(table))
    if by_concept is None:
        by_concept = {}
        for key, concept in table.items():
            by_concept.setdefault(concept, []).append(key)
        _PHRASES[id(table)] = by_concept
    return by_concept
