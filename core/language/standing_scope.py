"""Where a standing holds: «старейшая винодельня Мендосы», «largest in Burgundy», «Argentina's
oldest». A standing (core/language/claim_cues.py) is borne out only by the same standing in the
wine's own words said of the same place — «крупнейший в Бургундии» is not «один из крупнейших
в Шабли», «старейшая в Аргентине» not «одна из старейших в Мендосе».
"""

from __future__ import annotations

import re

from core.language.catalog_terms import skeletons
from core.language.claim_shapes import TITLE_GATE
from core.language.folding import stem_key
from core.language.lemmas import analyse, is_proper_noun
from core.language.places import COUNTRY_ALIASES, REGION_ALIASES

# Where a standing holds («старейшая винодельня Мендосы», «largest in Burgundy»): the first
# place named after it in its clause — a country or region the vocabulary reads, a part of the
# world, a place's adjective («шампанский дом»), a name the dictionary knows, or in English a
# word after «in» or «of» — as the vocabulary's place or as the sounds of the word.
_CLAUSE = re.compile(r"[^,.;:!?()—–]*")
_SCOPE_WORD = re.compile(r"[a-zа-яё][a-zа-яё'-]*")
_BROAD = re.compile(
    r"^(?:полушари|континент|hemispher|continent|европ|europ|кавказ|caucas|ази|asia|африк"
    r"|afric|балкан|balkan)"
)
_PLACE_ADJECTIVE = re.compile(r"^[а-яё]{3,}(?<!че)ск(?:ий|ого|ому|им|ом|ая|ой|ую|ое|ие|их|ими)$")
_ENGLISH_POINTERS = frozenset({"in", "of"})
_HERE = re.compile(r"^(?:регион|стран[аеуы]|долин|район|област|кра[яю]|округ|зон[аеыу])")
HERE = "здесь"


def standing_scope(folded: str, end: int, every: bool = False) -> str:
    """The place the standing that ends at `end` is said of, or "" when none is named. Of the
    wine's own words (`every`), the sounds of every word the place may be among as well: their
    «старейших тенут Мареммы» bears out «Maremma's oldest» whatever the dictionary makes of it."""
    clause = _CLAUSE.match(folded, end)
    words = _SCOPE_WORD.findall(clause.group() if clause else "")[:8]
    scope = _first_scope(words)
    if not every:
        return scope
    sounds = {_sounds_of_place(word) for word in words if len(word) >= 4 and word != "the"}
    return "/".join(sorted({*scope.split("/"), *"/".join(sounds).split("/")} - {""}))


def _first_scope(words: list[str]) -> str:
    here = False  # «крупнейший производитель региона»: the wine's own place, unless named
    for position, word in enumerate(words):
        if _HERE.match(word):
            here = True
            continue
        if TITLE_GATE.match(word):
            continue  # «старейших тенут Мареммы»: a house's title, no place
        key = stem_key(word)
        place = COUNTRY_ALIASES.get(key) or REGION_ALIASES.get(key)
        if place is not None:  # and as it sounds: «в Шампани» is the «шампанский дом»
            return possessor_scope(word)
        if _BROAD.match(word):
            return word[:5]
        if word.isascii():
            before = [w for w in words[max(0, position - 2) : position] if w != "the"]
            named = bool(before) and before[-1] in _ENGLISH_POINTERS and word != "the"
        else:
            named = bool(_PLACE_ADJECTIVE.match(word)) or is_proper_noun(word)
            named = named or not analyse(word)[1]  # «долины Сальнес»: a name it lacks
        if named:
            return _sounds_of_place(word)
    return HERE if here else ""


def _sounds_of_place(word: str) -> str:
    return "/".join(sorted({s[:5] for s in skeletons(word)}))


def possessor_scope(word: str) -> str:
    """The place a standing is said of by its possessor («Argentina's oldest»)."""
    place = COUNTRY_ALIASES.get(stem_key(word)) or REGION_ALIASES.get(stem_key(word))
    if place is not None:
        sounds = _sounds_of_place(max(place.split(), key=len).lower())
        return "/".join(sorted({place, *sounds.split("/")}))
    return _sounds_of_place(word)


def same_scope(said: str, own: str) -> bool:
    """Is a standing's place said as the wine's words say it (by name or by sound)? Said of
    «the region» or «the country», it is the wine's own, whose name the row's fields hold."""
    owned = set(own.split("/"))
    if said == own or (HERE in owned and said != "мир"):
        return True
    return bool(set(said.split("/")) & owned)
