"""Prompt texts live in Markdown files beside this module."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_DIR = Path(__file__).resolve().parent


@cache
def load_prompt(name: str) -> str:
    return (_DIR / f"{name}.md").read_text(encoding="utf-8")


def fill(template: str, **values: str) -> str:
    """Replace {{name}} placeholders; user-controlled text is never a template."""
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", value)
    return template
