"""Text from outside (people and models) made fit to handle and to store.

PostgreSQL text and JSONB cannot hold NUL, and control or zero-width characters carry no
meaning in a question about wine; both are dropped where text enters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_user_text(text: str) -> str:
    """A person's message without control, format and zero-width characters, trimmed."""
    kept = "".join(ch for ch in text if ch in "\n\t" or (ch.isprintable() and ch not in _INVISIBLE))
    return kept.strip()


def without_control(text: str) -> str:
    """Model output without control characters (line breaks and tabs stay)."""
    return _CONTROL.sub("", text)


def joined(parts: Iterable[str | None], sep: str = ", ") -> str:
    """The parts that say something, joined: an empty list stays empty, never «, » or «: .»
    (a wine without grapes in the feed: «Италия», not «Италия, »)."""
    return sep.join(p.strip() for p in parts if p and p.strip())
