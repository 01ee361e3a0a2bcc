"""The closing line asks only for what the request still lacks."""

from __future__ import annotations

from services.agent._request_state import RequestState


def missing_details(state: RequestState) -> list[str]:
    f = state.filters
    missing: list[str] = []
    if f.price_max is None and f.price_min is None:
        missing.append("бюджет")
    if f.food_pairing is None:
        missing.append("блюдо")
    if not (f.country or f.region or state.countries or state.named_ids):
        missing.append("страну")
    return missing


def closing_line(state: RequestState) -> str:
    missing = missing_details(state)
    if not missing:
        return "Скажите, если хочется подешевле, посуше или другой стиль, — подберу еще."
    asked = missing[-1] if len(missing) == 1 else ", ".join(missing[:-1]) + " или " + missing[-1]
    return f"Уточните {asked} — и я подберу точнее."
