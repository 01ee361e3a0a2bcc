"""Grounded prose: what the model says about a wine must be what the catalog says.

Each sentence of a wine's why is read for claims (core/language/claims.py) and checked against
the catalog row it is written under; the intro and closing against the wines shown (and what
the person asked for). A sentence with a claim the row contradicts, or one only the wine's own
description could confirm and does not (ageing, awards, history, other numbers), is dropped.
A why left without sentences becomes the offline path's catalog why; an intro with a false
claim about the set becomes a neutral one. Every dropped claim is counted by kind, no text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.language.claim_cues import cue_claims
from core.language.claims import (
    Claim,
    Sentence,
    is_question,
    numbers_in,
    read_claims,
    read_sentence,
    split_sentences,
)
from core.language.folding import fold
from core.language.reading import Reading
from core.recommendation import RecommendedWine
from services.agent._catalog_why import catalog_why
from services.agent._request_state import RequestState
from services.agent._safety import allowed_prices, states_wrong_price
from services.agent._verdict import Verdict
from services.agent._wine_facts import Facts, facts_of, forget_wine_facts, row_facts

NEUTRAL_INTRO = "Вот что я подобрал в каталоге:"


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
                ("food", filters.food_pairing),
            ]
            claims |= {Claim(kind, value) for kind, value in pairs if value is not None}
        if state is not None:  # what was searched, in words («страны: США, Чили…»)
            searched = state.summary_ru(numbers=False)
            claims |= {Claim(c.kind, c.value) for c in read_claims(searched)}
            claims |= {Claim("country", country) for country in state.countries}
        text = reading.text
        return cls(frozenset(claims), numbers_in(text), fold(text), asked, state)

    def says(self, claim: Claim) -> bool:
        if claim.negated:  # «не из Франции» is not what «из Франции» asked for
            return False
        if isinstance(claim.value, (int, Decimal)) and claim.kind != "price":
            return Decimal(claim.value).normalize() in self.numbers
        if claim.kind == "name" and isinstance(claim.value, str):  # «вы спросили «…»»
            # or a word of what was searched, in the shop's own words («тельность до 2»)
            return fold(claim.value) in self.said or Claim(claim.kind, claim.value) in self.claims
        return Claim(claim.kind, claim.value) in self.claims


def set_verdict(
    sentence: Sentence, claim: Claim, shown: Sequence[Facts], request: Request
) -> Verdict:
    """A claim of the intro or closing, about the wines shown: true of one of them (of every
    one when the sentence says «все»), or what the person asked for."""
    if claim.kind == "food" and request.says(claim):
        return Verdict.OK  # «все три — к стейку»: the dish asked for, not a pairing claimed
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
        if (len(text) > 20 and text in facts.own_text) or is_question(text):
            kept.append(text)  # quoted from its own description, or a question: nothing new
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
    for part in split_sentences(text):
        if is_question(part):  # states nothing: not read
            kept.append(part)
            continue
        sentence = read_sentence(part)
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
                facts_of(
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
    forget_wine_facts()
    fold.cache_clear()
    read_sentence.cache_clear()
    read_claims.cache_clear()
    cue_claims.cache_clear()
