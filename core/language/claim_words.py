"""Claims a sentence makes in words, not numbers: where a wine is from, its colour, body and
sweetness, how it was made, and the names it gives. core/language/claims.py reads a whole
sentence with these; the grounded-prose check also asks a wine's own words for one kind alone
(`own_claims_of_kind`), since most of what a model writes is settled by the catalog row.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from core.domain import WineType
from core.language.claim import Claim
from core.language.claim_cues import negated_at
from core.language.claim_grapes import food_claims, grape_claims, said_hits
from core.language.claim_hues import ORANGE, among_wines, grapes_colour, hue_claims
from core.language.claim_shapes import english_blend_terms, hyphenated_names
from core.language.folding import stem, stem_key, word_set
from core.language.named_as import named_as
from core.language.names import (
    ROMAN_CENTURY,
    is_place_or_grape,
    method_terms,
    place_adjectives,
    proper_names,
    unknown_terms,
)
from core.language.places import (
    CASE_SENSITIVE_ALIASES,
    COUNTRY_ALIASES,
    FLAG_COUNTRIES,
    REGION_ALIASES,
)
from core.language.scanning import ScannedText, match_at
from core.language.vocabulary import (
    BARE_DESSERT,
    BODY_WORDS,
    COLOUR_TYPES,
    SWEETNESS_WORDS,
    WINE_TYPE_WORDS,
)
from core.language.wine_agreement import ADJECTIVE, said_of_wine
from core.language.world import GROUPS_BY_NAME, countries_of_group

_DESSERT = stem(BARE_DESSERT)
_ROSES = word_set("роза розы роз розу розой розам розами розах")

_NAME_WORD = r"[A-ZÀ-ÖØ-ÞА-ЯЁ][\w'’&\-]*"
_LINK_WORD = r"(?:de|del|della|di|da|do|dos|du|des|la|le|les|y|et|&|von|van|der|и)"
_NAME = rf"«?({_NAME_WORD}(?:\s+(?:{_NAME_WORD}|{_LINK_WORD}(?=\s+[A-ZÀ-ÖØ-ÞА-ЯЁ])))*)»?"
_PRODUCER = re.compile(
    r"(?i:производител[ьяюем]\w*|производства|виноделн\w+|винодел\w*|хозяйств[оау]\w*"
    r"|(?<![а-яё])дом[ауе]?|шато|домен\w*|домейн\w*|семь[ияю])"
    rf"(?:\s*[—:-])?\s+(?:[а-яё]+\s+){{0,2}}{_NAME}"
    r"|(?<![\w])(?:от|by|from|(?i:ch[aâ]teau|domaine|bodegas?|tenuta|weingut|quinta))\s+"
    rf"(«?[A-ZÀ-ÖØ-Þ][\w'’&\-]*(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'’&\-]*|{_LINK_WORD}(?=\s+[A-Z])))*)»?"
)

# What every match of `_PRODUCER` holds: a Latin capital, or a producer's title in any case
# (read in the case-folded text: every letter the pattern's «(?i:…)» takes for a letter of a
# title folds to it). Most sentences have neither and are not scanned for producers at all.
_LATIN_CAPITAL = re.compile(r"[A-ZÀ-ÖØ-Þ]")
_PRODUCER_TITLE_FOLDED = re.compile(r"производител|производства|винодел|хозяйств|дом|шато|семь")


def _may_name_producer(text: str) -> bool:
    return bool(_LATIN_CAPITAL.search(text) or _PRODUCER_TITLE_FOLDED.search(text.casefold()))


# Words that title a producer and are no part of its name: «Винодельней Ведерников».
_PRODUCER_TITLE = re.compile(
    r"(?i)(?:производител|винодел|хозяйств|дом|шато|домен|домейн|семь|семейств|компани|бодег"
    r"|château|chateau|domaine|bodega|tenuta|weingut|quinta)"
)


def _vouched_by(name: str, producer: str) -> bool:
    """Is a name the producer already read, or that producer with a title («Семья Бленди»)?
    «Бленди» does not vouch for «Джон Бленди»: a first name is a claim of its own."""
    if name in producer:
        return True
    rest = name.replace(producer, " ").split() if producer in name else ["?"]
    return all(_PRODUCER_TITLE.match(word) for word in rest)


_FORTIFIED = re.compile(
    r"(?:добавл\w*|добавк\w*|вносят|останавлива\w*|прерыва\w*)\s+(?:\w+\s+){0,3}"
    r"(?:винн\w+\s+)?спирт|спиртован|крепят\b|fortified with"
)


_BUBBLES = re.compile(
    r"пузыр|перляж|мусс\b|шипуч|газирован|bubbl|fizz|слабоигрист|полуигрист|фриц?цант|фризант"
    r"|frizzant|p[eé]tillant|петийан"
)
# «тихое вино»: said not to sparkle; «оранжевое вино»: a style no row's colour is.
_STILL = re.compile(
    r"(?<![а-яё])тих\w*\s+(?:\w+\s+)?(?:вин|шампанск|бел|красн|розов|просекк|ламбруск|кав[аы]\b"
    r"|брют)|(?<![а-яё])тихое(?=\s*[.,;!—]|$)|still wine"
)
_ORANGE = re.compile(
    r"оранжев\w*\s+(?:\w+\s+)?вин|вин\w*\s+оранжев|orange wine|оранж-вин"
    r"|(?<![а-яё])оранжи?(?![а-яё])"
)


# Things a place names the origin of, not the wine's: «во французском дубе», «бургундских
# бочках», «бордоских сортов». Such a place is held to the wine's own words, not its row.
_THINGS = tuple(
    stem(word)
    for word in word_set(
        "бочка бочках бочки бочек бочонок дуб дубе дуба дубом баррик барриках клон клоны стиль "
        "стиле манере метод методу традиции школы сортов сорта кухни кухня пробка пробкой "
        # «в Крымском районе» of a wine from Kuban: a district named after a place, not it
        "район районе района oak "
        "barrels barrel casks style clones"
    )
)


def _qualifies_thing(text: ScannedText, start: int, end: int) -> bool:
    """Is a place said of a thing after it («во французском дубе») or before it, across a
    list of such places («дуб французский и американский»)?"""
    for token in text.tokens[end : end + 4]:  # «французского и американского дуба»
        if token.stem.startswith(_THINGS):
            return True
        if token.text not in ("и", "или") and not ADJECTIVE.search(token.text):
            break
    for token in reversed(text.tokens[max(0, start - 4) : start]):
        if token.stem.startswith(_THINGS):
            return True
        if token.text not in ("и", "или") and not ADJECTIVE.search(token.text):
            return False
    return False


def place_claims(message: ScannedText) -> list[Claim]:
    """Countries and regions said of the wine, or of a thing («во французском дубе»)."""
    claims = []
    for hit, denied in said_hits(COUNTRY_ALIASES, message):
        allowed = CASE_SENSITIVE_ALIASES.get(hit.key)
        if allowed is None or message.span(hit) in allowed:
            kind = "thing_origin" if _qualifies_thing(message, hit.start, hit.end) else "country"
            claims.append(Claim(kind, hit.value, negated=denied))
    claims += [
        Claim(
            "thing_origin" if _qualifies_thing(message, hit.start, hit.end) else "region",
            hit.value,
            negated=denied,
        )
        for hit, denied in said_hits(REGION_ALIASES, message)
    ]
    return claims + _people_of_places(message)


# «итальянцы», «бургундцев», «чилийцами»: the people of a place, by the place's adjective
# («итальян» + «ский»); a few are said otherwise («французы», «немцы», «грузины»).
_DEMONYM = re.compile(r"^([а-яё]{3,}?)(?:ец|цы|цев|цам|цами|цах|ца|цу|цем)$")
_DEMONYM_ADJECTIVES = {
    "француз": "французский",
    "немц": "немецкий",
    "немец": "немецкий",
    "грузин": "грузинский",
    "австриец": "австрийский",
    "австрийц": "австрийский",
}
_IRREGULAR_DEMONYM = re.compile(
    r"^(француз|немц|немец|грузин|австрийц|австриец)(?:ы|ов|ам|ами|ах|а|у|ом)?$"
)


def _people_of_places(message: ScannedText) -> list[Claim]:
    """«Делают его бургундцы»: a place said by the people of it, a claim like «бургундское»."""
    return [claim for token in message.tokens if (claim := _place_of_people(token.text))]


@lru_cache(maxsize=65536)
def _place_of_people(word: str) -> Claim | None:
    if (irregular := _IRREGULAR_DEMONYM.match(word)) is not None:
        adjective = _DEMONYM_ADJECTIVES[irregular.group(1)]
    elif (regular := _DEMONYM.match(word)) is not None:
        adjective = regular.group(1) + "ский"
    else:
        return None
    key = stem_key(adjective)  # the exact adjective: no typo read into a place
    if (country := COUNTRY_ALIASES.get(key)) is not None:
        return Claim("country", country)
    if (region := REGION_ALIASES.get(key)) is not None:
        return Claim("region", region)
    return None


def style_claims(message: ScannedText) -> list[Claim]:
    """Colour, body and sweetness said of the wine, not of a dish («красное мясо»)."""
    claims = []
    for hit, denied in said_hits(WINE_TYPE_WORDS, message):
        if message.tokens[hit.start].text in _ROSES or _in_a_name(message, hit.start):
            continue  # «аромат розы»: the flower; «Red Label»: a name, not a colour
        if hit.key == _DESSERT and message.next_word(hit) not in ("wine", "wines"):
            continue  # «к десерту»: food
        if hit.value in COLOUR_TYPES and message.food_follows(hit):
            continue  # «красное мясо», «белая рыба»
        grapes = grapes_colour(message, hit.end, hit.value)
        if grapes or said_of_wine(message, hit.start, hit.end) or among_wines(message, hit.start):
            claims.append(Claim("colour", grapes or hit.value, negated=denied))
    for hit, denied in said_hits(BODY_WORDS, message):
        if not message.food_follows(hit) and said_of_wine(message, hit.start, hit.end):
            claims.append(Claim("body", hit.value, negated=denied))
    for hit, denied in said_hits(SWEETNESS_WORDS, message):
        if message.previous_word(hit) in ("на", "под", "к", "ко"):
            continue  # «к сладкому»: dessert
        if said_of_wine(message, hit.start, hit.end):
            claims.append(Claim("sweetness", hit.value, negated=denied))
    return claims + hue_claims(message)


def _in_a_name(message: ScannedText, at: int) -> bool:
    """Is a colour word the start of a name in quotes («Красный камень»), or part of a name of
    capitalised words: «Red Label», «White Zinfandel», «с виноградника Красный Камень» (not
    «Белое Бордо» or «White Burgundy», a colour and a place)?"""
    if message.quoted(at):
        return True  # «Красный камень»: a name in quotes
    if at + 1 >= len(message.tokens):
        return False
    word, following = (
        message.original[token.start : token.end] for token in message.tokens[at : at + 2]
    )
    if not (word[:1].isupper() and following[:1].isupper()):
        return False
    if match_at(WINE_TYPE_WORDS, message.tokens, at + 1) is not None:
        return False  # «Rosé Champagne»
    return not is_place_or_grape(following)


def world_claims(text: str) -> list[Claim]:
    """«вино Нового Света»; a country's flag («🇦🇷 Мальбек»)."""
    claims = (
        [
            Claim("country", country)
            for flag in _FLAG.findall(text)
            if (country := FLAG_COUNTRIES.get("".join(chr(ord(c) - _FLAG_A + 65) for c in flag)))
        ]
        if text and max(text) >= _FIRST_FLAG_LETTER
        else []
    )
    if group := countries_of_group(text):
        claims += [Claim("world", name) for name, known in GROUPS_BY_NAME.items() if group == known]
    return claims


_FLAG_A = 0x1F1E6  # the regional indicator letter A
_FIRST_FLAG_LETTER = chr(_FLAG_A)
_FLAG = re.compile("[\U0001f1e6-\U0001f1ff]{2}")


def made_claims(folded: str) -> list[Claim]:
    """A style told by how the wine is made: fortified, sparkling."""
    claims = []
    if _FORTIFIED.search(folded):  # «брожение останавливают спиртом»: said to be fortified
        claims.append(Claim("colour", WineType.fortified))
    for match in _BUBBLES.finditer(folded):  # «с тонкими пузырьками»: said to sparkle
        denied = negated_at(folded, match.start())  # «без единого пузырька»
        claims.append(Claim("colour", WineType.sparkling, negated=denied))
    if ("тих" in folded or "still" in folded) and _STILL.search(folded):
        claims.append(Claim("colour", WineType.sparkling, negated=True))
    if ("оранж" in folded or "orange" in folded) and _ORANGE.search(folded):
        claims.append(Claim("colour", ORANGE))
    return claims


def producer_claims(text: str) -> tuple[list[Claim], list[str]]:
    """Producers named after a producer's title («винодельня», «от Antinori»), as claims and
    as names."""
    claims = []
    producers: list[str] = []
    for match in _PRODUCER.finditer(text) if _may_name_producer(text) else ():
        name = (match.group(1) or match.group(2) or "").strip(" .,;:»")
        if ROMAN_CENTURY.match(text, match.start(1) if match.group(1) else match.start(2)):
            continue  # «дом конца XVII века»: a century, read as a date
        if len(name) >= 3 and not is_place_or_grape(name):
            claims.append(Claim("producer", name))
            producers.append(name)
    return claims, producers


def name_claims(text: str, message: ScannedText) -> list[Claim]:
    """Producers and names: after a producer's title, by their shape, and terms the
    dictionary does not know."""
    claims, producers = producer_claims(text)
    terms = place_adjectives(message) + unknown_terms(message) + method_terms(text)
    terms += named_as(message) + hyphenated_names(text) + english_blend_terms(text)
    claims += [Claim("name", name) for name in terms]
    for name in proper_names(text):
        if not any(_vouched_by(name, producer) for producer in producers):
            claims.append(Claim("name", name))
    return claims


def _places(message: ScannedText) -> list[Claim]:
    """Places named, and a country's flag (`world_claims` reads it)."""
    return place_claims(message) + world_claims(message.original)


def _styles(message: ScannedText) -> list[Claim]:
    return style_claims(message) + made_claims(message.folded)


# Which reader finds a kind of claim (each reads the kinds of its group); a kind not here
# needs the whole text read (core/language/claims.read_claims).
_READERS: dict[str, Callable[[ScannedText], list[Claim]]] = {
    "grape": grape_claims,
    "food": food_claims,
    "places": _places,
    "world": lambda message: world_claims(message.original),
    "styles": _styles,
    "names": lambda message: name_claims(message.original, message),
    "producers": lambda message: producer_claims(message.original)[0],
}
_GROUP_OF = {
    "grape": "grape",
    "food": "food",
    "country": "places",
    "region": "places",
    "thing_origin": "places",
    "world": "world",
    "colour": "styles",
    "body": "styles",
    "sweetness": "styles",
    "producer": "producers",
    "name": "names",
}


def reads_kind(kind: str) -> bool:
    return kind in _GROUP_OF


def own_claims_of_kind(text: str, kind: str) -> frozenset[Claim]:
    """The claims of `kind`'s group that `text` makes (`reads_kind(kind)` must hold)."""
    return read_group(text, _GROUP_OF[kind])


@lru_cache(maxsize=4096)  # a catalog's rows come back answer after answer
def read_group(text: str, group: str) -> frozenset[Claim]:
    return frozenset(_READERS[group](_scanned(text)))


@lru_cache(maxsize=1024)  # a wine's words, scanned once for every group asked of them
def _scanned(text: str) -> ScannedText:
    return ScannedText.of(text)


def forget_groups_read() -> None:
    read_group.cache_clear()
    _scanned.cache_clear()
