"""The language sets, each in two parts: `dev/` (tuned on) and `test/` (frozen: written before
the code that should pass it, by a writer who did not see the code, never edited to pass).

A set is every `<part>/<name>*.json` file (`knowledge_a.json` and `knowledge_b.json` are one
set); its items are the file's list (`messages`, `questions`, `dialogs` or `rows`).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

PARTS = ("dev", "test")
PART_NAMES = {"dev": "development", "test": "test (frozen)"}
SETS = ("kinds", "knowledge", "dialogs", "claims")
_ITEMS = {"kinds": "messages", "knowledge": "questions", "dialogs": "dialogs", "claims": "rows"}


def load_set(name: str, part: str) -> list[dict[str, Any]]:
    """The items of one part of one set (empty when the part has no file)."""
    if name not in _ITEMS or part not in PARTS:
        raise ValueError(f"no set {name!r} / part {part!r}")
    folder = resources.files("bench.eval").joinpath(part)
    items: list[dict[str, Any]] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.startswith(name) and path.name.endswith(".json"):
            items += json.loads(path.read_text(encoding="utf-8"))[_ITEMS[name]]
    return items


def percent(passed: int, total: int) -> str:
    return f"{passed}/{total} ({100.0 * passed / total:.1f} %)" if total else "—"
