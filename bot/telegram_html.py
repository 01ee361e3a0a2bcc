"""Telegram HTML within Telegram's limits: escaping, measuring, splitting, a plain-text fallback.

Telegram measures limits on the text left after HTML parsing, so everything here works on
a token stream (tags, entities, characters) rather than on the raw markup.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import NamedTuple

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024

ZWJ = "\u200d"

_TOKEN_RE = re.compile(
    r"(?P<tag><(?P<slash>/?)(?P<name>[A-Za-z][A-Za-z0-9-]*)(?:\"[^\"]*\"|'[^']*'|[^'\">])*>)"
    r"|(?P<entity>&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);)"
    r"|(?P<run>[^<&]+)"
    r"|(?P<char>.)",
    re.DOTALL,
)

# Split points in order of preference: (pattern, cut after the match instead of before it).
_BREAKS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"\n\s*\n"), False),
    (re.compile(r"\n"), False),
    (re.compile(r"[.!?…]+[»\"')\]]*(?=\s)"), True),
    # Any whitespace except the no-break spaces that keep prices like "1 990 ₽" together.
    (re.compile(r"[^\S\u00a0\u2007\u202f]"), False),
)

# A hard cut backs off at most this many characters to keep an emoji sequence whole.
_MAX_GRAPHEME_BACKOFF = 16


# --- escaping and measuring -------------------------------------------------------------


def escape(text: str) -> str:
    """Escape dynamic text for Telegram HTML (element content, not attributes)."""
    return html.escape(text, quote=False)


class _Atom(NamedTuple):
    """An indivisible piece of markup: a tag, or one visible character / entity."""

    raw: str
    text: str = ""
    width: int = 0
    tag: str | None = None
    closing: bool = False

    @property
    def is_tag(self) -> bool:
        return self.tag is not None

    @property
    def is_blank(self) -> bool:
        return not self.is_tag and self.text.isspace()


def _utf16_width(text: str) -> int:
    # Telegram counts offsets in UTF-16 code units; counting them for the limit too is the
    # conservative choice (an emoji counts 2), so a part never exceeds the real limit.
    return len(text.encode("utf-16-le")) // 2


def _tokenize(html_text: str) -> list[_Atom]:
    atoms: list[_Atom] = []
    for match in _TOKEN_RE.finditer(html_text):
        raw = match.group()
        if match.group("tag"):
            is_void = raw.endswith("/>")
            atoms.append(
                _Atom(
                    raw=raw,
                    tag="" if is_void else match.group("name").lower(),
                    closing=bool(match.group("slash")),
                )
            )
        elif match.group("run"):
            atoms.extend(_Atom(char, char, 1 if char <= "\uffff" else 2) for char in raw)
        else:
            text = html.unescape(raw) if match.group("entity") else raw
            atoms.append(_Atom(raw=raw, text=text, width=_utf16_width(text)))
    return atoms


def _measure(html_text: str) -> tuple[int, bool]:
    """(visible length, whether anything but tags and whitespace shows), without the atoms
    `_tokenize` builds one per character: most texts fit and need no cutting."""
    width, content = 0, False
    for match in _TOKEN_RE.finditer(html_text):
        if match.group("tag"):
            continue
        text = html.unescape(match.group()) if match.group("entity") else match.group()
        width += _utf16_width(text)
        content = content or not text.isspace()
    return width, content


def visible_length(html_text: str) -> int:
    """Length as Telegram counts it: tags removed, entities decoded, in UTF-16 code units."""
    return _measure(html_text)[0]


def html_to_plain(html_text: str) -> str:
    """Strip tags and decode entities, for resending when Telegram rejects the markup."""
    return "".join(atom.text for atom in _tokenize(html_text))


# --- splitting -----------------------------------------------------------------------------

_Stack = tuple[_Atom, ...]


def _apply_tag(stack: _Stack, atom: _Atom) -> _Stack:
    if not atom.tag:  # void / self-closing tag
        return stack
    if not atom.closing:
        return (*stack, atom)
    for index in range(len(stack) - 1, -1, -1):
        if stack[index].tag == atom.tag:
            return stack[:index]
    return stack


def _apply_tags(stack: _Stack, atoms: Sequence[_Atom]) -> _Stack:
    for atom in atoms:
        if atom.is_tag:
            stack = _apply_tag(stack, atom)
    return stack


def _open_tags(stack: _Stack) -> str:
    return "".join(atom.raw for atom in stack)


def _close_tags(stack: _Stack) -> str:
    return "".join(f"</{atom.tag}>" for atom in reversed(stack))


def _skip_leading(atoms: list[_Atom], pos: int, stack: _Stack) -> tuple[int, _Stack]:
    """Drop whitespace before the next visible content; tags met on the way update the stack."""
    while pos < len(atoms):
        atom = atoms[pos]
        if atom.is_tag:
            stack = _apply_tag(stack, atom)
        elif not atom.is_blank:
            break
        pos += 1
    return pos, stack


def _is_grapheme_boundary(texts: list[str], count: int, lookahead: str) -> bool:
    before = texts[count - 1][-1]
    after = (texts[count] if count < len(texts) else lookahead)[:1]
    if not after:
        return True
    code = ord(after)
    if before == ZWJ or after == ZWJ or unicodedata.category(after) in ("Mn", "Mc", "Me"):
        return False
    if 0xFE00 <= code <= 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return False  # variation selectors, skin tones, emoji tag sequences
    if _is_regional_indicator(before) and _is_regional_indicator(after):
        # Flags are pairs of regional indicators: cut only after an even-length run.
        run = 0
        for text in reversed(texts[:count]):
            if not _is_regional_indicator(text[-1]):
                break
            run += 1
        return run % 2 == 0
    return True


def _is_regional_indicator(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _hard_cut(texts: list[str], lookahead: str) -> int:
    lowest = max(0, len(texts) - _MAX_GRAPHEME_BACKOFF)
    for count in range(len(texts), lowest, -1):
        if _is_grapheme_boundary(texts, count, lookahead):
            return count
    return len(texts)


def _preferred_cut(texts: list[str], lookahead: str) -> int:
    """How many of the visible atoms `texts` to keep when the next one (`lookahead`) overflows."""
    window = "".join(texts)
    searchable = window + lookahead  # lets "end of sentence" see the space past the window
    ends: list[int] = []
    offset = 0
    for text in texts:
        offset += len(text)
        ends.append(offset)
    for pattern, cut_after in _BREAKS:
        cuts = [m.end() if cut_after else m.start() for m in pattern.finditer(searchable)]
        valid = [cut for cut in cuts if 0 < cut <= len(window)]
        if valid:
            count = bisect_right(ends, valid[-1])
            if count:
                return count
    return _hard_cut(texts, lookahead)


def _part_end(atoms: list[_Atom], pos: int, limit: int) -> int:
    """Index just past the last atom of the part starting at `pos` (a non-blank atom)."""
    indices: list[int] = []
    texts: list[str] = []
    width = 0
    overflow: _Atom | None = None
    for index in range(pos, len(atoms)):
        atom = atoms[index]
        if atom.is_tag:
            continue
        if width + atom.width > limit:
            overflow = atom
            break
        width += atom.width
        indices.append(index)
        texts.append(atom.text)
    if not indices:  # a single atom wider than the limit: emit it alone rather than loop
        return pos + 1
    count = len(texts) if overflow is None else _preferred_cut(texts, overflow.text)
    while count > 1 and texts[count - 1].isspace():
        count -= 1
    end = indices[count - 1] + 1
    # Closing tags right after the last character belong to this part, not to the next.
    while end < len(atoms) and atoms[end].is_tag and atoms[end].closing:
        end += 1
    return end


def _take_part(
    atoms: list[_Atom], pos: int, stack: _Stack, limit: int
) -> tuple[str, int, _Stack] | None:
    """Next part as balanced HTML plus the position and open-tag stack after it."""
    pos, stack = _skip_leading(atoms, pos, stack)
    if pos >= len(atoms):
        return None
    end = _part_end(atoms, pos, limit)
    body = atoms[pos:end]
    after = _apply_tags(stack, body)
    part = _open_tags(stack) + "".join(atom.raw for atom in body) + _close_tags(after)
    return part, end, after


def _iter_parts(atoms: list[_Atom], limit: int) -> Iterator[str]:
    pos, stack = 0, ()
    while (taken := _take_part(atoms, pos, stack, limit)) is not None:
        part, pos, stack = taken
        yield part


def split_text(html_text: str, limit: int = TEXT_LIMIT) -> list[str]:
    """Split Telegram HTML into balanced parts of at most `limit` visible units each.

    Cuts prefer paragraph breaks, then line breaks, sentence ends, spaces, and only then a
    hard cut; never inside a tag or an entity. Formatting open at a cut is closed at the end
    of the part and reopened at the start of the next one. Whitespace at cuts is dropped.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    width, content = _measure(html_text)
    if not content:
        return []
    if width <= limit:
        return [html_text]
    return list(_iter_parts(_tokenize(html_text), limit))


def plan_card_messages(card_html: str, has_photo: bool) -> tuple[str | None, list[str]]:
    """(photo caption or None, text messages to send after it) for one rendered card."""
    if not has_photo:
        return None, split_text(card_html)
    if visible_length(card_html) <= CAPTION_LIMIT:
        return card_html, []
    atoms = _tokenize(card_html)
    first = _take_part(atoms, 0, (), CAPTION_LIMIT)
    if first is None:  # only whitespace, nothing worth a caption
        return None, []
    caption, pos, stack = first
    pos, stack = _skip_leading(atoms, pos, stack)
    rest = _open_tags(stack) + "".join(atom.raw for atom in atoms[pos:])
    return caption, split_text(rest)
