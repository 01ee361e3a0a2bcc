"""Dictionary forms of words: «беременности» → «беременность», «скисло» → «скислый».

Russian words go through pymorphy3 (the OpenCorpora dictionary with its rules for words it
does not know); Latin words are lowercased and reduced by the English Snowball stemmer, which
is all a wine word in English needs («tannins» → «tannin»). Forms are folded the way every
other reader folds them (`folding.fold`: ё → е), so «дешёвый» and «дешевый» are one lemma.

The analyzer is built once, on first use, and every word is analysed once per process: a
message's words are mostly the same few thousand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from core.language.folding import TOKEN_RE, fold, stem, word_set


@dataclass(frozen=True)
class Word:
    text: str  # folded, as written
    lemma: str
    known: bool  # in the dictionary (Russian) or plain Latin; unknown words may be typos
    start: int
    end: int
    person: bool = False  # a person's name («Наполеон», «Паркер»)


@cache
def _analyzer() -> object:
    import pymorphy3  # imported here: a process that never reads Russian never loads it

    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=65536)  # one parse of a word for every question asked of it
def _first_parse(word: str) -> Any:
    """pymorphy's first (most likely) parse of one word."""
    return _analyzer().parse(word)[0]  # type: ignore[attr-defined]


# Forms the dictionary reads as another word: in a wine shop «вине» is wine, not guilt.
_OVERRIDES = {
    form: "вино" for form in ("вина", "вине", "вину", "вином", "винам", "винами", "винах")
}


_PERSON = frozenset({"Name", "Surn", "Patr"})


@lru_cache(maxsize=65536)
def is_person(word: str) -> bool:
    if word.isascii() or word in _OVERRIDES:
        return False
    parse = _first_parse(word)
    return bool(_PERSON & set(parse.tag.grammemes))


@lru_cache(maxsize=65536)
def is_first_name(word: str) -> bool:
    """«Маша», «Петровичу»: a person's first name or patronymic (a surname may be a house's)."""
    if word.isascii() or word in _OVERRIDES or (parse := _known_parse(word)) is None:
        return False
    return bool({"Name", "Patr"} & set(parse.tag.grammemes))


@lru_cache(maxsize=65536)
def is_common_word(word: str) -> bool:
    """«Вдова», «Сомелье», «Пожалуйста»: a word the dictionary knows as a common one — not a
    thing's name, a place or a brand, nor a loan it does not decline («мукузани», «шабли»),
    which may be a wine's."""
    if word.isascii() or (parse := _known_parse(word)) is None:
        return False
    grammemes = set(parse.tag.grammemes)
    if parse.tag.POS != "NOUN" or "anim" in grammemes:  # «Пожалуйста», «Сомелье»
        return True
    return not grammemes & (_PROPER | {"Fixd"})


@lru_cache(maxsize=65536)
def is_animate_noun(word: str) -> bool:
    """«папе», «брату», «тёще»: a common noun the dictionary knows for a living being —
    someone the wine is for, never a wine's name («Papa Figos»). A surname or first name may
    be a house's («Линч» of Lynch-Bages)."""
    if word.isascii() or (parse := _known_parse(word)) is None:
        return False
    grammemes = set(parse.tag.grammemes)
    return parse.tag.POS == "NOUN" and "anim" in grammemes and not grammemes & _PERSON


@lru_cache(maxsize=65536)
def noun_lemma(word: str) -> str | None:
    """The dictionary form of a known Russian noun («пармезану» → «пармезан»), else None: an
    adjective («жареной») names no dish by itself."""
    if word.isascii() or word in _OVERRIDES or (parse := _known_parse(word)) is None:
        return None
    return fold(parse.normal_form) if parse.tag.POS == "NOUN" else None


def is_adjective(word: str) -> bool:
    """«жареной», «острой»: a word the dictionary reads first as an adjective or participle."""
    if word.isascii() or (parse := _known_parse(word)) is None:
        return False
    return parse.tag.POS in ("ADJF", "ADJS", "PRTF")


_PROPER = frozenset({"Name", "Surn", "Patr", "Geox", "Orgn", "Trad"})


@lru_cache(maxsize=65536)
def is_proper_noun(word: str) -> bool:
    """«ротшильда», «вега»: a word the dictionary knows as a name, a place or a brand, however
    it is written (a lower-case name is a name all the same)."""
    if word.isascii() or word in _OVERRIDES:
        return False
    parse = _first_parse(word)
    return bool(_PROPER & set(parse.tag.grammemes))


@lru_cache(maxsize=65536)
def is_place_name(word: str) -> bool:
    """«альпы», «дунай»: a word the dictionary reads first as a place, in its dictionary form
    (not «королев», which it reads first as «королева»)."""
    if word.isascii():
        return False
    parse = _first_parse(word)
    return "Geox" in parse.tag.grammemes and parse.normal_form == word


@lru_cache(maxsize=65536)
def is_indeclinable(word: str) -> bool:
    """«мукузани», «саперави»: a noun borrowed whole, which Russian does not decline (grapes,
    wines and places from other languages mostly are)."""
    if word.isascii():
        return False
    parse = _first_parse(word)
    return "NOUN" in parse.tag and "Fixd" in parse.tag


@lru_cache(maxsize=65536)
def is_past_verb(word: str) -> bool:
    """«пил», «подавали»: a verb in the past tense (a story, not a wish)."""
    if word.isascii():
        return False
    tag = _first_parse(word).tag
    return "VERB" in tag and "past" in tag


@lru_cache(maxsize=65536)
def is_predicate(word: str) -> bool:
    """A verb, a predicative or a comparative («подают», «можно», «хуже»): a sentence says
    something about its subject."""
    if word.isascii():
        return word in _ENGLISH_PREDICATES
    tag = _first_parse(word).tag
    return bool({"VERB", "INFN", "PRED", "COMP"} & set(tag.grammemes))


@lru_cache(maxsize=65536)
def is_comparative(word: str) -> bool:
    """«подороже», «дороже», «милее»: a comparison, not the adjective's own form."""
    if word.isascii():
        return False
    return "COMP" in _first_parse(word).tag


@lru_cache(maxsize=65536)
def compared_adjective(word: str) -> str | None:
    """«позажиточнее» → «зажиточный», «престижнее» → «престижный»: the adjective a
    comparative compares by, or None for a word that is no comparative."""
    if word.isascii() or not word.endswith(("ее", "ей", "е")):
        return None
    for parse in _analyzer().parse(word):  # type: ignore[attr-defined]
        if "COMP" in parse.tag:  # «пафоснее» is first read as a place's name
            return str(parse.normal_form)
    return None


@lru_cache(maxsize=65536)
def is_statement_verb(word: str) -> bool:
    """A verb in the present, past or future («показывают», «делают», «пахнет») or a
    comparative without «по-» («слаще», not «послаще», which wishes): what a question says of
    its subject, unlike an infinitive («взять», «выбрать») that asks for a pick."""
    if word.isascii():
        return False
    tag = _first_parse(word).tag
    return ("VERB" in tag and "impr" not in tag) or ("COMP" in tag and not word.startswith("по"))


_ENGLISH_PREDICATES = word_set(
    "is are was were be does do did can could should would has have means mean go goes"
)


# Folding writes «й» as «и» (people type either); the dictionary knows only the «й»: an «и»
# after a vowel and before a consonant or the end is tried as «й» when the word is unknown.
_LOST_SHORT_I = re.compile(r"(?<=[аеиоуыэюя])и(?=[бвгджзклмнпрстфхцчшщ]|$)")


@lru_cache(maxsize=65536)
def analyse(word: str) -> tuple[str, bool]:
    """(lemma, known) of one folded word. A word the dictionary does not know (a grape, a
    term, a typo) is reduced by the Snowball stemmer instead of pymorphy's guess, which makes
    up a verb of «брют» («броть»)."""
    if word.isascii():
        return stem(word), True
    if word in _OVERRIDES:
        return _OVERRIDES[word], True
    parse = _known_parse(word)
    if parse is None:
        return stem(word), False
    return fold(parse.normal_form), True


def _known_parse(word: str) -> Any | None:
    """pymorphy's first parse of a word its dictionary knows — with its «й» back when folding
    wrote it as «и» («меньшеи», «сухои») — or None."""
    morph = _analyzer()
    for spelt in dict.fromkeys((word, _LOST_SHORT_I.sub("й", word))):
        if morph.word_is_known(spelt):  # type: ignore[attr-defined]
            return _first_parse(spelt)
    return None


def lemma(word: str) -> str:
    return analyse(fold(word))[0]


def words_of(text: str) -> list[Word]:
    """The words of `text` (folded) with their lemmas and positions in the text."""
    folded = fold(text)
    found: list[Word] = []
    for match in TOKEN_RE.finditer(folded):
        base, known = analyse(match.group())
        word = match.group()
        found.append(Word(word, base, known, match.start(), match.end(), is_person(word)))
    return found


_REACTION_POS = frozenset({"ADVB", "PRED", "INTJ", "PRCL", "CONJ"})
_FEELING_POS = frozenset({"ADVB", "PRED", "INTJ"})
# a wine's quality said alone («сладко», «сухо») is said of the wine, not a feeling
_QUALITY_STEMS = ("слад", "сух", "кисл", "дорог", "дешев", "легк", "тяжел", "крепк", "терпк")


def reacts_only(words: list[Word]) -> bool:
    """«смешно», «вот это да», «жаль», «серьёзно?»: a few words of feeling, and nothing a
    request or a question is made of (no noun, verb or adjective)."""
    if not words or len(words) > 4 or any(w.text.isascii() for w in words):
        return False
    kinds = [_first_parse(w.text).tag.POS for w in words]
    return (
        all(kind in _REACTION_POS for kind in kinds)
        and (len(words) > 1 or kinds[0] in _FEELING_POS)
        and not any(w.text.startswith(_QUALITY_STEMS) for w in words)
    )


def lemmas_of(text: str) -> list[str]:
    return [word.lemma for word in words_of(text)]


def with_forms(groups: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each group's words with every form the dictionary knows of them: «Уругвай» brings
    «Уругвая», «Уругвае», «Уругваем», whose Snowball stems do not all agree."""
    morph = _analyzer()
    grown: dict[str, list[str]] = {}
    for meaning, aliases in groups.items():
        forms = list(aliases)
        for alias in aliases:
            if " " in alias or alias.isascii() or not morph.word_is_known(alias):  # type: ignore[attr-defined]
                continue
            parse = morph.parse(alias)[0]  # type: ignore[attr-defined]
            forms += [fold(form.word) for form in parse.lexeme]
        grown[meaning] = list(dict.fromkeys(forms))
    return grown
