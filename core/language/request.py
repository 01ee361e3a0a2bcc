"""Deterministic, no-LLM reading of a person's wine request.

The offline path's filters, the catalog slice of the fallback prompt, answer safety and the
tool-argument normalizer all read words here. The text is folded and split into tokens
(`folding`), and the vocabularies (`vocabulary`, `places`, `grapes`, `foods`) are matched on
the Snowball stems of whole tokens, longest phrase first — never on raw substrings. Prices
come from the one price reader (`prices`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import TypeVar

from core.domain import Sweetness, WineFilters, WineType
from core.language.folding import stem, word_set
from core.language.foods import FOOD_CATEGORIES, FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.places import (
    CASE_SENSITIVE_ALIASES,
    CHAMPAGNE_REGION_PREPOSITIONS,
    COUNTRY_ALIASES,
    REGION_ALIASES,
    REGION_COUNTRY,
)
from core.language.prices import PriceReader
from core.language.scanning import (
    Hit,
    ScannedText,
    first_distinct,
    live_hits,
    scan,
)
from core.language.vocabulary import (
    BARE_DESSERT,
    BODY_BOUNDS,
    BODY_MEDIUM,
    BODY_WORDS,
    COLOUR_TYPES,
    STYLE_TYPES,
    SWEETNESS_WORDS,
    WINE_TYPE_WORDS,
)

V = TypeVar("V")
_TASTE_NOUNS = (
    "сладост",
    "кислинк",
    "кислот",
    "горчинк",
    "сладинк",
    "нотк",
    "sweetness",
    "acidity",
)
_DESSERT = stem(BARE_DESSERT)
_SWEET = stem("сладкое")


# ---- per-field readers


def _wine_type_hit(text: ScannedText, *, bare_dessert: bool) -> Hit[WineType] | None:
    hits: list[Hit[WineType]] = []
    for hit in live_hits(WINE_TYPE_WORDS, text):
        if hit.key == _DESSERT and not bare_dessert:
            continue  # "for dessert": food, not a wine type
        if hit.value in COLOUR_TYPES and (text.food_follows(hit) or text.food_before_agrees(hit)):
            continue  # "красная рыба", "white fish", "red meat", «рыба будет красная»
        hits.append(hit)
    distinct = first_distinct(hits)
    styles = [hit for hit in distinct if hit.value in STYLE_TYPES]
    if styles:
        values = {hit.value for hit in styles}
        if len(values) == 1:
            return styles[0]
        if values == {WineType.fortified, WineType.dessert}:
            return next(hit for hit in styles if hit.value is WineType.fortified)
        return None  # "игристое или портвейн": no single type
    # A colour is overridden by a style ("розовое игристое" is sparkling); two colours
    # ("красное или белое") leave the type open.
    return distinct[0] if len(distinct) == 1 else None


def _sweetness_hit(text: ScannedText) -> Hit[Sweetness] | None:
    hits = [
        hit
        for hit in live_hits(SWEETNESS_WORDS, text)
        if not (hit.key == _SWEET and text.previous_word(hit) in ("на", "под", "к", "ко"))
    ]
    distinct = first_distinct(hits)
    return distinct[0] if len(distinct) == 1 else None


def _body_hit(text: ScannedText) -> Hit[str] | None:
    hits = [
        hit
        for hit in live_hits(BODY_WORDS, text)
        if hit.value == BODY_MEDIUM or not text.food_follows(hit)  # "легкие закуски"
        if not (text.next_word(hit) or "").startswith(_TASTE_NOUNS)  # «с лёгкой сладостью»
    ]
    distinct = first_distinct(hits)
    return distinct[0] if len(distinct) == 1 else None


# «с чили», «перец чили», «соус чили»: the pepper, not the country («из Чили», «чилийское»)
_PEPPER_BEFORE = frozenset({"с", "со", "перец", "перцем", "перца", "соус", "соусом", "соуса"})


# «я из Италии», «я турист из Германии», «мы приехали из Испании», «I'm from France»: where
# the person is from, not where the wine should be
_SPEAKER = word_set("я мы m am are re")
_ABOUT_SPEAKER = word_set(
    "сам сама сами турист туристка туристы гость гости приехал приехала приехали родом a tourist"
)


def _speaker_from(text: ScannedText, hit: Hit[str]) -> bool:
    before = [token.text for token in text.tokens[max(0, hit.start - 4) : hit.start]]
    if not before or before[-1] not in ("из", "from"):
        return False
    for word in reversed(before[:-1]):
        if word in _SPEAKER:
            return True
        if word not in _ABOUT_SPEAKER:
            return False
    return False


def _country_hit(text: ScannedText, dish: Hit[str] | None = None) -> Hit[str] | None:
    """The wine's country: not the person's («я из Италии»), nor a word of a dish read
    («к китайской кухне», the catalog's «азиатская кухня»)."""
    for hit in live_hits(COUNTRY_ALIASES, text):
        allowed = CASE_SENSITIVE_ALIASES.get(hit.key)
        if (allowed is not None and text.span(hit) not in allowed) or _speaker_from(text, hit):
            continue
        if dish is not None and dish.start <= hit.start < dish.end:
            continue
        if hit.value == "Чили" and text.previous_word(hit) in _PEPPER_BEFORE:
            continue
        return hit
    return None


def _region_hit(text: ScannedText) -> Hit[str] | None:
    for index, token in enumerate(text.tokens):
        if (
            token.text == "champagne"
            and index > 0
            and text.tokens[index - 1].text in CHAMPAGNE_REGION_PREPOSITIONS
        ):
            region = Hit(index, index + 1, "Шампань", "champagne")
            break
    else:
        region = None
    for hit in live_hits(REGION_ALIASES, text):
        return hit if region is None or hit.start < region.start else region
    return region


def _grape_hit(text: ScannedText) -> Hit[str] | None:
    hits = live_hits(GRAPE_ALIASES, text)
    return hits[0] if hits else None


def _set_aside(text: ScannedText, hit: Hit[str]) -> bool:
    """A dish the message replaces or cancels: «вместо пиццы», «мужу нельзя свинину», «паста
    отменяется», «бургеры отменили», «рыбы не будет», «instead of pizza»."""
    before = [t.text for t in text.tokens[max(0, hit.start - 2) : hit.start]]
    after = [t.text for t in text.tokens[hit.end : hit.end + 2]]
    return (
        bool(before) and (before[-1] in _REPLACED_BEFORE or before[-2:] == ["instead", "of"])
    ) or (bool(after) and (after[0].startswith(_CANCELLED_AFTER) or after == ["не", "будет"]))


_REPLACED_BEFORE = frozenset({"вместо", "нельзя", "отменили", "отменяем", "отменяю"})
_CANCELLED_AFTER = ("отмен", "отпада", "cancel")


def _food_hit(text: ScannedText) -> Hit[str] | None:
    hits = [
        hit
        for found in live_hits(FOOD_WORDS, text)
        if (hit := text.food_apart_from_colour(found)) is not None
        and not (hit.key == _DESSERT and text.next_word(hit) in ("wine", "wines"))
    ]
    kept = [hit for hit in hits if not _set_aside(text, hit)]
    if kept and len(kept) < len(hits):  # «вместо пиццы суши»: the dish that stays
        hits = kept
    if len(hits) > 1 and text.previous_word(hits[0]) in _COURSE_PREPOSITIONS:
        # «на десерт что-нибудь к шоколаду»: the course names when, the dish after it what
        paired = [
            h
            for h in hits[1:]  # «к горькому шоколаду»: a word may stand between
            if any(
                t.text in _PAIRING_PREPOSITIONS for t in text.tokens[max(0, h.start - 2) : h.start]
            )
        ]
        if paired:
            return paired[0]
    if len(hits) > 1 and hits[1].value in FOOD_CATEGORIES.get(hits[0].value, ()):
        return hits[1]  # «сыр с плесенью»: the kind of the dish said after it
    return hits[0] if hits else None


_COURSE_PREPOSITIONS = frozenset({"на", "for"})
_PAIRING_PREPOSITIONS = frozenset({"к", "ко", "под", "with"})


# ---- public helpers


def _as_text(word: object) -> str:
    if isinstance(word, enum.Enum):  # str(WineType.red) is "WineType.red" on 3.11
        return str(word.value)
    return str(word)


def style_words(text: str) -> list[str]:
    """Every sweetness, body and colour word of `text`, however many («полусладкое или
    полусухое»): words of a style, never of a wine's name («Абрау-Дюрсо Полусладкое»)."""
    message = ScannedText.of(text)
    hits = [*scan(SWEETNESS_WORDS, message.tokens), *scan(BODY_WORDS, message.tokens)]
    hits += [h for h in scan(WINE_TYPE_WORDS, message.tokens) if h.value in COLOUR_TYPES]
    return [message.span(hit) for hit in hits]


def named_choices(text: str) -> dict[str, frozenset[str]]:
    """Two values or more of one filter named as a choice («белое и красное», «полусладкое или
    полусухое»): the filter's name and the values, for a request that wants any of them."""
    message = ScannedText.of(text)
    found: dict[str, frozenset[str]] = {}
    colours = {  # not «красная рыба»
        h.value
        for h in live_hits(WINE_TYPE_WORDS, message)
        if h.value in COLOUR_TYPES and not message.food_follows(h)
    }
    sweetness = {h.value for h in live_hits(SWEETNESS_WORDS, message)}
    for name, named in (("wine_type", colours), ("sweetness", sweetness)):
        if len(named) >= 2:
            found[name] = frozenset(_as_text(v) for v in named)
    return found


def wine_type_from_word(word: str) -> WineType | None:
    """Map a wine-type word or phrase (ru/en, any case and form, enum values) to ``WineType``.

    >>> wine_type_from_word("Красненькое"), wine_type_from_word("прекрасное")
    (<WineType.red: 'red'>, None)
    """
    hit = _wine_type_hit(ScannedText.of(_as_text(word)), bare_dessert=True)
    return hit.value if hit else None


def sweetness_from_word(word: str) -> Sweetness | None:
    """Map a sweetness word ("сухого", "semi-dry", "semi_sweet", "брют") to ``Sweetness``."""
    hit = _sweetness_hit(ScannedText.of(_as_text(word)))
    return hit.value if hit else None


def country_from_text(text: str) -> str | None:
    """The canonical Russian country name mentioned in ``text`` ("из Чили" -> "Чили")."""
    hit = _country_hit(ScannedText.of(text))
    return hit.value if hit else None


def region_from_text(text: str) -> str | None:
    """The canonical Russian name of a famous region mentioned in ``text`` ("Mosel" -> "Мозель")."""
    hit = _region_hit(ScannedText.of(text))
    return hit.value if hit else None


def grape_from_text(text: str) -> str | None:
    """The canonical lowercase Russian grape name in ``text`` ("cabernet" -> "каберне совиньон")."""
    hit = _grape_hit(ScannedText.of(text))
    return hit.value if hit else None


def food_from_text(text: str) -> str | None:
    """The catalog's base food word for the dish in ``text`` ("к стейку" -> "стейк")."""
    hit = _food_hit(ScannedText.of(text))
    return hit.value if hit else None


# Words that name no colour but leave one: wine «с мягкими танинами» is red.
_IMPLIED_TYPES: dict[str, WineType] = {stem("танины"): WineType.red, stem("tannins"): WineType.red}


def implied_wine_type(text: str) -> WineType | None:
    """The wine type a request implies without naming it («с мягкими танинами» → red)."""
    for token in ScannedText.of(text).tokens:
        if token.stem.startswith(tuple(_IMPLIED_TYPES)):
            return next(t for k, t in _IMPLIED_TYPES.items() if token.stem.startswith(k))
    return None


# ---- the query

RELAXATION_ORDER: tuple[str, ...] = (
    "region",
    "body_min",
    "body_max",
    "grape_variety",
    "country",
    "sweetness",
    "food_pairing",
    "price_min",
    "wine_type",
    "price_max",
)


@dataclass(frozen=True)
class ParsedQuery:
    """Filters read from a message, with the words that produced each one."""

    filters: WineFilters
    # filter name -> the words of the message behind it, e.g. {"price_max": "до 2000"}
    matched: dict[str, str] = field(default_factory=dict)

    def relaxation_order(self) -> list[str]:
        """Names of the filters present, least important first (drop them in this order).

        The budget (``price_max``) comes last: it is the constraint people mind most.
        """
        present = self.filters.model_dump(exclude_none=True)
        return [name for name in RELAXATION_ORDER if name in present]


def parse_query(text: str) -> ParsedQuery:
    """Read catalog filters from a free-form message (Russian or English) without an LLM.

    A turn reads its message once (core/language/reading.py) and passes the result on; this
    is called again only on other texts (a phrase after «без», a tool's query, a caption).
    """
    message = ScannedText.of(text)
    values: dict[str, object] = {}
    matched: dict[str, str] = {}

    def put(name: str, value: object, hit: Hit[object] | str) -> None:
        values[name] = value
        matched[name] = hit if isinstance(hit, str) else message.span(hit)

    if (wine_type := _wine_type_hit(message, bare_dessert=False)) is not None:
        put("wine_type", wine_type.value, wine_type)
    if (sweetness := _sweetness_hit(message)) is not None:
        put("sweetness", sweetness.value, sweetness)
    if (grape := _grape_hit(message)) is not None:
        put("grape_variety", grape.value, grape)
    if (food := _food_hit(message)) is not None:
        put("food_pairing", food.value, food)
    region = _region_hit(message)
    country = _country_hit(message, food)
    if country is not None:
        put("country", country.value, country)
    elif region is not None:
        put("country", REGION_COUNTRY[region.value], region)
    if region is not None:
        put("region", region.value, region)
    if (body := _body_hit(message)) is not None:
        body_min, body_max = BODY_BOUNDS[body.value]
        if body_min is not None:
            put("body_min", body_min, body)
        if body_max is not None:
            put("body_max", body_max, body)

    prices = PriceReader(message)
    prices.read()
    if prices.price_min is not None and prices.min_words is not None:
        put("price_min", prices.price_min, prices.min_words)
    if prices.price_max is not None and prices.max_words is not None:
        put("price_max", prices.price_max, prices.max_words)

    filters = WineFilters.model_validate(values)
    ordered = {name: matched[name] for name in WineFilters.model_fields if name in matched}
    return ParsedQuery(filters=filters, matched=ordered)


# «сладкое» at large is any wine with sugar in it; «совсем сладкое», «dessert-sweet» only sweet
_SWEET_AT_LARGE = re.compile(r"^(сладк|sweet)", re.IGNORECASE)
_QUITE = re.compile(r"(совсем|очень|самое|самый|сам\w+|very|really|properly)\s+(сладк|sweet)")


def sweet_at_large(query: ParsedQuery, text: str) -> bool:
    """Does the message ask for a sweet wine loosely («она любит сладкое»), so that a
    semi-sweet one answers it too, rather than the sweetest («совсем сладкое»)?"""
    said = query.matched.get("sweetness", "")
    return (
        query.filters.sweetness is Sweetness.sweet
        and query.filters.wine_type not in (WineType.dessert, WineType.fortified)
        and bool(_SWEET_AT_LARGE.match(said.strip()))
        and not _QUITE.search(text.lower().replace("ё", "е"))
    )
