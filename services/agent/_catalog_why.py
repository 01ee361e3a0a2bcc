"""The catalog's own why for a wine: its style, its price against the budget, its dishes and
grapes, and the first sentence of its description (no model wrote it, so nothing to check)."""

from __future__ import annotations

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters, format_price
from core.text import joined
from repositories.models import Wine
from services.agent._answer_format import first_sentence
from services.agent._request_state import RequestState


def catalog_why(wine: Wine, f: WineFilters, state: RequestState | None = None) -> str:
    """The catalog's own why for a wine, by the filters it was chosen for (`state`'s, when
    there is a conversation)."""
    parts = [f"{WINE_TYPE_RU[wine.wine_type].capitalize()} {SWEETNESS_RU[wine.sweetness]}"]
    if within_budget(wine, f, state):
        parts.append(f"{format_price(wine.price_rub)} — в пределах бюджета")
    if f.food_pairing and wine.food_pairings:
        parts.append("хорошо к блюдам: " + ", ".join(wine.food_pairings[:3]))
    grapes = joined(wine.grape_varieties)
    if grapes and (f.grape_variety or not f.food_pairing):
        parts.append("сорта: " + grapes)
    return "; ".join(parts) + f". {first_sentence(wine.description)}"


def within_budget(wine: Wine, filters: WineFilters, state: RequestState | None) -> bool:
    """«В пределах бюджета» only of a wine that is: within the person's own budget, not the
    «cheaper than those» bound a follow-up set."""
    if filters.price_max is None or wine.price_rub > filters.price_max:
        return False
    return state is None or "дешевле" not in state.refined
