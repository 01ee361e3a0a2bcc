"""The shop's own picks: boost and bury rules, and the re-ranking they make.

A rule names wines by one field — the wine itself, its producer, its country, a tag from the
feed, or a minimum margin (percent) from the feed — optionally within dates (inclusive). Rules
never choose wines: they only re-order wines that already fit a request and are on sale
(`ShopPicks.rerank`, a stable sort: boosted first, buried last, otherwise the fit's own order).

When rules disagree about a wine, the rule on the narrower field decides (wine, then producer,
tag, margin, country); on the same field a bury wins over a boost.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Literal, Protocol, TypeVar, cast, get_args

from core.errors import PickRuleError

Action = Literal["boost", "bury"]
RuleField = Literal["wine", "producer", "country", "tag", "margin"]
ACTIONS: tuple[Action, ...] = get_args(Action)
FIELDS: tuple[RuleField, ...] = get_args(RuleField)
# Narrowest first: the rule on the first of these fields that names a wine decides.
SPECIFICITY: tuple[RuleField, ...] = ("wine", "producer", "tag", "margin", "country")
MAX_VALUE = 200
MAX_NOTE = 500


@dataclass(frozen=True)
class PickRule:
    action: Action
    field: RuleField
    value: str
    starts_on: date | None = None
    ends_on: date | None = None
    note: str | None = None
    id: int | None = None  # the stored rule's id

    def active_on(self, day: date) -> bool:
        return (self.starts_on is None or self.starts_on <= day) and (
            self.ends_on is None or day <= self.ends_on
        )

    def overlaps(self, first: date, last: date) -> bool:
        """Was the rule in force on any day of [first, last]?"""
        return (self.starts_on is None or self.starts_on <= last) and (
            self.ends_on is None or first <= self.ends_on
        )


def _text(value: object, name: str, limit: int, required: bool = True) -> str | None:
    text = " ".join(str(value if value is not None else "").split())
    if not text:
        if required:
            raise PickRuleError(f"{name} is empty")
        return None
    if len(text) > limit:
        raise PickRuleError(f"{name} is longer than {limit} characters")
    return text


def _day(value: object, name: str) -> date | None:
    if value is None or isinstance(value, date):
        return value
    text = str(value).strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise PickRuleError(f"{name} {text!r} is not a date (YYYY-MM-DD)") from None


def make_rule(
    action: object,
    field: object,
    value: object,
    starts_on: object = None,
    ends_on: object = None,
    note: object = None,
) -> PickRule:
    """A rule from what a person typed or a file held; `PickRuleError` names what is wrong."""
    act = str(action or "").strip().lower()
    if act not in ACTIONS:
        raise PickRuleError(f"action {act!r} is not one of: {', '.join(ACTIONS)}")
    name = str(field or "").strip().lower()
    if name not in FIELDS:
        raise PickRuleError(f"field {name!r} is not one of: {', '.join(FIELDS)}")
    text = cast(str, _text(value, "value", MAX_VALUE))
    if name == "margin":
        try:
            margin = Decimal(text.rstrip("%").strip().replace(",", "."))
        except InvalidOperation:
            raise PickRuleError(f"margin {text!r} is not a number (a minimum, percent)") from None
        if not margin.is_finite():
            raise PickRuleError(f"margin {text!r} is not a number (a minimum, percent)")
        text = format(margin.normalize(), "f")
    first, last = _day(starts_on, "starts_on"), _day(ends_on, "ends_on")
    if first is not None and last is not None and last < first:
        raise PickRuleError(f"ends_on {last} is before starts_on {first}")
    return PickRule(
        cast(Action, act),
        cast(RuleField, name),
        text,
        first,
        last,
        _text(note, "note", MAX_NOTE, required=False),
    )


class Identified(Protocol):
    @property
    def id(self) -> uuid.UUID: ...


W = TypeVar("W", bound=Identified)


@dataclass(frozen=True)
class ShopPicks:
    """The rules in force, resolved against the catalog into the wines they boost and bury."""

    boosted: frozenset[uuid.UUID] = frozenset()
    buried: frozenset[uuid.UUID] = frozenset()
    rules: tuple[PickRule, ...] = field(default=())

    @property
    def active(self) -> bool:
        return bool(self.boosted or self.buried)

    def standing(self, wine_id: uuid.UUID) -> int:
        """0 boosted, 1 neither, 2 buried: the leading key of the re-ranking."""
        if wine_id in self.boosted:
            return 0
        return 2 if wine_id in self.buried else 1

    def rerank(self, wines: Sequence[W]) -> list[W]:
        """The same wines, boosted first and buried last, otherwise in their own order."""
        if not self.active:
            return list(wines)
        return sorted(wines, key=lambda w: self.standing(w.id))


NO_PICKS = ShopPicks()


def resolve(matches: Iterable[tuple[PickRule, Iterable[uuid.UUID]]]) -> ShopPicks:
    """The wines each rule names (`matches`) → who is boosted and who buried (see the module
    docstring for disagreements)."""
    decided: dict[uuid.UUID, tuple[int, int, Action]] = {}
    rules: list[PickRule] = []
    for rule, ids in matches:
        rules.append(rule)
        rank = (SPECIFICITY.index(rule.field), 0 if rule.action == "bury" else 1, rule.action)
        for wine_id in ids:
            current = decided.get(wine_id)
            if current is None or rank < current:
                decided[wine_id] = rank
    boosted = frozenset(i for i, (_, _, act) in decided.items() if act == "boost")
    buried = frozenset(i for i, (_, _, act) in decided.items() if act == "bury")
    return ShopPicks(boosted, buried, tuple(rules))
