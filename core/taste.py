"""The taste profile: learned from 👍/👎 (counts per style, grape and country, a price range)
and seeded by the taste quiz. `taste_profile` merges the two with one rule; the merge is kept
with the person whenever either changes, and every path (the agent's prompt, the offline picks,
the /start welcome, inline answers) reads it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Protocol

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
    if s.empty and not (profile or {}).get("quiz"):
        return ""
    lines = ["Вкусовой профиль пользователя (по его оценкам и анкете вкуса):"]
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
    quiz = (profile or {}).get("quiz")
    if quiz:
        lines.append("- по анкете вкуса: " + ", ".join(quiz))
    return "\n".join(lines)


# --- the taste quiz ----------------------------------------------------------------------

# One quiz answer weighs as much as this many 👍 of the same style: it sets the direction at
# once, and a few votes the other way still overrule it.
QUIZ_WEIGHT = 2
# Above the budget a wine loses this much of its score (a style match is worth QUIZ_WEIGHT).
OVER_BUDGET_PENALTY = 3
# How far above the liked prices a pick may go when no budget was given.
LIKED_PRICE_HEADROOM = Decimal("1.3")

QUIZ_COLOURS = ("red", "white", "rose", "sparkling")
QUIZ_SWEETNESS = ("dry", "semi_dry", "semi_sweet", "sweet")
QUIZ_BODY: dict[str, tuple[int, int]] = {"light": (1, 2), "medium": (3, 3), "full": (4, 5)}
QUIZ_STRUCTURE = ("soft", "tannic", "acidic")
QUIZ_BUDGETS = (1000, 2000, 3500, 6000)
QUIZ_FOODS: dict[str, str] = {
    "meat": "мясо",
    "fish": "рыба",
    "cheese": "сыр",
    "pasta": "паста",
    "vegetables": "овощи",
    "spicy": "острое",
}
_BODY_RU = {"light": "легкое", "medium": "средней тельности", "full": "полнотелое"}
_STRUCTURE_RU = {"soft": "мягкое", "tannic": "танинное", "acidic": "с яркой кислотностью"}


def valid_quiz_answer(question: str, value: str) -> bool:
    choices: dict[str, Iterable[str]] = {
        "colour": QUIZ_COLOURS,
        "sweetness": QUIZ_SWEETNESS,
        "body": QUIZ_BODY,
        "structure": QUIZ_STRUCTURE,
        "budget": [str(b) for b in QUIZ_BUDGETS],
        "foods": QUIZ_FOODS,
    }
    return value in choices.get(question, ())


def describe_quiz(quiz: dict[str, Any] | None) -> list[str]:
    """The quiz's answers in words, e.g. ["красное", "сухое", "полнотелое", "до 2 000 ₽"]."""
    quiz = quiz or {}
    words: list[str] = []
    if quiz.get("colour") in QUIZ_COLOURS:
        words.append(WINE_TYPE_RU[WineType(quiz["colour"])])
    if quiz.get("sweetness") in QUIZ_SWEETNESS:
        words.append(SWEETNESS_RU[Sweetness(quiz["sweetness"])])
    if quiz.get("body") in _BODY_RU:
        words.append(_BODY_RU[quiz["body"]])
    if quiz.get("structure") in _STRUCTURE_RU:
        words.append(_STRUCTURE_RU[quiz["structure"]])
    if isinstance(quiz.get("budget"), int):
        words.append(f"до {quiz['budget']:,} ₽".replace(",", " "))
    if quiz.get("foods") in QUIZ_FOODS:
        words.append("чаще к блюдам: " + QUIZ_FOODS[quiz["foods"]])
    return words


def taste_profile(feedback: dict[str, Any] | None, quiz: dict[str, Any] | None) -> dict[str, Any]:
    """THE rule that merges the quiz into the 👍/👎 profile: the quiz's colour and sweetness
    count as QUIZ_WEIGHT votes for that style (dry when only the colour was given); body,
    structure, budget and foods are carried as they were answered."""
    profile: dict[str, Any] = {
        k: (dict(v) if isinstance(v, dict) else v) for k, v in (feedback or {}).items()
    }
    quiz = quiz or {}
    colour = quiz.get("colour")
    if colour in QUIZ_COLOURS:
        sweetness = quiz.get("sweetness") if quiz.get("sweetness") in QUIZ_SWEETNESS else "dry"
        styles = dict(profile.get("styles") or {})
        key = f"{colour}:{sweetness}"
        styles[key] = styles.get(key, 0) + QUIZ_WEIGHT
        profile["styles"] = {k: n for k, n in styles.items() if n}
    elif quiz.get("sweetness") in QUIZ_SWEETNESS:
        profile["sweetness"] = quiz["sweetness"]
    if quiz.get("body") in QUIZ_BODY:
        profile["body"] = list(QUIZ_BODY[quiz["body"]])
    if quiz.get("structure") in QUIZ_STRUCTURE:
        profile["structure"] = quiz["structure"]
    if isinstance(quiz.get("budget"), int):
        profile["budget"] = quiz["budget"]
    if quiz.get("foods") in QUIZ_FOODS:
        profile["foods"] = QUIZ_FOODS[quiz["foods"]]
    if describe_quiz(quiz):
        profile["quiz"] = describe_quiz(quiz)
    return profile


def price_ceiling(profile: dict[str, Any] | None) -> Decimal | None:
    """The most a pick for this person should cost: the quiz's budget, else a little above
    the prices of the wines they liked, else no limit."""
    profile = profile or {}
    if isinstance(profile.get("budget"), int):
        return Decimal(profile["budget"])
    price = profile.get("price")
    if price:
        return (Decimal(price["max"]) * LIKED_PRICE_HEADROOM).quantize(Decimal(1))
    return None


class ScoredWine(Protocol):
    wine_type: WineType
    sweetness: Sweetness
    grape_varieties: list[str]
    country: str
    price_rub: Decimal
    body: int | None
    tannins: int | None
    acidity: int | None


def taste_score(wine: ScoredWine, profile: dict[str, Any] | None) -> float:
    """How well a wine fits the profile (higher is better); 0 for an empty profile."""
    profile = profile or {}
    score = float(
        (profile.get("styles") or {}).get(f"{wine.wine_type.value}:{wine.sweetness.value}", 0)
    )
    if profile.get("sweetness") == wine.sweetness.value:
        score += QUIZ_WEIGHT
    grapes = profile.get("grapes") or {}
    score += 0.5 * sum(grapes.get(g, 0) for g in wine.grape_varieties)
    score += 0.5 * (profile.get("countries") or {}).get(wine.country, 0)
    body = profile.get("body")
    if body and wine.body is not None:
        score += 1 if body[0] <= wine.body <= body[1] else -1
    structure = profile.get("structure")
    if structure == "tannic" and wine.tannins is not None:
        score += 0.5 if wine.tannins >= 4 else 0
    elif structure == "acidic" and wine.acidity is not None:
        score += 0.5 if wine.acidity >= 4 else 0
    elif structure == "soft" and wine.tannins is not None:
        score += 0.5 if wine.tannins <= 2 else 0
    ceiling = price_ceiling(profile)
    if ceiling is not None and wine.price_rub > ceiling:
        score -= OVER_BUDGET_PENALTY
    return score
