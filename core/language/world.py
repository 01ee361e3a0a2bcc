"""Groups of countries people name at once: «Новый Свет», «Старый Свет», «Европа», «Кавказ»,
«наше» (Russian)."""

from __future__ import annotations

import re

NEW_WORLD = ("США", "Чили", "Аргентина", "Австралия", "Новая Зеландия", "ЮАР")
OLD_WORLD = (
    "Франция",
    "Италия",
    "Испания",
    "Португалия",
    "Германия",
    "Австрия",
    "Греция",
    "Венгрия",
    "Грузия",
)

EUROPE = (
    "Франция",
    "Италия",
    "Испания",
    "Португалия",
    "Германия",
    "Австрия",
    "Греция",
    "Венгрия",
    "Молдова",
)
CAUCASUS = ("Грузия", "Армения", "Азербайджан", "Абхазия", "Россия")
RUSSIA = ("Россия",)

_B = r"(?<![a-zа-яё])"
_E = r"(?![a-zа-яё])"
_GROUPS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), countries)
    for pattern, countries in (
        (_B + r"(нов\w*\s+свет\w*|новосветск\w*|new\s+world)", NEW_WORLD),
        (_B + r"(стар\w*\s+свет\w*|старосветск\w*|old\s+world)", OLD_WORLD),
        (_B + r"(европ\w*|europe|european)" + _E, EUROPE),
        (_B + r"(кавказ\w*|caucasus|caucasian)" + _E, CAUCASUS),
        # «наше красное», «из наших», «наше не надо»: Russian; not «наше свидание»
        (
            _B + r"(из наших|нашенск\w*|наше(?=\s*(вино|винцо|красное|белое|розовое|игристое"
            r"|сухое|сладкое|полусухое|полусладкое|не\b|$|[,.!?)])))",
            RUSSIA,
        ),
    )
)


# The groups a claim may name, by the value of a «world» claim.
GROUPS_BY_NAME = {"new": NEW_WORLD, "old": OLD_WORLD, "europe": EUROPE, "caucasus": CAUCASUS}

# A word every group name holds, in any case: a text without one names no group. Read in the
# case-folded text (every letter the patterns take case-insensitively for one of these folds
# to it).
_GROUP_WORDS = re.compile("свет|world|европ|europe|кавказ|caucas|наш")


def countries_of_group(text: str) -> tuple[str, ...]:
    """The countries a group name in the text stands for, or () when none is named."""
    if not _GROUP_WORDS.search(text.casefold()):
        return ()
    for pattern, countries in _GROUPS:
        if pattern.search(text):
            return countries
    return ()


def without_group(text: str) -> str:
    """The text with group names removed (so «Новый Свет» is not read as anything else)."""
    for pattern, _ in _GROUPS:
        text = pattern.sub(" ", text)
    return text
