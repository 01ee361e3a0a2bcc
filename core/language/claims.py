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

from core.language.amounts import find_amounts
from core.language.claim import Claim
from core.language.claim_cues import CUES, cue_claims
from core.language.claim_grapes import food_claims, grape_claims
from core.language.claim_numbers import (
    HISTORY_YEAR,
    ROUGHLY,
    YEARS,
    short_year_claims,
    worded_number_claims,
)
from core.language.claim_shapes import shape_claims
from core.language.claim_words import (
    made_claims,
    name_claims,
    place_claims,
    style_claims,
    world_claims,
)
from core.language.folding import fold
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import words_of
from core.language.scanning import ScannedText, live_hits
from core.language.worded_numbers import UNITS, worded_numbers

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
_DIGIT = re.compile(r"\d")
_NUMBER = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)?(?![\d])")
_CODE = re.compile(r"[\w-]+")  # an id or code: digits next to Latin letters are no number
_CODE_LETTER = re.compile(r"[a-z_]")
_PERCENT = re.compile(r"(\d+(?:[.,]\d+)?)\s*(?:%|процент\w*|градус\w*|°|об\.)")
_VOLUME = re.compile(r"(\d+(?:[.,]\d+)?)\s*(л|литр\w*|мл|ml|l|cl)(?![a-zа-я])")
_MAGNUM = re.compile(r"магнум|magnum")
_HALF_BOTTLE = re.compile(r"полбутыл|половинк\w* бутыл|half[- ]bottle")
_ALCOHOL_FREE = re.compile(r"безалкогол|non-alcohol|alcohol[- ]free")
_BOTTLE_SIZE = re.compile(
    r"(?:бутылк\w*|объем\w*|bottle)\s+(?:в\s+|of\s+)?([0-3][.,]\d{1,3})(?![\d%])"
)
# «4 из 5», «9/10»: a score, held to the wine's words like any number.
_SCORE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.,]\d)?)\s*(?:из|/)\s*(?:5|10|20|100)(?![\d])")
_ALCOHOL_CUE = re.compile(r"алкогол|крепост|спирт|abv|об\.|градус|°")


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
    shapes = tuple(Claim(kind, value) for kind, value in shape_claims(sentence))
    return Sentence(
        sentence,
        read_claims(sentence) + shapes,  # a wine's own words are read for shapes apart
        bool(_UNIVERSAL.search(folded)),
        is_question(sentence),
    )


def is_question(sentence: str) -> bool:
    """A question states nothing: the check keeps it, whatever it names."""
    return sentence.rstrip().endswith("?")


@lru_cache(maxsize=4096)
def read_claims(text: str) -> tuple[Claim, ...]:
    """Every claim in `text` (a sentence, or a wine's whole description), in reading order."""
    folded = fold(text)
    message = ScannedText.of(text)
    claims: list[Claim] = []
    taken: list[tuple[int, int]] = []  # character spans already read as a number of some kind

    amounts = find_amounts(folded)
    for amount in amounts:
        if amount.currency:
            claims.append(Claim("price", amount.value))
            taken.append((amount.start, amount.end))
    digits = _DIGIT.search(folded) is not None  # no digit: no percent, volume or number
    for match in _PERCENT.finditer(folded) if digits else ():
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
    for match in _VOLUME.finditer(folded) if digits else ():
        if _overlaps(match.span(), taken) or (value := _decimal(match.group(1))) is None:
            continue
        taken.append(match.span())
        litres = value / 1000 if match.group(2) == "мл" or match.group(2) == "ml" else value
        litres = litres / 100 if match.group(2) == "cl" else litres
        claims.append(Claim("volume", litres.normalize()))
    for match in _BOTTLE_SIZE.finditer(folded) if digits else ():  # «в бутылке 0,375»
        if not _overlaps(match.span(1), taken) and (value := _decimal(match.group(1))):
            taken.append(match.span(1))
            claims.append(Claim("volume", value.normalize()))
    if _MAGNUM.search(folded):
        claims.append(Claim("volume", Decimal("1.5")))
    # words these readers need, looked for first: most sentences have none
    if ("бутыл" in folded or "half" in folded) and _HALF_BOTTLE.search(folded):
        claims.append(Claim("volume", Decimal("0.375")))
    if ("алкогол" in folded or "alcohol" in folded) and _ALCOHOL_FREE.search(folded):
        claims.append(Claim("alcohol", Decimal(0)))
    cues = sorted(cue_claims(text))
    claims += [Claim(kind, value) for kind, value in cues]
    said = {kind for kind, _ in cues}
    cue_kinds = [kind for kind in CUES if kind in said]
    number_kind = cue_kinds[0] if cue_kinds else "number"
    numbers = list(_NUMBER.finditer(folded)) if digits else []
    for match in _SCORE.finditer(folded) if numbers else ():
        if not _overlaps(match.span(), taken) and (value := _decimal(match.group(1))) is not None:
            taken.append(match.span())
            claims.append(Claim(number_kind, value))
    for span, claim in short_year_claims(folded):  # «шираз 23-го»
        claims.append(claim)
        taken.append(span)
    for amount in amounts:  # «за 1,2 тыс.»: a sum said without its currency
        span = (amount.start, amount.end)
        if amount.currency or amount.multiplier is None or _overlaps(span, taken):
            continue
        if not folded[amount.start].isdigit():
            continue  # «полторы тысячи»: read with the numbers in words
        taken.append(span)
        if _unit_follows(text, amount.end):  # «1,5 тыс. метров»
            claims.append(Claim(number_kind, amount.value))
        else:
            claims.append(Claim(_sum_kind(folded, amount.start), amount.value))
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
        if _PRICE_SAID.search(
            folded, max(0, match.start() - 40), match.start()
        ):  # «Стоит 2000.», «Цена — 1200.»
            claims.append(Claim(_sum_kind(folded, match.start()), value))
        elif YEARS[0] <= value <= YEARS[1] and value == value.to_integral_value():
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
    claims += place_claims(message)
    claims += style_claims(message)
    claims += world_claims(text)
    claims += worded_number_claims(text, number_kind, taken)
    claims += food_claims(message)
    claims += made_claims(folded)
    claims += name_claims(text, message)
    return tuple(claims)


# Words that say the number after them is the price: «Стоит 2000.», «цена — около 1900».
_PRICE_SAID = re.compile(
    r"(?<![а-яё])(?:стои\w*|цена|ценой|по цене|обойд\w+(?: вам)? в|всего за|price)\s*[—:-]?\s*"
    r"(?:(?:около|примерно|приблизительно|порядка|почти|где-то|в районе|под)\s+)?$"
)


def _sum_kind(folded: str, start: int) -> str:
    """A sum said («sum»), or said roughly («rough_sum»: «около двух тысяч»)."""
    rounded = ROUGHLY.search(folded, max(0, start - 30), start)
    return "rough_sum" if rounded else "sum"


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
