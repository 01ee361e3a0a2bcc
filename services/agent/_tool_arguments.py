"""Repair the slips real models make in tool arguments before strict validation."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from core.errors import ToolArgumentsError
from core.language.amounts import amount_in
from core.language.request import sweetness_from_word, wine_type_from_word
from core.text import without_control

KEY_ALIASES: dict[str, str] = {
    "type": "wine_type",
    "color": "wine_type",
    "colour": "wine_type",
    "wine_color": "wine_type",
    "winetype": "wine_type",
    "kind": "wine_type",
    "style": "wine_type",
    "sugar": "sweetness",
    "sweet": "sweetness",
    "dryness": "sweetness",
    "max_price": "price_max",
    "budget": "price_max",
    "price": "price_max",
    "price_to": "price_max",
    "max_budget": "price_max",
    "maxprice": "price_max",
    "price_limit": "price_max",
    "price_under": "price_max",
    "min_price": "price_min",
    "price_from": "price_min",
    "minprice": "price_min",
    "grape": "grape_variety",
    "grapes": "grape_variety",
    "variety": "grape_variety",
    "grape_varieties": "grape_variety",
    "varietal": "grape_variety",
    "food": "food_pairing",
    "dish": "food_pairing",
    "pairing": "food_pairing",
    "food_pairings": "food_pairing",
    "meal": "food_pairing",
    "min_body": "body_min",
    "max_body": "body_max",
    "n": "limit",
    "count": "limit",
    "top_k": "limit",
    "k": "limit",
    "max_results": "limit",
    "num_results": "limit",
    "q": "query",
    "text": "query",
    "search": "query",
    "search_query": "query",
}
NUMERIC_KEYS = frozenset({"price_min", "price_max", "body_min", "body_max", "limit"})


@dataclass
class Normalized:
    arguments: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def parse_amount(value: Any) -> float | int | Any:
    """'2000 ₽', '2 000 руб', '2k', '1,5 тыс' → a number; anything else is returned as is."""
    if isinstance(value, bool) or not isinstance(value, str):
        return value
    amount = amount_in(value)
    if amount is None:
        return value
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def decode(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return raw
    text = raw.strip()
    if not text:
        return {}
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ToolArgumentsError(
            f"arguments are not valid JSON ({exc.msg} at char {exc.pos})"
        ) from None
    if isinstance(value, str):  # double-encoded JSON
        return decode(value)
    if not isinstance(value, dict):
        raise ToolArgumentsError("arguments must be a JSON object")
    return value


def normalize(raw: str | dict[str, Any] | None, known: frozenset[str]) -> Normalized:
    """Rename aliases, coerce values and drop unknown names (with a note for the model)."""
    result = Normalized({})
    for key, value in decode(raw).items():
        name = str(key).strip().lower()
        name = name if name in known else KEY_ALIASES.get(name, name)
        if name not in known:
            result.notes.append(f"ignored unknown parameter '{key}'")
            continue
        if isinstance(value, str):
            value = without_control(value)  # NUL cannot even reach the database as a value
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, list) and name != "query":
            value = next((v for v in value if v not in (None, "")), None)
            if value is None:
                continue
        if name == "wine_type" and isinstance(value, str):
            value = wine_type_from_word(value) or value
        elif name == "sweetness" and isinstance(value, str):
            value = sweetness_from_word(value) or value
        elif name in NUMERIC_KEYS:
            value = parse_amount(value)
        if name == "limit" and isinstance(value, int | float) and value > 10:
            result.notes.append("limit is at most 10")
            value = 10
        result.arguments[name] = value
    return result
