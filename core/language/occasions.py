"""The occasion a request names («на пикник», «на свидание», «в подарок»), for the shop's
console: a few stable labels, read from the folded text by word stems."""

from __future__ import annotations

import re

from core.language.folding import fold

_B = r"(?<![a-zа-я])"
OCCASIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(_B + pattern))
    for label, pattern in (
        ("подарок", r"(подар|в подарок|gift)"),
        ("свидание", r"(свидан|романт|date night|romantic)"),
        ("свадьба", r"(свадьб|wedding)"),
        ("новый год", r"(новый год|новогодн|new year)"),
        ("день рождения", r"(день рождени|днюх|birthday)"),
        ("пикник", r"(пикник|на природ|шашлык|picnic|barbecue)"),
        ("вечеринка", r"(вечеринк|тусовк|на компани|party)"),
        ("праздник", r"(праздни|юбиле|торжеств|celebrat)"),
        ("ужин", r"(ужин|dinner)"),
    )
)


def occasion_in(text: str) -> str | None:
    folded = fold(text)
    for label, pattern in OCCASIONS:
        if pattern.search(folded):
            return label
    return None
