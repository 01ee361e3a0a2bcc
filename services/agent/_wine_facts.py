"""What can confirm a claim about one wine: its catalog row (or the brief a tool showed the
model), and what its own words say. The grounded-prose check (_grounding.py) holds the model's
sentences to these; a catalog's rows come back answer after answer, so each is read once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import Any

from core.domain import Sweetness, WineType
from core.language.claim_cues import UNCONFIRMED_KINDS, borne_out, cue_claims_of_kind
from core.language.claim_grapes import foods_of, pairs_with
from core.language.claim_shapes import SHAPE_KINDS, forget_shapes, shape_borne_out
from core.language.claim_words import forget_groups_read, own_claims_of_kind, reads_kind
from core.language.claims import Claim, numbers_in, read_claims
from core.language.folding import fold, stem
from core.language.request import country_from_text, grape_from_text, region_from_text
from core.language.vocabulary import BODY_BOUNDS, COLOUR_TYPES
from core.language.world import GROUPS_BY_NAME, NEW_WORLD, OLD_WORLD
from core.recommendation import RecommendedWine
from services.agent._colour_verdict import colour_verdict
from services.agent._name_checks import numerals_as_written, roman_numerals, spelt_otherwise
from services.agent._name_sounds import (
    forget_name_sounds,
    latin_name_sounds,
    name_sounds,
    sounds_like,
    sounds_like_a_title,
    titled_name_sounds,
    written_sounds,
)
from services.agent._verdict import Verdict

# A region that lies inside another: a claim of the wider one is true of the narrower.
_WITHIN = {"Напа": "Калифорния"}
# Dates that name no full year: a short year, a decade, a century.
_DATES = frozenset({"short_year", "decade", "century"})


@dataclass(frozen=True)
class Facts:
    """What can confirm a claim about one wine: its row, and what its own words say."""

    wine_type: WineType | None
    sweetness: Sweetness | None
    grapes: frozenset[str]
    countries: frozenset[str]
    regions: frozenset[str]
    vintage: int | None = None
    alcohol: Decimal | None = None
    volume: Decimal | None = None
    foods: frozenset[str] | None = None  # the dishes of its pairings; None: not known
    body: int | None = None  # 1 (light) … 5 (full)
    price: Decimal | None = None  # a bare sum the prose says («…, тысяча четыреста») may be it
    complete: bool = True  # False: a tool brief; what it lacks is unknown, not absent
    own_text: str = ""  # the wine's own words: a sentence quoted from them says nothing new
    name_text: str = ""  # the name's, the producer's and the own words, for name claims

    # What the wine's own words say is read when a claim first needs it: most claims are
    # settled by the row, and most wines a tool shows are never written about.
    @property
    def names(self) -> frozenset[str]:
        """Sound skeletons of the name's, the producer's and the own words."""
        return name_sounds(self.name_text)

    @property
    def latin_names(self) -> frozenset[str]:
        """Sound skeletons of those words written in Latin letters."""
        return latin_name_sounds(self.name_text)

    @property
    def own(self) -> frozenset[Claim]:
        """The claims the wine's own words make."""
        return _own_claims(self.own_text)

    def own_colours(self) -> frozenset[object]:
        """The colours (red, white, rosé) the wine's own words give it."""
        said = own_claims_of_kind(self.own_text, "colour")
        return frozenset(c.value for c in said if not c.negated and c.value in COLOUR_TYPES)

    @property
    def numbers(self) -> frozenset[Decimal]:
        return _own_numbers(self.own_text)

    def cues(self, kind: str) -> frozenset[tuple[str, str]]:
        """The claims of `kind` without a row field the own words make («award», «rank»…)."""
        return _own_cues(self.own_text, kind)

    def check(self, claim: Claim) -> Verdict:
        if claim.negated and claim.kind == "body":  # «не тяжёлое»: false only of a full one
            if self.body is None:
                return Verdict.OK if self.complete else Verdict.UNCONFIRMED
            low, high = BODY_BOUNDS[str(claim.value)]
            inside = (low is None or self.body >= low) and (high is None or self.body <= high)
            return Verdict.FALSE if inside else Verdict.OK
        if claim.negated:  # «в купаже нет мерло»: true when the claim denied is false
            denied = self._row_check(Claim(claim.kind, claim.value))
            if denied is Verdict.UNCONFIRMED:
                return denied
            return Verdict.OK if denied is Verdict.FALSE else Verdict.FALSE
        if claim.kind in _DATES:
            dated = self._dated(claim.kind, int(str(claim.value)))
            return Verdict.OK if dated else Verdict.UNCONFIRMED
        if claim.kind == "sum" and self.price is not None and claim.value == self.price:
            return Verdict.OK
        if claim.kind == "rough_sum" and self.price is not None:  # a tenth either way
            value = Decimal(str(claim.value))
            return Verdict.OK if abs(self.price - value) <= value / 10 else Verdict.UNCONFIRMED
        if claim.kind in SHAPE_KINDS:  # a house's title, an owner, a measure, a story
            held = shape_borne_out(
                claim.kind, str(claim.value), self.own_text, self.name_text, self.countries
            )
            return Verdict.OK if held else Verdict.UNCONFIRMED
        verdict = self._row_check(claim)
        if verdict is Verdict.OK or _own(self, claim):
            return Verdict.OK
        return verdict

    def _dated(self, kind: str, value: int) -> bool:
        """Does the row's vintage or a year in the wine's own words fit a short year («двадцать
        второго года»), a decade («с тридцатых») or a century («девятнадцатого века»)?"""
        years = {int(n) for n in self.numbers if n == n.to_integral_value() and 1000 <= n <= 2100}
        if self.vintage is not None:
            years.add(self.vintage)
        if kind == "century":
            return any((value - 1) * 100 <= year < value * 100 for year in years)
        starts = {value} if value >= 1000 else {1900 + value, 2000 + value}
        if kind == "short_year":
            return bool(starts & years)
        return any(year - year % 10 in starts for year in years)

    def _row_check(self, claim: Claim) -> Verdict:
        """What the row says of `claim` (the own words may still confirm it)."""
        kind, value = claim.kind, claim.value
        if kind == "grape":
            if value not in self.grapes and not spelt_otherwise(str(value), self.grapes):
                return Verdict.FALSE if self.grapes else Verdict.UNCONFIRMED
            if len(self.grapes) > 1 and claim.exact:
                return Verdict.FALSE
            # which grape leads a blend only the wine's own words say
            return Verdict.UNCONFIRMED if len(self.grapes) > 1 and claim.main else Verdict.OK
        if kind == "body":  # only a body the row is far from is false: «лёгкое» of a 4 or 5
            if self.body is None:
                return Verdict.OK if self.complete else Verdict.UNCONFIRMED
            low, high = BODY_BOUNDS[str(value)]
            far = (low is not None and self.body < low - 1) or (
                high is not None and self.body > high + 1
            )
            return Verdict.FALSE if far else Verdict.OK
        if kind == "food":
            if self.foods is None:
                return Verdict.OK  # a tool brief names a few pairings, not all
            return Verdict.OK if pairs_with(str(value), self.foods) else Verdict.FALSE
        if kind == "grape_count":  # «из одного сорта»
            if not self.grapes or not self.complete:
                return Verdict.UNCONFIRMED
            return Verdict.OK if value == len(self.grapes) else Verdict.FALSE
        if kind == "country":
            return Verdict.OK if value in self.countries else Verdict.FALSE
        if kind == "world":  # «вино Нового Света», «из Европы»
            group = GROUPS_BY_NAME[str(value)]
            if self.countries & set(group):
                return Verdict.OK
            # a country of the other world, or any known country outside Europe or the Caucasus
            other = {"new": OLD_WORLD, "old": NEW_WORLD}.get(str(value))
            outside = self.countries & set(other) if other else self.countries
            return Verdict.FALSE if outside else Verdict.UNCONFIRMED
        if kind == "region":
            return Verdict.OK if value in self.regions else Verdict.FALSE
        if kind in ("producer", "name"):
            name = numerals_as_written(str(value), self.name_text)
            claimed = titled_name_sounds(name)
            if not claimed and len(name) == 2:  # «как у Юэ»: a short name
                return Verdict.OK if fold(name) in fold(self.name_text).split() else Verdict.FALSE
            if not claimed:  # «от Château», «винодельня Дом»: no name to check
                # …but «ООО «Винный дом»»: a name of common words, held to the words as said
                words = name.split()
                if len(words) >= 2 and not _stems(name) <= _stems(self.name_text):
                    return Verdict.FALSE
                return Verdict.OK
            # a name that sounds like a house's title alone is held to such words too
            names = titled_name_sounds(self.name_text) if sounds_like_a_title(name) else self.names
            words_held = [
                sounds_like(sounds, names, self.latin_names, latin)
                for sounds, latin in written_sounds(name)
            ]
            # «Chianti Classico» of a plain Chianti, «братья Иларио и Леопольдо Руффино» of
            # Ruffino: every word must hold
            return Verdict.OK if all(words_held) else Verdict.FALSE
        if kind == "colour":
            return colour_verdict(
                value, self.wine_type, self.body, self.own_colours, self.name_text
            )
        if kind == "sweetness":
            if self.sweetness is None:
                return Verdict.UNCONFIRMED
            return Verdict.OK if value == self.sweetness else Verdict.FALSE
        known = {"vintage": self.vintage, "alcohol": self.alcohol, "volume": self.volume}
        if kind in known:
            actual = known[kind]
            if actual is not None:
                close = abs(Decimal(str(value)) - Decimal(str(actual))) <= Decimal("0.3")
                return Verdict.OK if close else Verdict.FALSE
            return Verdict.UNCONFIRMED
        return Verdict.UNCONFIRMED  # ageing, award, history, number: only the own words


def _own(facts: Facts, claim: Claim) -> bool:
    """Do the wine's own words (name, description, notes) say the same?"""
    if claim.kind in UNCONFIRMED_KINDS and isinstance(claim.value, str):
        return borne_out((claim.kind, claim.value), facts.cues(claim.kind))
    if isinstance(claim.value, (int, Decimal)) and claim.kind != "price":
        value = Decimal(claim.value).normalize()
        return value in facts.numbers or value in _year_gaps(facts.numbers, facts.vintage)
    if claim.exact:
        return False
    if claim.kind in ("name", "producer") and not _written_in(str(claim.value), facts.own_text):
        return False  # reading the own words' names cannot find a name they do not write
    said = Claim(claim.kind, claim.value, main=claim.main)
    if reads_kind(claim.kind):  # only the group of readers that finds this kind
        return said in own_claims_of_kind(facts.own_text, claim.kind)
    return said in facts.own


_WORDS = re.compile(r"[a-zа-яё0-9]+")


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(word) for word in _WORDS.findall(fold(text)) if len(word) > 2)


def _written_in(name: str, text: str) -> bool:
    """Does each word of `name` begin as some word of `text` does (a name read from the text
    may be a word's dictionary form: «донской» of «донские»)?"""
    folded = fold(text)
    return all(fold(word)[:4] in folded for word in name.split())


@lru_cache(maxsize=4096)
def _year_gaps(numbers: frozenset[Decimal], vintage: int | None) -> frozenset[Decimal]:
    """Years between two years the wine's words and row give: «старше урожая на 326 лет» of a
    2018 port from a house founded in 1692."""
    years = {n for n in numbers if n == n.to_integral_value() and 1500 <= n <= 2100}
    if vintage is not None:
        years.add(Decimal(vintage))
    return frozenset(
        (later - earlier).normalize() for later in years for earlier in years if later > earlier
    )


def _canonical(values: Iterable[str | None], reader: Any) -> frozenset[str]:
    return frozenset(_canonical_term(v, reader) for v in values if v)


@lru_cache(maxsize=16384)  # a catalog's grapes, countries and regions repeat wine after wine
def _canonical_term(value: str, reader: Any) -> str:
    return reader(value) or value


def _regions(*names: str | None) -> frozenset[str]:
    found = _canonical(names, region_from_text)
    return found | {_WITHIN[r] for r in found if r in _WITHIN}


def row_facts(wine: RecommendedWine) -> Facts:
    """Facts of a card's catalog row (`wine.row`, a repositories.models.Wine)."""
    row = wine.row
    own_words = " ".join(
        t for t in (wine.name, row.description, row.tasting_notes, row.appellation) if t
    )
    return facts_of(
        wine.name,
        wine.producer,
        wine.country,
        (wine.region, row.appellation),
        tuple(wine.grape_varieties),
        wine.wine_type,
        wine.sweetness,
        own_words,
        tuple(row.food_pairings or ()),
        vintage=wine.vintage_year,
        alcohol=row.alcohol,
        volume=row.volume_l,
        foods=foods_of(tuple(row.food_pairings or ())),
        body=row.body,
        price=Decimal(str(wine.price_rub)) if wine.price_rub is not None else None,
    )


def brief_facts(brief: dict[str, Any]) -> Facts:
    """Facts of a wine as a tool result showed it to the model (services/agent/tools.wine_brief)."""
    return facts_of(
        str(brief.get("name") or ""),
        str(brief.get("producer") or ""),
        str(brief.get("country") or ""),
        (brief.get("region"),),
        tuple(str(g) for g in brief.get("grapes") or ()),
        _enum(WineType, brief.get("type")),
        _enum(Sweetness, brief.get("sweetness")),
        f"{brief.get('name') or ''} {brief.get('description') or ''}",
        complete=False,
    )


def _enum(kind: Any, value: object) -> Any:
    try:
        return kind(value)
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def _own_claims(text: str) -> frozenset[Claim]:
    return frozenset(read_claims(text))


@lru_cache(maxsize=4096)
def _own_numbers(text: str) -> frozenset[Decimal]:
    return numbers_in(text)


@lru_cache(maxsize=4096)
def _own_cues(text: str, kind: str) -> frozenset[tuple[str, str]]:
    return cue_claims_of_kind(text, kind)


@lru_cache(maxsize=4096)  # a catalog's rows come back answer after answer
def facts_of(
    name: str,
    producer: str,
    country: str,
    regions: Sequence[str | None],
    grapes: Sequence[str],
    wine_type: WineType | None,
    sweetness: Sweetness | None,
    own_words: str,
    pairings: Sequence[str] = (),
    **known: Any,
) -> Facts:
    return Facts(
        wine_type=wine_type,
        sweetness=sweetness,
        grapes=_canonical(grapes, grape_from_text),
        countries=_canonical([country], country_from_text),
        regions=_regions(*regions),
        own_text=own_words,
        # a place, a grape or a dish the row names is a name the prose may give («из Западного
        # Кейпа», «к эмпанадас»)
        name_text=" ".join(
            (name, producer, country, *(r for r in regions if r), *grapes, own_words, *pairings)
        ),
        **known,
    )


def forget_wine_facts() -> None:
    """Forget every row read so far (a benchmark reads each answer cold)."""
    own_words = (_own_claims, _own_numbers, _own_cues, _year_gaps, _stems, roman_numerals)
    for cached in (facts_of, *own_words, cue_claims_of_kind):
        cached.cache_clear()
    forget_name_sounds()
    forget_groups_read()
    forget_shapes()
