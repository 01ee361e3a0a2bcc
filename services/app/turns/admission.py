"""Whether a person's words may go on to the sommelier: the one check every adapter makes
(bot messages and captions, the web chat, the HTTP API, the terminal) before a turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.text import clean_user_text
from services.app.turns.answers_log import log_refusal

Refusal = Literal["empty", "too_long"]


@dataclass(frozen=True)
class Admitted:
    text: str  # the words cleaned: control characters dropped, blanks trimmed
    refusal: Refusal | None  # why the words may not go on; None: they may
    limit: int  # MAX_MESSAGE_CHARS, for the message that says how long is too long

    @property
    def ok(self) -> bool:
        return self.refusal is None


class Admission:
    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars

    def admit(self, text: str, *, who: int | None = None, caption: bool = False) -> Admitted:
        """Clean the words and check them; a refusal gets its log line (`who`: the person).
        A caption (of a photo, beside a recording) may be empty."""
        cleaned = clean_user_text(text)
        refusal: Refusal | None = None
        if not cleaned and not caption:
            refusal = "empty"
        elif len(cleaned) > self.max_chars:
            refusal = "too_long"
        if refusal is not None:
            log_refusal(who, refusal)
        return Admitted(cleaned, refusal, self.max_chars)
