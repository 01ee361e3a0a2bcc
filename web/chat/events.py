"""What the web chat's page receives: the agent's events as a few plain ones (status, delta,
final, error) and answers as cards. Only data, never markup: the page puts every string in
with `textContent`, and a link or picture only when it is an http(s) URL."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, format_price
from core.recommendation import Recommendation, RecommendedWine
from core.text import joined
from services.agent import AgentEvent, AnswerDelta, ErrorEvent, Final, ToolInvoked
from services.app.texts import T

MAX_URL = 2000
MAX_FIELD = 600  # a catalog field longer than this is cut for the card (the page stays usable)


def safe_url(value: str | None) -> str | None:
    """An absolute http(s) URL, else None (no `javascript:`, `data:` or relative tricks)."""
    if not value:
        return None
    value = value.strip()
    if len(value) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in value):
        return None
    parts = urlsplit(value)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return value


def _cut(text: str | None, limit: int = MAX_FIELD) -> str:
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def card(wine: RecommendedWine) -> dict[str, Any]:
    details = [
        " ".join(
            w for w in (WINE_TYPE_RU[wine.wine_type], SWEETNESS_RU.get(wine.sweetness, "")) if w
        ),
        ", ".join(p for p in (wine.country, wine.region or "") if p),
        joined(wine.grape_varieties),
        str(wine.vintage_year) if wine.vintage_year else "",
    ]
    return {
        "id": str(wine.id),
        "name": _cut(wine.name, 200),
        "producer": _cut(wine.producer, 200),
        "details": _cut(" · ".join(d for d in details if d), 300),
        "wine_type": wine.wine_type.value,
        "price_rub": float(wine.price_rub),
        "price": format_price(wine.price_rub),
        "old_price": format_price(wine.old_price_rub)
        if wine.old_price_rub is not None and wine.old_price_rub > wine.price_rub
        else None,
        "why": _cut(wine.why),
        # The shop's own pick (its boost rules): the card says so, and only then.
        "shop_pick": T.shop_pick if wine.shop_pick else None,
        "url": safe_url(wine.url),
        "image": safe_url(wine.image_url),
    }


def answer(rec: Recommendation) -> dict[str, Any]:
    return {
        "intro": _cut(rec.intro, 4000),
        "wines": [card(w) for w in rec.wines],
        "closing": _cut(rec.closing, 2000),
        "kind": rec.kind,
    }


def status_line(tool: str, args: dict[str, Any]) -> str:
    """«Ищу белые вина до 1 500 ₽…» from a tool call."""
    if tool == "semantic_search":
        return T.searching_described
    plural = T.type_plural.get(str(args.get("wine_type")), "")
    line = T.searching.format(what=" ".join(w for w in (plural, T.searching_wines) if w))
    try:
        if args.get("price_max"):
            amount = f"{int(float(args['price_max'])):,}".replace(",", " ")
            line += " " + T.searching_budget.format(amount=amount)
    except (TypeError, ValueError):
        pass
    return line + "…"


def page_event(event: AgentEvent) -> tuple[str, dict[str, Any]] | None:
    """The page's event for an agent event (None: the page does not need it)."""
    if isinstance(event, AnswerDelta):
        return "delta", {"text": event.text}
    if isinstance(event, ToolInvoked):
        return "status", {"text": status_line(event.tool, event.input)}
    if isinstance(event, Final):
        return "final", answer(event.result)
    if isinstance(event, ErrorEvent):
        return "error", {"message": event.message}
    return None
