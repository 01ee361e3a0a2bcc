"""What the model is told stays between us and the model.

A user can ask a model to repeat its instructions, and a model can obey. The guard knows the
fixed texts the model is given (prompt templates, answer format, tool descriptions) and spots
any answer that reproduces a run of SHINGLE_WORDS consecutive words from them. Ordinary
answers never do: eight words in a row out of the instructions is a quotation, not a
coincidence. Texts that vary per request (the catalog slice, the day, the user's profile) are
not secret and are not guarded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.language.folding import fold

SHINGLE_WORDS = 8
REFUSAL = (
    "Свои служебные инструкции я не пересказываю. А вот с вином помогу с радостью: "
    "расскажите, к какому блюду или поводу подобрать бутылку?"
)
_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


class PromptGuard:
    def __init__(self, secrets: Iterable[str], n: int = SHINGLE_WORDS) -> None:
        self.n = n
        self._shingles: set[tuple[str, ...]] = set()
        for secret in secrets:
            words = _words(secret)
            self._shingles.update(
                tuple(words[i : i + n]) for i in range(max(0, len(words) - n + 1))
            )

    def leaks(self, text: str | None) -> bool:
        """Does `text` reproduce n consecutive words of a guarded text?"""
        words = _words(text or "")
        return any(
            tuple(words[i : i + self.n]) in self._shingles
            for i in range(max(0, len(words) - self.n + 1))
        )

    def clean(self, text: str, replacement: str = "") -> str:
        return replacement if self.leaks(text) else text


class StreamGuard:
    """Passes a streamed answer on as it grows, holding back the words that could still be the
    start of a quotation, and stopping for good at the first one.

    Each chunk costs time in proportion to the chunk, not to the text so far: only the
    shingles that end in new words are checked.
    """

    def __init__(self, guard: PromptGuard) -> None:
        self.guard = guard
        self.text = ""
        self.released = 0
        self.blocked = False
        self._starts: list[int] = []  # where each word of the text begins

    def feed(self, chunk: str) -> str:
        """The part of the stream that may be shown now (possibly empty)."""
        if self.blocked:
            return ""
        known = len(self._starts)
        self.text += chunk
        # The last word may go on in this chunk: read on from where it began.
        resume = self._starts.pop() if self._starts else 0
        self._starts.extend(m.start() for m in _WORD.finditer(self.text, resume))
        if not self._starts:
            return ""
        first = max(0, min(known, len(self._starts)) - self.guard.n)
        if self.guard.leaks(self.text[self._starts[first] :]):
            self.blocked = True
            return ""
        held = self.guard.n - 1  # the last words, which a later one could turn into a quote
        return self._release(self._starts[-held] if len(self._starts) > held else 0)

    def finish(self) -> str:
        """The rest, once the stream is complete and nothing in it is a quotation."""
        if self.blocked or self.guard.leaks(self.text):
            self.blocked = True
            return ""
        return self._release(len(self.text))

    def _release(self, upto: int) -> str:
        if upto <= self.released:
            return ""
        part, self.released = self.text[self.released : upto], upto
        return part
