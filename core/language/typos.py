"""Typos of the shop's own words: «рисленг», «шардонэ», «пинонуар», «шошлык», «сухле».

A word that neither the Russian dictionary nor any vocabulary table knows is replaced by the
closest word of the tables (types, sweetness, body, grapes, places, dishes) when it is close
enough (`rapidfuzz` over Snowball stems, the same first letter); a word written together
(«пинонуар») becomes the phrase it joins. Words the dictionary knows are never touched:
«сухой» is not a typo of anything, and a wine's own name is matched by the catalog index.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache

from rapidfuzz import fuzz, process

from core.language.folding import TOKEN_RE, Token, fold, stem
from core.language.foods import FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import analyse
from core.language.places import COUNTRY_ALIASES, REGION_ALIASES
from core.language.vocabulary import BODY_WORDS, SWEETNESS_WORDS, WINE_TYPE_WORDS

MIN_LENGTH = 5  # shorter words have too many neighbours to correct safely
_CYRILLIC_CUTOFF = 80.0  # measured on the development dialogs: «шошлык» 83, «мерлоу» 80
_LENGTH_SLACK = 2
_LATIN_CUTOFF = 88.0  # Latin words are not checked against a dictionary: stricter


@cache
def _vocabulary() -> tuple[frozenset[str], dict[str, tuple[str, ...]]]:
    """(every stem the tables hold, {a stem or joined phrase: the stems it stands for})."""
    known: set[str] = set()
    spellings: dict[str, tuple[str, ...]] = {}
    tables = (
        WINE_TYPE_WORDS,
        SWEETNESS_WORDS,
        BODY_WORDS,
        GRAPE_ALIASES,
        FOOD_WORDS,
        COUNTRY_ALIASES,
        REGION_ALIASES,
    )
    for table in tables:
        for key in table:
            parts = tuple(key.split())
            known.update(parts)
            for part in parts:
                if len(part) >= 3:
                    spellings.setdefault(part, (part,))
            if len(parts) > 1:
                spellings.setdefault("".join(parts), parts)
    return frozenset(known), spellings


@cache
def _spellings_by_first_letter() -> dict[str, list[str]]:
    """The tables' spellings by their first letter, in the tables' order."""
    found: dict[str, list[str]] = {}
    for spelling in _vocabulary()[1]:
        found.setdefault(spelling[0], []).append(spelling)
    return found


@lru_cache(maxsize=65536)
def corrected(word: str, word_stem: str) -> tuple[str, ...] | None:
    """The stems a misspelt word stands for, or None when it is no typo of the tables."""
    if len(word) < MIN_LENGTH:
        return None
    known, spellings = _vocabulary()
    if word_stem in known:
        return None
    latin = word.isascii()
    if not latin and analyse(word)[1]:
        return None  # a real Russian word
    candidates = _spellings_by_first_letter().get(word_stem[0], [])
    cutoff = _LATIN_CUTOFF if latin else _CYRILLIC_CUTOFF
    found = process.extract(word_stem, candidates, scorer=fuzz.ratio, score_cutoff=cutoff, limit=3)
    # a typo changes a letter or two, not the word's length by three («барбареско» is no
    # misspelt «барбекю»)
    near = [hit for hit in found if abs(len(hit[0]) - len(word_stem)) <= _LENGTH_SLACK]
    return spellings[near[0][0]] if near else None


def corrected_tokens(folded: str) -> list[Token]:
    """The words of a folded text as tokens, typos of vocabulary words replaced by the words
    they stand for (positions kept for quoting)."""
    tokens: list[Token] = []
    for match in TOKEN_RE.finditer(folded):
        word, (start, end) = match.group(), match.span()
        for word_stem in _read_stems(word):
            tokens.append(_token(Token, (word, word_stem, start, end)))
    return tokens


# A Token made without the Python-level constructor a named tuple adds: words by the thousand.
_token: Callable[[type[Token], tuple[str, str, int, int]], Token] = tuple.__new__  # type: ignore[assignment]


@lru_cache(maxsize=65536)
def _read_stems(word: str) -> tuple[str, ...]:
    """The stems a folded word is read as: its own, or those of the words it misspells."""
    own = stem(word)
    stems = corrected(word, own)
    return (own,) if stems is None else stems


# Little words a phone keyboard glues to the next one: «дотысячи», «кшашлыку», «подрыбу».
_GLUED_PREPOSITIONS = ("без", "для", "под", "до", "от", "за", "на", "из", "ко", "по", "к", "с", "в")
_WORD_RE = re.compile(r"[А-Яа-яЁё]+")


def _known(word: str) -> bool:
    return len(word) >= 3 and analyse(word)[1]


@lru_cache(maxsize=16384)
def glued_at(word: str) -> int:
    """Where a word written together with the next one splits («дотысячи» → 2, «белоесухое» →
    5), or 0: only a word no dictionary or table knows, into a little word of place and a word
    («до тысячи», «к шашлыку»), or into two words of the shop's tables («белое сухое»)."""
    table, _ = _vocabulary()
    if len(word) < MIN_LENGTH or stem(word) in table or _known(word):
        return 0
    if corrected(word, stem(word)) is not None:
        return 0  # a typo of one word («шардонэ») or a phrase («пинонуар») of the tables
    if word.startswith("по") and word.endswith(("ее", "ей")):
        return 0  # «понасыщенее»: a comparative misspelt, not «по» and a word
    for little in _GLUED_PREPOSITIONS:
        rest = word[len(little) :]
        if not word.startswith(little) or len(rest) < 4:
            continue
        # «к», «с», «в» begin too many words: only before a word of the tables («кшашлыку»)
        if stem(rest) in table or (len(little) > 1 and _known(rest)):
            return len(little)
    for cut in range(4, len(word) - 3):  # «белоесухое»: two words of the tables
        if stem(word[:cut]) in table and stem(word[cut:]) in table:
            return cut
    return 0


def split_glued(text: str) -> str:
    """`text` with words written together split: «белоесухое дотысячи» → «белое сухое до
    тысячи»."""
    parts: list[str] = []
    last = 0
    for match in _WORD_RE.finditer(text):
        if match.group()[0].isupper() and not match.group().isupper():
            continue  # a name («Казелла», «Наусе»), not two words
        cut = glued_at(fold(match.group()))
        if cut:
            parts += [text[last : match.start() + cut], " "]
            last = match.start() + cut
    return "".join(parts) + text[last:] if parts else text


# The comparatives a follow-up is said in: «подишевле», «дешевлее», «подорожe» are these
# misspelt. Only a word no dictionary or table knows is taken for one.
_STEP_WORDS = (
    "подешевле",
    "дешевле",
    "подороже",
    "дороже",
    "посуше",
    "послаще",
    "полегче",
    "покрепче",
    "помощнее",
    "попроще",
    "поплотнее",
    "посолиднее",
    "понасыщеннее",
    "потяжелее",
    "поинтереснее",
    "побюджетнее",
    "бюджетнее",
)
_STEP_CUTOFF = 85.0  # «подишевле» 89, «дешевлее» 93; «посолидней» is a dictionary word
_AS_SAID = str.maketrans("ое", "аи")


@lru_cache(maxsize=16384)
def step_word_of(word: str) -> str | None:
    """The comparative a misspelt word stands for, or None."""
    if len(word) < MIN_LENGTH or word in _STEP_WORDS or _known(word):
        return None
    if corrected(word, stem(word)) is not None:
        return None  # «сухле» is «сухое», not «суше»
    # spelt as said: an unstressed «о» written «а», «е» written «и» («падароже», «подишевле»)
    heard = word.translate(_AS_SAID)
    candidates = {s.translate(_AS_SAID): s for s in _STEP_WORDS if s[0] == word[0]}
    found = process.extractOne(
        heard, list(candidates), scorer=fuzz.ratio, score_cutoff=_STEP_CUTOFF
    )
    return candidates[str(found[0])] if found else None


def step_words_spelt(text: str) -> str:
    """`text` with misspelt comparatives of a follow-up written right: «а подишевле?» → «а
    подешевле?»."""

    def spelt(match: re.Match[str]) -> str:
        return step_word_of(fold(match.group())) or match.group()

    return _WORD_RE.sub(spelt, text)
