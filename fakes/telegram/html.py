"""Telegram-flavoured HTML, parsed as the Bot API parses it (modelled on tdlib's parse_html):
the visible text and its entities, offsets in UTF-16 code units, errors in Telegram's words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


class HtmlParseError(ValueError):
    """Raised by :func:`parse_telegram_html`.

    ``reason`` is what Telegram puts after "can't parse entities: ".
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


_SUPPORTED_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "tg-emoji",
        "code",
        "pre",
        "blockquote",
    }
)
_TAG_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_NAMED_HTML_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_HTML_ENTITY_RE = re.compile(r"&(?:(lt|gt|amp|quot)|#([0-9]{1,8})|#[xX]([0-9a-fA-F]{1,8}));")
_HTML_SPACES = frozenset(" \t\r\n\v\f")
_TEXT_RUN_RE = re.compile(r"[^&<]+")


@dataclass
class _OpenTag:
    name: str
    argument: str
    utf16_start: int
    byte_pos: int


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _decode_html_entity(source: str, pos: int) -> tuple[str, int] | None:
    match = _HTML_ENTITY_RE.match(source, pos)
    if match is None:
        return None
    named, decimal, hexadecimal = match.groups()
    if named:
        return _NAMED_HTML_ENTITIES[named], match.end()
    code = int(decimal) if decimal else int(hexadecimal, 16)
    if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        return None
    return chr(code), match.end()


def parse_telegram_html(
    source: str, *, strict_ampersand: bool = True
) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram-flavoured HTML; return ``(visible_text, entities)``.

    Entity offsets/lengths are in UTF-16 code units like Telegram's.  Raises
    :class:`HtmlParseError` with Telegram's wording ("Unsupported start tag \\"div\\" at byte
    offset 0", "Can't find end tag corresponding to start tag \\"b\\"", ...).
    """
    n = len(source)
    out: list[str] = []
    utf16 = 0
    stack: list[_OpenTag] = []
    entities: list[dict[str, Any]] = []

    def byte_offset(pos: int) -> int:
        return len(source[:pos].encode("utf-8"))

    def is_space(pos: int) -> bool:
        return pos < n and source[pos] in _HTML_SPACES

    def skip_spaces(pos: int) -> int:
        while is_space(pos):
            pos += 1
        return pos

    i = 0
    while i < n:
        char = source[i]
        if char == "&":
            decoded = _decode_html_entity(source, i)
            if decoded is not None:
                text, i = decoded
                out.append(text)
                utf16 += utf16_len(text)
                continue
            if strict_ampersand:
                raise HtmlParseError(
                    f'Character "&" must be escaped as "&amp;" at byte offset {byte_offset(i)}'
                )
        if char == "&":  # not an entity, and plain ampersands are allowed
            out.append(char)
            utf16 += 1
            i += 1
            continue
        if char != "<":  # a run of text up to the next tag or entity, taken whole
            run = _TEXT_RUN_RE.match(source, i)
            assert run is not None
            out.append(run.group())
            utf16 += utf16_len(run.group())
            i = run.end()
            continue

        begin = i
        offset = byte_offset(begin)
        i += 1
        if i < n and source[i] == "/":
            # End tag.
            if not stack:
                raise HtmlParseError(f"Unexpected end tag at byte offset {offset}")
            i += 1
            name_begin = i
            while i < n and not is_space(i) and source[i] != ">":
                i += 1
            end_name = source[name_begin:i].lower()
            i = skip_spaces(i)
            if i >= n or source[i] != ">":
                raise HtmlParseError(f"Unclosed end tag at byte offset {offset}")
            i += 1
            opened = stack.pop()
            if end_name and end_name != opened.name:
                raise HtmlParseError(
                    f'Unmatched end tag at byte offset {offset}, expected "</{opened.name}>", '
                    f'found "</{end_name}>"'
                )
            _close_entity(opened, utf16, stack, entities)
            continue

        # Start tag.
        while i < n and not is_space(i) and source[i] != ">":
            i += 1
        if i >= n:
            raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
        name = source[begin + 1 : i].lower()
        if name not in _SUPPORTED_TAGS:
            raise HtmlParseError(f'Unsupported start tag "{name}" at byte offset {offset}')

        attributes: dict[str, str] = {}
        while True:
            i = skip_spaces(i)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            if source[i] == ">":
                i += 1
                break
            attr_begin = i
            while i < n and not is_space(i) and source[i] not in "=>":
                i += 1
            attr_name = source[attr_begin:i].lower()
            if not attr_name:
                raise HtmlParseError(
                    f'Empty attribute name in the tag "{name}" at byte offset {offset}'
                )
            i = skip_spaces(i)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            if source[i] != "=":
                if name == "blockquote" and attr_name == "expandable":
                    attributes[attr_name] = ""
                    continue
                raise HtmlParseError(
                    "Expected equal sign in declaration of an attribute of the tag "
                    f'"{name}" at byte offset {offset}'
                )
            i = skip_spaces(i + 1)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            quote = source[i]
            if quote not in "'\"":
                token_begin = i
                while i < n and (
                    (source[i].isascii() and source[i].isalnum()) or source[i] in ".-"
                ):
                    i += 1
                value = source[token_begin:i].lower()
                if i < n and not is_space(i) and source[i] != ">":
                    raise HtmlParseError(
                        f"Unexpected end of name token at byte offset {byte_offset(token_begin)}"
                    )
            else:
                i += 1
                chunks: list[str] = []
                while i < n and source[i] != quote:
                    if source[i] == "&":
                        decoded = _decode_html_entity(source, i)
                        if decoded is not None:
                            chunks.append(decoded[0])
                            i = decoded[1]
                            continue
                    chunks.append(source[i])
                    i += 1
                if i < n:
                    i += 1
                value = "".join(chunks)
            if i >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {offset}")
            attributes[attr_name] = value

        stack.append(_OpenTag(name, _tag_argument(name, attributes, offset), utf16, offset))

    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    entities.sort(key=lambda entity: (entity["offset"], -entity["length"]))
    return "".join(out), entities


def _tag_argument(name: str, attributes: dict[str, str], offset: int) -> str:
    if name == "a":
        href = attributes.get("href", "").strip()
        if not href:
            raise HtmlParseError(
                f'Tag "a" must have non-empty attribute "href" at byte offset {offset}'
            )
        return href
    if name == "span":
        if attributes.get("class") != "tg-spoiler":
            raise HtmlParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {offset}')
        return ""
    if name == "code":
        css_class = attributes.get("class", "")
        return css_class.removeprefix("language-") if css_class.startswith("language-") else ""
    if name == "tg-emoji":
        emoji_id = attributes.get("emoji-id", "")
        if not emoji_id.isdigit():
            raise HtmlParseError(
                f"Invalid custom emoji identifier specified at byte offset {offset}"
            )
        return emoji_id
    if name == "blockquote":
        return "expandable" if "expandable" in attributes else ""
    return ""


def _close_entity(
    opened: _OpenTag, utf16_end: int, stack: list[_OpenTag], entities: list[dict[str, Any]]
) -> None:
    length = utf16_end - opened.utf16_start
    if opened.name == "code" and stack and stack[-1].name == "pre":
        parent = stack[-1]
        if parent.utf16_start == opened.utf16_start:
            # <pre><code class="language-x">...</code></pre> is a single pre entity.
            if opened.argument and not parent.argument:
                parent.argument = opened.argument
            return
    if length <= 0:
        return
    entity: dict[str, Any] = {
        "type": _TAG_ENTITY_TYPES[opened.name],
        "offset": opened.utf16_start,
        "length": length,
    }
    if opened.name == "a":
        entity["url"] = opened.argument
    elif opened.name == "pre" and opened.argument:
        entity["language"] = opened.argument
    elif opened.name == "tg-emoji":
        entity["custom_emoji_id"] = opened.argument
    elif opened.name == "blockquote" and opened.argument:
        entity["type"] = "expandable_blockquote"
    entities.append(entity)
