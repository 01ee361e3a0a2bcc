"""The taste profile learned from 👍/👎: counts per style, grape and country, and a price range."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, Sweetness, WineType


@dataclass(frozen=True)
class VotedWine:
    wine_type: WineType
    sweetness: Sweetness
    grape_varieties: list[str]
    country: str
    price_rub: Decimal
    vote: int  # +1 or -1


def build_profile(votes: Iterable[VotedWine]) -> dict[str, Any]:
    """Recompute the profile from all of a user's votes: idempotent by construction."""
    styles: dict[str, int] = {}
    grapes: dict[str, int] = {}
    countries: dict[str, int] = {}
    liked_prices: list[Decimal] = []
    total = 0
    for v in votes:
        total += 1
        style = f"{v.wine_type.value}:{v.sweetness.value}"
        styles[style] = styles.get(style, 0) + v.vote
        for grape in v.grape_varieties:
            grapes[grape] = grapes.get(grape, 0) + v.vote
        countries[v.country] = countries.get(v.country, 0) + v.vote
        if v.vote > 0:
            liked_prices.append(v.price_rub)
    if total == 0:
        return {}
    profile: dict[str, Any] = {
        "styles": {k: n for k, n in styles.items() if n},
        "grapes": {k: n for k, n in grapes.items() if n},
        "countries": {k: n for k, n in countries.items() if n},
        "votes": total,
    }
    if liked_prices:
        profile["price"] = {"min": int(min(liked_prices)), "max": int(max(liked_prices))}
    return profile


def _style_ru(key: str) -> str:
    wine_type, sweetness = key.split(":")
    return f"{WINE_TYPE_RU[WineType(wine_type)]} {SWEETNESS_RU[Sweetness(sweetness)]}"


def _ranked(counts: dict[str, int], positive: bool, limit: int = 4) -> list[str]:
    items = [(k, n) for k, n in counts.items() if (n > 0) == positive]
    items.sort(key=lambda kv: (-abs(kv[1]), kv[0]))
    return [k for k, _ in items[:limit]]


@dataclass(frozen=True)
class ProfileSummary:
    liked_styles: list[str]
    disliked_styles: list[str]
    liked_grapes: list[str]
    disliked_grapes: list[str]
    liked_countries: list[str]
    price_range: tuple[int, int] | None

    @property
    def empty(self) -> bool:
        return not (
            self.liked_styles
            or self.disliked_styles
            or self.liked_grapes
            or self.disliked_grapes
            or self.liked_countries
            or self.price_range
        )


def summarize(profile: dict[str, Any] | None) -> ProfileSummary:
    profile = profile or {}
    styles = profile.get("styles", {})
    grapes = profile.get("grapes", {})
    price = profile.get("price")
    return ProfileSummary(
        liked_styles=[_style_ru(s) for s in _ranked(styles, True)],
        disliked_styles=[_style_ru(s) for s in _ranked(styles, False)],
        liked_grapes=_ranked(grapes, True),
        disliked_grapes=_ranked(grapes, False),
        liked_countries=_ranked(profile.get("countries", {}), True, 3),
        price_range=(price["min"], price["max"]) if price else None,
    )


def profile_prompt_block(profile: dict[str, Any] | None) -> str:
    s = summarize(profile)
    if s.empty:
        return ""
    lines = ["Вкусовой профиль пользователя (по его оценкам):"]
    if s.liked_styles:
        lines.append("- нравится: " + ", ".join(s.liked_styles))
    if s.liked_grapes:
        lines.append("- любимые сорта: " + ", ".join(s.liked_grapes))
    if s.liked_countries:
        lines.append("- страны: " + ", ".join(s.liked_countries))
    if s.disliked_styles or s.disliked_grapes:
        lines.append("- не понравилось: " + ", ".join(s.disliked_styles + s.disliked_grapes))
    if s.price_range:
        lines.append(f"- понравившиеся цены: {s.price_range[0]}–{s.price_range[1]} ₽")
    return "\n".join(lines)
