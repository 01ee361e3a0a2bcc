"""What a sentence says about a wine, read as claims a catalog row can confirm or refute.

The model's prose is checked against the catalog (services/agent/_grounding.py); this module
only reads. It uses the same vocabularies, folding and price reader as the request reader, so
«урожая 1987 года», «чистый пино менье», «из Чили», «чилийское», «13,5 %», «0,75 л» and
«99 ₽» mean here what they mean in a search:

- checkable facts: ``name`` (a proper name by its shape: capitalised Latin words, a name in
  quotes, capitalised Russian words inside a sentence — «Его делает Vega Sicilia»), ``vintage``
  (a year), ``grape`` (``exact`` for «чистый X», «100 % X»),
  ``country``, ``region``, ``producer`` (a name after «производитель», «винодельня», «от
  <Latin name>»…), ``colour`` and ``sweetness`` (said of the wine, not «красные ягоды»),
  ``alcohol``, ``volume``, ``price``;
- claims no row carries: ``ageing`` («выдержка 30 лет в новом дубе»), ``award`` («95 баллов
  Паркера», «золотая медаль»), ``history`` («старейшая винодельня», «основана в 1870») and any
  other ``number`` — confirmed only by the wine's own description or notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from core.domain import WineType
from core.language.amounts import money_mentions
from core.language.claim import Claim
from core.language.claim_cues import CUES, cue_claims
from core.language.claim_grapes import food_claims, grape_claims, said_hits
from core.language.claim_numbers import (
    HISTORY_YEAR,
    YEARS,
    short_year_claims,
    worded_number_claims,
)
from core.language.folding import fold, stem, word_set
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import words_of
from core.language.names import (
    is_place_or_grape,
    method_terms,
    place_adjectives,
    proper_names,
    unknown_terms,
)
from core.language.places import CASE_SENSITIVE_ALIASES, COUNTRY_ALIASES, REGION_ALIASES
from core.language.scanning import ScannedText, live_hits
from core.language.vocabulary import (
    BARE_DESSERT,
    BODY_WORDS,
    COLOUR_TYPES,
    SWEETNESS_WORDS,
    WINE_TYPE_WORDS,
)
from core.language.worded_numbers import UNITS, worded_numbers
from core.language.world import NEW_WORLD, OLD_WORLD, countries_of_group

# Claims a catalog row carries (true or false) and claims only the wine's own words confirm.
FACT_KINDS = (
    "name",
    "world",
    "vintage",
    "grape",
    "country",
    "region",
    "producer",
    "colour",
    "sweetness",
    "alcohol",
    "volume",
    "price",
)
_UNIVERSAL = re.compile(
    r"(?<![a-zа-я])(?:все|всех|всем|каждое|каждый|каждая|оба|обе|all|both|each|every)(?![a-zа-я])"
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"(A-ZА-ЯЁ0-9])|\s*\n+\s*")
_NUMBER = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)?(?![\d])")
_CODE = re.compile(r"[\w-]+")  # an id or code: digits next to Latin letters are no number
_CODE_LETTER = re.compile(r"[a-z_]")
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|процент\w*|градус\w*|°|об\.)")
_VOLUME = re.compile(r"(\d+(?:[.,]\d+)?)\s*(л|литр\w*|мл|ml|l|cl)(?![a-zа-я])")
_MAGNUM = re.compile(r"магнум|magnum")
_ALCOHOL_CUE = re.compile(r"алкогол|крепост|спирт|abv|об\.|градус|°")
_WINE_NOUNS = frozenset(
    {"вино", "вина", "вин", "вину", "вином", "вине", "винам", "винами", "винах", "wine", "wines"}
)
# Russian adjective endings that agree with «вино» (neuter singular): «красное», «сухого».
_NEUTER = ("ое", "ого", "ому", "ым", "ом")
_ADJECTIVE = re.compile(r"(?:ое|ого|ому|ым|ом|ые|ых|ыми|ий|ая|ую|ой|ие|их|ими|ий|яя|ее)$")
_DESSERT = stem(BARE_DESSERT)

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


@dataclass(frozen=True)
class Sentence:
    text: str
    claims: tuple[Claim, ...]
    universal: bool  # «все три — из Италии»: said of every wine
    question: bool  # a question states nothing


def split_sentences(text: str) -> list[str]:
    """Sentences of a text, each with its punctuation; «5 тыс. руб.» stays one sentence."""
    return [part.strip() for part in _SENTENCE_END.split(text.strip()) if part.strip()]


def read_text(text: str) -> list[Sentence]:
    return [read_sentence(part) for part in split_sentences(text)]


@lru_cache(maxsize=4096)
def read_sentence(sentence: str) -> Sentence:
    folded = fold(sentence)
    return Sentence(
        sentence,
        read_claims(sentence),
        bool(_UNIVERSAL.search(folded)),
        sentence.rstrip().endswith("?"),
    )


@lru_cache(maxsize=4096)
def read_claims(text: str) -> tuple[Claim, ...]:
    """Every claim in `text` (a sentence, or a wine's whole description), in reading order."""
    folded = fold(text)
    message = ScannedText.of(text)
    claims: list[Claim] = []
    taken: list[tuple[int, int]] = []  # character spans already read as a number of some kind

    for money in money_mentions(text):
        claims.append(Claim("price", money.value))
        taken.append((money.start, money.end))
    for match in _PERCENT.finditer(folded):
        if _overlaps(match.span(), taken):
            continue
        taken.append(match.span())
        value = _decimal(match.group(1))
        after = folded[match.end() : match.end() + 40]
        if value is None:
            continue
        if value <= 25 and (_ALCOHOL_CUE.search(folded) or not _grape_starts(after)):
            claims.append(Claim("alcohol", value))
        elif value != 100:
            claims.append(Claim("number", value))
    for match in _VOLUME.finditer(folded):
        if _overlaps(match.span(), taken) or (value := _decimal(match.group(1))) is None:
            continue
        taken.append(match.span())
        litres = value / 1000 if match.group(2) == "мл" or match.group(2) == "ml" else value
        litres = litres / 100 if match.group(2) == "cl" else litres
        claims.append(Claim("volume", litres.normalize()))
    if _MAGNUM.search(folded):
        claims.append(Claim("volume", Decimal("1.5")))
    cues = sorted(cue_claims(text))
    claims += [Claim(kind, value) for kind, value in cues]
    said = {kind for kind, _ in cues}
    cue_kinds = [kind for kind in CUES if kind in said]
    number_kind = cue_kinds[0] if cue_kinds else "number"
    for span, claim in short_year_claims(folded):  # «шираз 23-го»
        claims.append(claim)
        taken.append(span)
    numbers = list(_NUMBER.finditer(folded))
    codes = (
        [m.span() for m in _CODE.finditer(folded) if _CODE_LETTER.search(m.group())]
        if numbers
        else []
    )
    for match in numbers:
        if _overlaps(match.span(), taken) or _overlaps(match.span(), codes):
            continue
        value = _decimal(match.group())
        if value is None:
            continue
        if YEARS[0] <= value <= YEARS[1] and value == value.to_integral_value():
            before = folded[max(0, match.start() - 12) : match.start()]
            kind = "history" if HISTORY_YEAR.search(before) else "vintage"
            claims.append(Claim(kind, int(value)))
        elif (
            value >= 10
            or cue_kinds
            or _term_follows(text, match.end())
            or _unit_follows(text, match.end())
        ):
            claims.append(Claim(number_kind, value))

    claims += grape_claims(message)
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
    for hit, denied in said_hits(WINE_TYPE_WORDS, message):
        if hit.key == _DESSERT and message.next_word(hit) not in ("wine", "wines"):
            continue  # «к десерту»: food
        if hit.value in COLOUR_TYPES and message.food_follows(hit):
            continue  # «красное мясо», «белая рыба»
        if _said_of_wine(message, hit.start, hit.end):
            claims.append(Claim("colour", hit.value, negated=denied))
    for hit, denied in said_hits(BODY_WORDS, message):
        if not message.food_follows(hit) and _said_of_wine(message, hit.start, hit.end):
            claims.append(Claim("body", hit.value, negated=denied))
    for hit, denied in said_hits(SWEETNESS_WORDS, message):
        if message.previous_word(hit) in ("на", "под", "к", "ко"):
            continue  # «к сладкому»: dessert
        if _said_of_wine(message, hit.start, hit.end):
            claims.append(Claim("sweetness", hit.value, negated=denied))
    if (group := countries_of_group(text)) in (NEW_WORLD, OLD_WORLD):
        claims.append(Claim("world", "new" if group == NEW_WORLD else "old"))
    claims += worded_number_claims(text, number_kind, taken)
    claims += food_claims(message)
    if _FORTIFIED.search(folded):  # «брожение останавливают спиртом»: said to be fortified
        claims.append(Claim("colour", WineType.fortified))
    if _BUBBLES.search(folded):  # «с тонкими пузырьками»: said to sparkle
        claims.append(Claim("colour", WineType.sparkling))
    producers: list[str] = []
    for match in _PRODUCER.finditer(text):
        name = (match.group(1) or match.group(2) or "").strip(" .,;:»")
        if len(name) >= 3 and not is_place_or_grape(name):
            claims.append(Claim("producer", name))
            producers.append(name)
    terms = place_adjectives(message) + unknown_terms(message) + method_terms(text)
    claims += [Claim("name", name) for name in terms]
    for name in proper_names(text):
        if not any(_vouched_by(name, producer) for producer in producers):
            claims.append(Claim("name", name))
    return tuple(claims)


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


_BUBBLES = re.compile(r"пузыр|перляж|мусс\b|шипуч|газирован|bubbl|fizz")


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
        if token.text not in ("и", "или") and not _ADJECTIVE.search(token.text):
            break
    for token in reversed(text.tokens[max(0, start - 4) : start]):
        if token.stem.startswith(_THINGS):
            return True
        if token.text not in ("и", "или") and not _ADJECTIVE.search(token.text):
            return False
    return False


def _unit_follows(text: str, end: int) -> bool:
    """Is a small number followed by a unit («5 лет», «9 граммов на литр»)?"""
    following = words_of(text[end : end + 20])
    return (
        bool(following)
        and not text[end : following[0].start + end].strip()
        and (following[0].lemma in UNITS)
    )


def _term_follows(text: str, end: int) -> bool:
    """Is a small number followed by a term the dictionary does not know («6 путтоньош», «5
    puttonyos»), not by a plain word («3 вина»)?"""
    following = words_of(text[end : end + 40])
    if not following or text[end : end + following[0].start].strip():
        return False  # «alert(1)»: punctuation in between, no term
    return not following[0].known or following[0].text.isascii()


def _said_of_wine(text: ScannedText, start: int, end: int) -> bool:
    """Is a colour or sweetness word about the wine («красное», «сухие вина»), not «красные
    ягоды» or «сухой лист»? Neuter singular forms agree with «вино»; other forms count when a
    word for wine follows."""
    word = text.tokens[end - 1].text
    if not _ADJECTIVE.search(word) or (word.endswith(_NEUTER) and not word.isascii()):
        return True
    following = text.tokens[end : end + 3]
    if any(token.text in _WINE_NOUNS or token.stem in _STYLE_NOUNS for token in following):
        return True
    return bool(following) and _match_grape(text, end)


# Nouns a colour or sweetness word is said of: «сладкий херес», «сухой рислинг».
_STYLE_NOUNS = frozenset(
    stem(w)
    for w in word_set(
        "херес портвейн мадера марсала вермут шампанское игристое розе кава просекко амароне "
        "бароло барбареско кьянти риоха шабли сотерн токай москато ламбруско асти портвейн"
    )
)


def _match_grape(text: ScannedText, start: int) -> bool:
    return any(hit.start == start for hit in live_hits(GRAPE_ALIASES, text))


def _grape_starts(text: str) -> bool:
    words = text.split()
    return bool(words) and live_hits(GRAPE_ALIASES, ScannedText.of(" ".join(words[:3]))) != []


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)


def _decimal(raw: str) -> Decimal | None:
    try:
        return Decimal(raw.replace(",", "."))
    except InvalidOperation:
        return None


def numbers_in(text: str) -> frozenset[Decimal]:
    """Every number written in digits or words in `text` (for confirming a number the prose
    repeats)."""
    folded = fold(text)
    found = set()
    for match in _NUMBER.finditer(folded):
        value = _decimal(match.group())
        if value is not None:
            found.add(value.normalize())
    for match in _DIGITS_WITH_SPACES.finditer(folded):
        value = _decimal(re.sub(r"\s", "", match.group()))
        if value is not None:
            found.add(value.normalize())
    found |= {number.value.normalize() for number in worded_numbers(text)}
    return frozenset(found)


_DIGITS_WITH_SPACES = re.compile(r"\d{1,3}(?:\s\d{3})+")
