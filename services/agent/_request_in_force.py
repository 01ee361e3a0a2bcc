"""The request in force, held to by the catalog tools: what the model searches for is searched
within the colour, sweetness, country, price and exclusions the conversation set, since a card
that breaks them is never shown (`_resolve.py`), and ranked as the request would rank it (the
cheapest first for «самое дешёвое», only still wines when no type is asked and one fits, the
dish itself first). Only when the catalog has no wine for the request at all does the model's
own search stand, as the final check then lets it; otherwise «nothing fits» is the honest
answer, with the nearest wines."""

from __future__ import annotations

from contextvars import ContextVar
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.language.foods import FOOD_CATEGORIES, names_dish
from core.language.vocabulary import STYLE_TYPES
from repositories.wine_filters import SearchOrder
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


def requested() -> WineFilters:
    """The hard part of the request in force (none outside a turn's tools)."""
    state = REQUEST_IN_FORCE.get()
    return WineFilters() if state is None else state.filters.hard()


def price_order() -> SearchOrder:
    """The catalog order to read a pool in: from the cheapest for «самое дешёвое»."""
    state = REQUEST_IN_FORCE.get()
    return "price_asc" if state is not None and state.extreme == "cheapest" else "price_desc"


def welcome_untyped(wine: Any, filters: WineFilters) -> bool:
    """May a request that named no type get this wine? A still one, yes; a sparkling, dessert
    or fortified one only when it is paired with the very dish asked for (a port with blue
    cheese, a Sauternes with dessert), not with a dish of its kind («к сыру»)."""
    if wine.wine_type not in STYLE_TYPES:
        return True
    dish = filters.food_pairing
    if dish is None or dish in FOOD_CATEGORIES:
        return False
    return any(names_dish(p, dish) for p in wine.food_pairings)


def in_request_order(wines: list[Any], filters: WineFilters) -> list[Any]:
    """The wines as the request would rank them: «самое дешёвое» from the cheapest; with no
    type asked, only the still wines when there are any («пино нуар» is the red, as
    `_selection.choose` has it); wines paired with the dish itself before those paired with a
    dish of its kind."""
    state = REQUEST_IN_FORCE.get()
    if state is None:  # outside a request: the search as asked
        return wines
    if state.extreme:
        wines = sorted(wines, key=lambda w: w.price_rub, reverse=state.extreme == "dearest")
    if filters.wine_type is None:  # fewer wines rather than a sparkling or a port to fill
        wines = [w for w in wines if welcome_untyped(w, filters)] or wines
    dish = filters.food_pairing
    if dish is None:
        return wines
    return sorted(wines, key=lambda w: not any(names_dish(p, dish) for p in w.food_pairings))
