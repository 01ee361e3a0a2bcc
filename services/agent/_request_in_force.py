"""The request in force, held to by the catalog tools: what the model searches for is searched
within the colour, sweetness, country, price and exclusions the conversation set, since a card
that breaks them is never shown (`_resolve.py`). Only when nothing fits both does the model's
own search stand, so that it can still say honestly what the catalog has instead."""

from __future__ import annotations

from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.language.foods import names_dish
from services.agent._request_state import RequestState

# Set for the tools of one turn (`_agent_with_tools._run_tools`).
REQUEST_IN_FORCE: ContextVar[RequestState | None] = ContextVar("request_in_force", default=None)


def held_to_request(asked: WineFilters) -> WineFilters:
    """The model's filters within the hard part of the request in force: its colour,
    sweetness and country, the tighter of each price bound, and the dish as the person named
    it when the model searches by a dish."""
    state = REQUEST_IN_FORCE.get()
    if state is None:
        return asked
    hard = state.filters.hard()
    values: dict[str, Any] = {
        name: getattr(hard, name)
        for name in ("wine_type", "sweetness", "country")
        if getattr(hard, name) is not None
    }
    if asked.food_pairing and state.filters.food_pairing:
        # the person's own words for the dish («паста болоньезе»), not the model's («паста»)
        values["food_pairing"] = state.filters.food_pairing
    if state.countries and asked.country not in state.countries:
        values["country"] = None  # a group («Новый Свет»): any of them, checked in memory
    low = _tighter(hard.price_min, asked.price_min, max)
    high = _tighter(hard.price_max, asked.price_max, min)
    if low is not None and high is not None and low > high:
        low, high = hard.price_min, hard.price_max
    values |= {"price_min": low, "price_max": high}
    return asked.model_copy(update=values)


def _tighter(ours: Decimal | None, theirs: Decimal | None, pick: Any) -> Decimal | None:
    if ours is None or theirs is None:
        return ours if theirs is None else theirs
    return Decimal(pick(ours, theirs))


def admitted(wines: list[Any]) -> list[Any]:
    """The wines the request in force does not rule out (a country group, «без Италии»)."""
    state = REQUEST_IN_FORCE.get()
    return wines if state is None else [w for w in wines if state.admits(w)]


def dish_first(wines: list[Any], filters: WineFilters) -> list[Any]:
    """Wines paired with the dish itself before those paired with a dish of its kind."""
    dish = filters.food_pairing
    if dish is None:
        return wines
    return sorted(wines, key=lambda w: not any(names_dish(p, dish) for p in w.food_pairings))
