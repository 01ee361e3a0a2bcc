"""Grounded prose: what the model says about a wine must be what the catalog says.

Each sentence of a wine's why is read for claims (core/language/claims.py) and checked against
the catalog row it is written under; the intro and closing against the wines shown (and what
the person asked for). A sentence with a claim the row contradicts, or one only the wine's own
description could confirm and does not (ageing, awards, history, other numbers), is dropped.
A why left without sentences becomes the offline path's catalog why; an intro with a false
claim about the set becomes a neutral one. Every dropped claim is counted by kind, no text.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Any

from core.domain import Sweetness, WineFilters, WineType
from core.language.claim_cues import UNCONFIRMED_KINDS, unconfirmed_cues
from core.language.claims import (
    Claim,
    Sentence,
    numbers_in,
    read_claims,
    read_sentence,
    read_text,
    split_sentences,
)
from core.language.folding import fold
from core.language.reading import Reading
from core.language.request import country_from_text, grape_from_text, region_from_text
from core.language.vocabulary import STYLE_TYPES
from core.language.world import NEW_WORLD, OLD_WORLD
from core.recommendation import RecommendedWine
from services.agent.catalog_why import catalog_why
from services.agent.name_sounds import name_sounds, sounds_like, word_sounds
from services.agent.request_state import RequestState
from services.agent.safety import allowed_prices, states_wrong_price

NEUTRAL_INTRO = "Вот что я подобрал в каталоге:"


class Verdict(enum.Enum):
    OK = "ok"
    FALSE = "false"  # the row says otherwise
    UNCONFIRMED = "unconfirmed"  # nothing the catalog holds says so


# A region that lies inside another: a claim of the wider one is true of the narrower.
_WITHIN = {"Напа": "Калифорния"}
_KIN_STYLES = {frozenset({WineType.dessert, WineType.fortified})}


@dataclass(frozen=True)
class Facts:
    """What can confirm a claim about one wine: its row, and what its own words say."""

    wine_type: WineType | None
    sweetness: Sweetness | None
    grapes: frozenset[str]
    countries: frozenset[str]
    regions: frozenset[str]
    names: frozenset[str]  # sound skeletons of the name's and producer's words
    vintage: int | None = None
    alcohol: Decimal | None = None
    volume: Decimal | None = None
    own: frozenset[Claim] = frozenset()  # claims the wine's own words make
    numbers: frozenset[Decimal] = frozenset()
    cues: frozenset[str] = frozenset()
    complete: bool = True  # False: a tool brief; what it lacks is unknown, not absent
    own_text: str = ""  # the wine's own words: a sentence quoted from them says nothing new

    def check(self, claim: Claim) -> Verdict:
        kind, value = claim.kind, claim.value
        if _own(self, claim):
            return Verdict.OK
        if kind == "grape":
            if value not in self.grapes:
                return Verdict.FALSE if self.grapes else Verdict.UNCONFIRMED
            return Verdict.FALSE if claim.exact and len(self.grapes) > 1 else Verdict.OK
        if kind == "country":
            return Verdict.OK if value in self.countries else Verdict.FALSE
        if kind == "world":  # «вино Нового Света»
            group, other = (NEW_WORLD, OLD_WORLD) if value == "new" else (OLD_WORLD, NEW_WORLD)
            if self.countries & set(group):
                return Verdict.OK
            return Verdict.FALSE if self.countries & set(other) else Verdict.UNCONFIRMED
        if kind == "region":
            return Verdict.OK if value in self.regions else Verdict.FALSE
        if kind in ("producer", "name"):
            claimed = name_sounds(str(value))
            if not claimed:  # «от Château», «винодельня Дом»: no name to check
                return Verdict.OK
            words_held = [sounds_like(sounds, self.names) for sounds in word_sounds(str(value))]
            if kind == "name":  # «Chianti Classico» of a plain Chianti: every word must hold
                return Verdict.OK if all(words_held) else Verdict.FALSE
            return Verdict.OK if any(words_held) else Verdict.FALSE
        if kind == "colour":
            return self._style(value)
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

    def _style(self, value: object) -> Verdict:
        if self.wine_type is None:
            return Verdict.UNCONFIRMED
        if value == self.wine_type or frozenset({value, self.wine_type}) in _KIN_STYLES:
            return Verdict.OK
        if self.wine_type in STYLE_TYPES and value not in STYLE_TYPES:
            return Verdict.OK  # a sparkling or fortified wine has a colour the row does not keep
        return Verdict.FALSE


def _own(facts: Facts, claim: Claim) -> bool:
    """Do the wine's own words (name, description, notes) say the same?"""
    if claim.kind in UNCONFIRMED_KINDS and isinstance(claim.value, str):
        return claim.value in facts.cues
    if isinstance(claim.value, (int, Decimal)) and claim.kind != "price":
        return Decimal(claim.value).normalize() in facts.numbers
    return not claim.exact and Claim(claim.kind, claim.value) in facts.own


def _canonical(values: Iterable[str | None], reader: Any) -> frozenset[str]:
    return frozenset(reader(v) or v for v in values if v)


def _regions(*names: str | None) -> frozenset[str]:
    found = _canonical(names, region_from_text)
    return found | {_WITHIN[r] for r in found if r in _WITHIN}


def row_facts(wine: RecommendedWine) -> Facts:
    """Facts of a card's catalog row (`wine.row`, a repositories.models.Wine)."""
    row = wine.row
    own_words = " ".join(
        t for t in (wine.name, row.description, row.tasting_notes, row.appellation) if t
    )
    return _facts_of(
        wine.name,
        wine.producer,
        wine.country,
        (wine.region, row.appellation),
        tuple(wine.grape_varieties),
        wine.wine_type,
        wine.sweetness,
        own_words,
        vintage=wine.vintage_year,
        alcohol=row.alcohol,
        volume=row.volume_l,
    )


def brief_facts(brief: dict[str, Any]) -> Facts:
    """Facts of a wine as a tool result showed it to the model (services/agent/tools.wine_brief)."""
    return _facts_of(
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
def _own_reading(text: str) -> tuple[frozenset[Claim], frozenset[Decimal], frozenset[str]]:
    return frozenset(read_claims(text)), numbers_in(text), unconfirmed_cues(text)


@lru_cache(maxsize=4096)  # a catalog's rows come back answer after answer
def _facts_of(
    name: str,
    producer: str,
    country: str,
    regions: Sequence[str | None],
    grapes: Sequence[str],
    wine_type: WineType | None,
    sweetness: Sweetness | None,
    own_words: str,
    **known: Any,
) -> Facts:
    own, numbers, cues = _own_reading(own_words)
    return Facts(
        wine_type=wine_type,
        sweetness=sweetness,
        grapes=_canonical(grapes, grape_from_text),
        countries=_canonical([country], country_from_text),
        regions=_regions(*regions),
        names=name_sounds(f"{name} {producer} {own_words}"),
        own=own,
        numbers=numbers,
        cues=cues,
        own_text=own_words,
        **known,
    )


@dataclass
class GroundingReport:
    dropped: Counter[str] = field(default_factory=Counter)
    why_sentences: int = 0
    why_kept: int = 0


@dataclass(frozen=True)
class Request:
    """What the person asked for: the prose may repeat it («вы просили из Италии…»)."""

    claims: frozenset[Claim]
    numbers: frozenset[Decimal]
    said: str = ""  # the person's words, folded: a name in quotes may repeat them
    asked: WineFilters = field(default_factory=WineFilters)  # what the message's words name
    state: RequestState | None = None  # the request in force

    @classmethod
    def of(cls, reading: Reading, state: RequestState | None = None) -> Request:
        claims: set[Claim] = set()
        asked = reading.query.filters
        for filters in (asked, state.filters if state is not None else WineFilters()):
            pairs = [
                ("colour", filters.wine_type),
                ("sweetness", filters.sweetness),
                ("grape", filters.grape_variety),
                ("country", filters.country),
                ("region", filters.region),
            ]
            claims |= {Claim(kind, value) for kind, value in pairs if value is not None}
        if state is not None:  # what was searched, in words («страны: США, Чили…»)
            searched = state.summary_ru(numbers=False)
            claims |= {Claim(c.kind, c.value) for c in read_claims(searched)}
            claims |= {Claim("country", country) for country in state.countries}
        text = reading.text
        return cls(frozenset(claims), numbers_in(text), fold(text), asked, state)

    def says(self, claim: Claim) -> bool:
        if isinstance(claim.value, (int, Decimal)) and claim.kind != "price":
            return Decimal(claim.value).normalize() in self.numbers
        if claim.kind == "name" and isinstance(claim.value, str):  # «вы спросили «…»»
            return fold(claim.value) in self.said
        return Claim(claim.kind, claim.value) in self.claims


def set_verdict(
    sentence: Sentence, claim: Claim, shown: Sequence[Facts], request: Request
) -> Verdict:
    """A claim of the intro or closing, about the wines shown: true of one of them (of every
    one when the sentence says «все»), or what the person asked for."""
    verdicts = [facts.check(claim) for facts in shown]
    if sentence.universal and Verdict.FALSE in verdicts:
        return Verdict.FALSE  # «все три — из Италии», asked for, but one is Spanish
    if request.says(claim):
        return Verdict.OK
    if not verdicts:
        return Verdict.UNCONFIRMED
    if sentence.universal:
        return Verdict.OK if all(v is Verdict.OK for v in verdicts) else Verdict.UNCONFIRMED
    if Verdict.OK in verdicts:
        return Verdict.OK
    return Verdict.FALSE if all(v is Verdict.FALSE for v in verdicts) else Verdict.UNCONFIRMED


def _price_claims(sentence: Sentence) -> list[Claim]:
    return [c for c in sentence.claims if c.kind == "price"]


def _failing(
    sentence: Sentence,
    verdict: Any,
    prices: Collection[Decimal],
    limits: Collection[Decimal] = (),
) -> list[tuple[Claim, Verdict]]:
    """The claims of `sentence` that are not OK, with their verdicts (a question claims nothing)."""
    if sentence.question:
        return []
    failing = [
        (claim, result)
        for claim in sentence.claims
        if claim.kind != "price" and (result := verdict(claim)) is not Verdict.OK
    ]
    if _price_claims(sentence) and states_wrong_price(sentence.text, prices, limits):
        failing += [(claim, Verdict.FALSE) for claim in _price_claims(sentence)[:1]]
    return failing


def ground_why(
    wine: RecommendedWine, facts: Facts, request: Request, report: GroundingReport
) -> str:
    prices = allowed_prices([wine.price_rub], request.asked)
    if wine.row.old_price_rub is not None:
        prices.add(wine.row.old_price_rub)
    kept: list[str] = []
    sentences = split_sentences(wine.why)
    for text in sentences:
        if len(text) > 20 and text in facts.own_text:  # quoted from its own description
            kept.append(text)
            continue
        sentence = read_sentence(text)
        failing = _failing(
            sentence,
            lambda claim: (
                Verdict.OK
                if request.says(claim) and claim.kind in ("number", "name")
                else facts.check(claim)
            ),
            prices,
        )
        if failing:
            report.dropped.update(claim.kind for claim, _ in failing)
        else:
            kept.append(sentence.text)
    report.why_sentences += len(sentences)
    report.why_kept += len(kept)
    if kept:
        return " ".join(kept)
    state = request.state
    return catalog_why(wine.row, state.filters if state is not None else request.asked, state)


def ground_set_text(
    text: str,
    shown: Sequence[Facts],
    request: Request,
    prices: Collection[Decimal],
    limits: Collection[Decimal],
    report: GroundingReport,
) -> tuple[str, bool]:
    """(the text without unconfirmed sentences, whether a claim was false of the set)."""
    kept: list[str] = []
    false = False
    for sentence in read_text(text):
        failing = _failing(
            sentence,
            lambda claim, s=sentence: set_verdict(s, claim, shown, request),
            prices,
            limits,
        )
        if failing:
            report.dropped.update(claim.kind for claim, _ in failing)
            false = false or any(v is Verdict.FALSE for _, v in failing)
        else:
            kept.append(sentence.text)
    return " ".join(kept), false


def ground_answer(
    request: Request,
    intro: str,
    wines: list[RecommendedWine],
    closing: str,
    limits: Collection[Decimal] = (),
) -> tuple[str, str, GroundingReport]:
    """Check the model's prose against the cards; each why is replaced in place. `limits`:
    the bounds of a search that found nothing, which the prose may name as limits."""
    report = GroundingReport()
    shown: list[Facts] = []
    for wine in wines:
        if wine.row is None:  # a why the catalog wrote (nearest alternatives)
            shown.append(
                _facts_of(
                    wine.name,
                    wine.producer,
                    wine.country,
                    (wine.region,),
                    tuple(wine.grape_varieties),
                    wine.wine_type,
                    wine.sweetness,
                    wine.name,
                    vintage=wine.vintage_year,
                    complete=False,
                )
            )
            continue
        shown.append(facts := row_facts(wine))
        wine.why = ground_why(wine, facts, request, report)
    prices = allowed_prices([w.price_rub for w in wines], request.asked)
    grounded_intro, false_intro = ground_set_text(intro, shown, request, prices, limits, report)
    if false_intro or (intro.strip() and not grounded_intro):
        grounded_intro = NEUTRAL_INTRO
    closing, _ = ground_set_text(closing, shown, request, prices, limits, report)
    return grounded_intro, closing, report


def ground_prose(
    asked: Reading, intro: str, wines: list[RecommendedWine], closing: str
) -> tuple[str, str, GroundingReport]:
    """The check of a model's prose around `wines` (each why replaced in place) for a message
    read outside a conversation: what the benchmarks and the claims set measure."""
    return ground_answer(Request.of(asked), intro, wines, closing)


def forget_prose_readings() -> None:
    """Forget the catalog rows and sentences read so far: the next answer is read cold."""
    for cached in (_facts_of, _own_reading, name_sounds, word_sounds, read_sentence, read_claims):
        cached.cache_clear()
