"""The final answer format the model writes and the service parses deterministically.

[INTRO]
text
[WINE:<catalog id>]
why this wine fits
[CLOSING]
text
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

_MARKER = re.compile(r"\[\s*(INTRO|CLOSING|WINE\s*[:=#]?\s*([^\]\n]{1,200}))\s*\]", re.IGNORECASE)
MAX_INTRO = 1500
MAX_WHY = 700
MAX_CLOSING = 800
MAX_PLAIN = 3000
# The end of a text being written that may still grow into a marker: an unclosed bracket on
# the last line, no longer than a marker can be.
_OPEN_MARKER = re.compile(r"\[[^\]\n]{0,220}$")

FORMAT_INSTRUCTIONS = """Рекомендуя вина, пиши строго так (маркеры латиницей), не больше трех вин:
[INTRO]
одна-две фразы вступления
[WINE:<id вина, точно как в результатах инструментов>]
почему оно подходит (1–3 предложения)
[WINE:<id>]
...
[CLOSING]
короткое завершение или вопрос"""


@dataclass
class WinePick:
    ref: str  # what the model wrote inside the marker: an id or, by mistake, a name
    why: str


@dataclass
class ParsedAnswer:
    intro: str
    picks: list[WinePick] = field(default_factory=list)
    closing: str = ""
    formatted: bool = False


def clip(text: str, limit: int) -> str:
    """Shorten at a sentence or word boundary, marking the cut."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    for sep in (". ", "! ", "? ", "\n", " "):
        pos = cut.rfind(sep)
        if pos > limit // 2:
            return cut[: pos + 1].rstrip() + "…"
    return cut.rstrip() + "…"


_SENTENCE_END = re.compile(r"(?<=[a-zа-яё0-9»\")])[.!?…](?=\s+[A-ZА-ЯЁ«\"]|\s*$)")


def first_sentence(text: str) -> str:
    """The first sentence, ending with its punctuation; initials like «E. Guigal» don't end it."""
    text = text.strip()
    match = _SENTENCE_END.search(text)
    return text[: match.end()] if match else text


def parse_answer(text: str | None) -> ParsedAnswer:
    text = (text or "").strip()
    markers = list(_MARKER.finditer(text))
    if not markers:
        return ParsedAnswer(intro=clip(text, MAX_PLAIN))
    answer = ParsedAnswer(intro="", formatted=True)
    preface = text[: markers[0].start()].strip()
    for index, marker in enumerate(markers):
        end = markers[index + 1].start() if index + 1 < len(markers) else len(text)
        body = text[marker.end() : end].strip()
        kind = marker.group(1).upper()
        if kind == "INTRO":
            answer.intro = clip(" ".join(p for p in (answer.intro, body) if p), MAX_INTRO)
        elif kind == "CLOSING":
            answer.closing = clip(" ".join(p for p in (answer.closing, body) if p), MAX_CLOSING)
        else:
            answer.picks.append(WinePick(ref=marker.group(2).strip(), why=clip(body, MAX_WHY)))
    if preface and not answer.intro:
        answer.intro = clip(preface, MAX_INTRO)
    return answer


class IntroSoFar(NamedTuple):
    text: str
    complete: bool  # the next marker was written: the intro will not grow any more


def intro_so_far(text: str) -> IntroSoFar | None:
    """The intro of an answer still being written, as far as it may be shown: the text after
    [INTRO] up to the next marker, never a marker or the start of one. None before [INTRO].

    As the text grows, each result extends the previous one (the stream sends the difference).
    """
    intro = next((m for m in _MARKER.finditer(text) if m.group(1).upper() == "INTRO"), None)
    if intro is None:
        return None
    rest = text[intro.end() :].lstrip()
    following = _MARKER.search(rest)
    if following is not None:
        return IntroSoFar(rest[: following.start()], True)
    unclosed = _OPEN_MARKER.search(rest)
    if unclosed is None:
        return IntroSoFar(rest, False)
    before = rest[: unclosed.start()]
    # A bracket opening a line is the next marker being written: the intro is over (a bracket
    # inside a line is prose, held back only until it is read).
    return IntroSoFar(before, before.endswith("\n"))


def render_answer(intro: str, picks: list[tuple[str, str]], closing: str) -> str:
    """The canonical text stored in history for an answer, with verified ids only."""
    parts = [f"[INTRO]\n{intro}"] if intro else []
    parts += [f"[WINE:{ref}]\n{why}" for ref, why in picks]
    if closing:
        parts.append(f"[CLOSING]\n{closing}")
    return "\n".join(parts)
