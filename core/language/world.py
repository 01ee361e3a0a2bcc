"""Groups of countries people name at once: «Новый Свет», «Старый Свет»."""

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

_NEW = re.compile(r"нов\w*\s+свет\w*|new\s+world", re.IGNORECASE)
_OLD = re.compile(r"стар\w*\s+свет\w*|old\s+world", re.IGNORECASE)


def countries_of_group(text: str) -> tuple[str, ...]:
    """The countries a group name in the text stands for, or () when none is named."""
    if _NEW.search(text):
        return NEW_WORLD
    if _OLD.search(text):
        return OLD_WORLD
    return ()


def without_group(text: str) -> str:
    """The text with group names removed (so «Новый Свет» is not read as anything else)."""
    return _OLD.sub(" ", _NEW.sub(" ", text))
