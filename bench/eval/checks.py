"""Machine-checkable expectations on the wines one turn returned."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from core.domain import Sweetness
from core.recommendation import Recommendation
from repositories.models import Wine

_SWEETNESS = (Sweetness.dry, Sweetness.semi_dry, Sweetness.semi_sweet, Sweetness.sweet)


def _rank(wine: Wine) -> int:
    return _SWEETNESS.index(wine.sweetness)


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


_NOTHING_CHEAPER = re.compile(
    r"дешевле[^.!?]*(нет|ничего)|(нет|ничего)[^.!?]*дешевле|nothing (else )?cheaper"
)
_WITHIN_BUDGET = "в пределах бюджета"


def says_nothing_cheaper(text: str) -> bool:
    return bool(_NOTHING_CHEAPER.search(text.lower()))


def check_turn(
    expect: dict[str, Any],
    rec: Recommendation,
    wines: Sequence[Wine],
    previous: Sequence[Wine],
    earlier_ids: set[Any],
    budget: Decimal | None = None,
) -> list[str]:
    """The failed expectations of one turn (empty when it passes). `budget`: the price the
    person set earlier in the dialog, which a card may only call «в пределах бюджета» when
    it is."""
    failures: list[str] = []
    if "entry" in expect and rec.entry not in expect["entry"]:
        failures.append(f"answered with entry {rec.entry}, not one of {expect['entry']}")
    if expect.get("no_cards"):
        return failures + ([f"{len(wines)} cards where none belong"] if wines else [])
    if len(wines) < int(expect.get("min_wines", 1)):
        return [*failures, f"expected wines, got {len(wines)}"]
    nothing_cheaper = says_nothing_cheaper(rec.intro)
    limit = Decimal(expect["price_max"]) if "price_max" in expect else budget
    prices = {wine.id: wine.price_rub for wine in wines}
    for card in rec.wines:
        price = prices.get(card.id, card.price_rub)
        if _WITHIN_BUDGET in card.why and limit is not None and price > limit:
            failures.append(f"{card.name}: «{_WITHIN_BUDGET}» at {price} over {limit}")
    for wine in wines:
        label = wine.name
        if "type" in expect and wine.wine_type.value not in _as_list(expect["type"]):
            failures.append(f"{label}: type {wine.wine_type.value}")
        if "sweetness" in expect and wine.sweetness.value not in _as_list(expect["sweetness"]):
            failures.append(f"{label}: sweetness {wine.sweetness.value}")
        if "price_max" in expect and wine.price_rub > Decimal(expect["price_max"]):
            failures.append(f"{label}: price {wine.price_rub} > {expect['price_max']}")
        if "price_min" in expect and wine.price_rub < Decimal(expect["price_min"]):
            failures.append(f"{label}: price {wine.price_rub} < {expect['price_min']}")
        if "country" in expect and wine.country not in expect["country"]:
            failures.append(f"{label}: country {wine.country}")
        if "not_country" in expect and wine.country == expect["not_country"]:
            failures.append(f"{label}: country {wine.country}")
        if "region" in expect and wine.region != expect["region"]:
            failures.append(f"{label}: region {wine.region}")
        if "grape" in expect and expect["grape"] not in wine.grape_varieties:
            failures.append(f"{label}: grapes {wine.grape_varieties}")
        if "not_grape" in expect and expect["not_grape"] in wine.grape_varieties:
            failures.append(f"{label}: grapes {wine.grape_varieties}")
        if "dish" in expect and not any(expect["dish"] in f for f in wine.food_pairings):
            failures.append(f"{label}: food {wine.food_pairings}")
        if "name" in expect:
            text = f"{wine.name} {wine.appellation or ''}".lower()
            if not any(n in text for n in expect["name"]):
                failures.append(f"{label}: not {expect['name']}")
        if "notes" in expect:
            text = f"{wine.tasting_notes} {wine.description}".lower()
            if expect["notes"] not in text:
                failures.append(f"{label}: notes without «{expect['notes']}»")
        if previous and expect.get("cheaper"):
            if nothing_cheaper and wine.price_rub > max(w.price_rub for w in previous):
                failures.append(f"{label}: {wine.price_rub} dearer than before")
            elif not nothing_cheaper and wine.price_rub >= min(w.price_rub for w in previous):
                failures.append(f"{label}: {wine.price_rub} not cheaper than before")
        if (
            previous
            and expect.get("dearer")
            and wine.price_rub <= max(w.price_rub for w in previous)
        ):
            failures.append(f"{label}: {wine.price_rub} not dearer than before")
        drier = _rank(wine) < max((_rank(w) for w in previous), default=4) or _rank(wine) == 0
        if previous and expect.get("drier") and not drier:
            failures.append(f"{label}: {wine.sweetness.value} not drier")
        if previous and expect.get("sweeter") and _rank(wine) <= min(_rank(w) for w in previous):
            failures.append(f"{label}: {wine.sweetness.value} not sweeter")
        if previous and expect.get("lighter") and wine.body >= max(w.body for w in previous):
            failures.append(f"{label}: body {wine.body} not lighter")
        # When nothing cheaper fits, the cheapest fitting wines may be the ones shown before.
        repeat_ok = expect.get("repeat_ok") or (expect.get("cheaper") and nothing_cheaper)
        if wine.id in earlier_ids and not repeat_ok:
            failures.append(f"{label}: shown before in this conversation")
    closing = rec.closing.lower()
    for word in expect.get("closing_not", []):
        if word in closing:
            failures.append(f"closing asks for «{word}» again: {rec.closing}")
    return failures
