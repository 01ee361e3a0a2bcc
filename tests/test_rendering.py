from __future__ import annotations

import html
import itertools
import uuid
from dataclasses import replace
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.rendering import render_card
from bot.telegram_html import (
    CAPTION_LIMIT,
    TEXT_LIMIT,
    escape,
    html_to_plain,
    plan_card_messages,
    split_text,
    visible_length,
)
from core.domain import Sweetness, WineType, format_price
from core.recommendation import RecommendedWine

NBSP = "\u00a0"
ALLOWED_TAGS = {"b", "i", "u", "s", "a", "code", "pre", "blockquote", "tg-spoiler"}
ALLOWED_ENTITIES = {"lt", "gt", "amp", "quot"}


class TelegramHtmlValidator(HTMLParser):
    """Checks the subset of HTML Telegram accepts and collects the visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.errors.append(f"tag <{tag}> not allowed")
        expected_attrs = ["href"] if tag == "a" else []
        if [name for name, _ in attrs] != expected_attrs:
            self.errors.append(f"unexpected attributes on <{tag}>: {attrs}")
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.errors.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> does not close {self.stack}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        for char in "<>&":
            if char in data:
                self.errors.append(f"bare {char!r} in {data!r}")
        self.text.append(data)

    def handle_entityref(self, name: str) -> None:
        if name not in ALLOWED_ENTITIES:
            self.errors.append(f"entity &{name}; not supported")
        self.text.append(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        self.text.append(html.unescape(f"&#{name};"))

    def handle_comment(self, data: str) -> None:
        self.errors.append("comment")

    def handle_decl(self, decl: str) -> None:
        self.errors.append("declaration")

    def handle_pi(self, data: str) -> None:
        self.errors.append("processing instruction")

    def unknown_decl(self, data: str) -> None:
        self.errors.append("unknown declaration")


def validate(html_text: str) -> str:
    """Assert `html_text` is valid Telegram HTML; return its visible text."""
    parser = TelegramHtmlValidator()
    parser.feed(html_text)
    parser.close()
    assert not parser.errors, (parser.errors, html_text)
    assert not parser.stack, (f"unclosed {parser.stack}", html_text)
    return "".join(parser.text)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def squash(text: str) -> str:
    return "".join(char for char in text if not char.isspace())


def check_parts(parts: list[str], original_html: str, limit: int) -> None:
    original_visible = validate(original_html)
    if not squash(original_visible):
        assert parts == []
        return
    visible_parts = []
    for part in parts:
        visible = validate(part)
        assert squash(visible), f"blank part {part!r}"
        assert utf16_len(visible) <= limit
        assert visible_length(part) == utf16_len(visible)
        visible_parts.append(visible)
    assert squash("".join(visible_parts)) == squash(original_visible)


def make_card(**overrides: object) -> RecommendedWine:
    card = RecommendedWine(
        id=uuid.uuid4(),
        name="Château Margaux",
        producer="Château Margaux",
        country="Франция",
        region="Бордо",
        grape_varieties=["Каберне Совиньон", "Мерло"],
        wine_type=WineType.red,
        sweetness=Sweetness.dry,
        price_rub=Decimal("1990"),
        vintage_year=2018,
        why="Плотное и бархатное — отлично к стейку.",
        image_url=None,
    )
    return replace(card, **overrides)  # type: ignore[arg-type]


# --- escaping, measuring, plain text --------------------------------------------------------


def test_escape_quotes_untouched() -> None:
    assert escape("<a href=\"x\"> & 'y'") == "&lt;a href=\"x\"&gt; &amp; 'y'"


def test_visible_length_ignores_tags_and_decodes_entities() -> None:
    assert visible_length("<b>a &amp; b</b>") == 5
    assert visible_length('<a href="https://e.com/?a=1&amp;b=2">link</a>') == 4
    assert visible_length("&lt;&gt;&amp;&quot;&#65;&#x42;") == 6
    assert visible_length("") == 0


def test_visible_length_counts_utf16_units() -> None:
    # Telegram measures in UTF-16: an astral emoji takes two units.
    assert visible_length("🍷") == 2
    assert visible_length("вино") == 4


def test_entity_heavy_text_visible_length() -> None:
    text = "&amp;" * 5000
    assert visible_length(text) == 5000
    parts = split_text(text)
    assert parts == ["&amp;" * 4096, "&amp;" * 904]


def test_html_to_plain() -> None:
    assert html_to_plain("<b>a &amp; b</b> &lt;3 &#128512; <i>x</i>\n") == "a & b <3 😀 x\n"


# --- card -----------------------------------------------------------------------------------


def test_card_layout() -> None:
    assert render_card(make_card()) == (
        "<b>Château Margaux</b>, 2018\n"
        "Château Margaux\n"
        "🌍 Франция, Бордо\n"
        "🍇 Каберне Совиньон, Мерло\n"
        "🍷 Красное сухое\n"
        f"💰 1{NBSP}990{NBSP}₽\n"
        "\n"
        "<i>Плотное и бархатное — отлично к стейку.</i>"
    )


def test_card_escapes_every_dynamic_field() -> None:
    nasty = "<b>&"
    card = make_card(
        name="Château <b>&",
        producer=f"Producer {nasty}",
        country=f"Country {nasty}",
        region=f"Region {nasty}",
        grape_varieties=[f"Grape {nasty}", "<i>"],
        why="Because <script>alert(1)</script> & more",
    )
    rendered = render_card(card)
    visible = validate(rendered)
    assert "<script>" not in rendered
    assert "&lt;script&gt;" in rendered
    assert "<b>Château &lt;b&gt;&amp;</b>" in rendered
    for field in ("Château <b>&", f"Producer {nasty}", f"Country {nasty}, Region {nasty}"):
        assert field in visible
    assert f"Grape {nasty}, <i>" in visible
    assert "Because <script>alert(1)</script> & more" in visible


def test_card_type_sweetness_and_price() -> None:
    rendered = render_card(
        make_card(
            wine_type=WineType.sparkling,
            sweetness=Sweetness.semi_sweet,
            price_rub=Decimal("12345.5"),
        )
    )
    assert "🍷 Игристое полусладкое" in rendered
    assert f"💰 12{NBSP}345,50{NBSP}₽" in rendered


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (Decimal("990"), f"990{NBSP}₽"),
        (Decimal("1990.00"), f"1{NBSP}990{NBSP}₽"),
        (Decimal("1234567"), f"1{NBSP}234{NBSP}567{NBSP}₽"),
        (Decimal("0.999"), f"1{NBSP}₽"),
        (Decimal("49.9"), f"49,90{NBSP}₽"),
    ],
)
def test_format_price(amount: Decimal, expected: str) -> None:
    assert format_price(amount) == expected


def test_card_omits_missing_pieces() -> None:
    rendered = render_card(
        make_card(producer="  ", region=None, grape_varieties=[], vintage_year=None, why=" ")
    )
    assert rendered == (
        f"<b>Château Margaux</b>\n🌍 Франция\n🍷 Красное сухое\n💰 1{NBSP}990{NBSP}₽"
    )


def test_card_single_line_fields_collapse_whitespace() -> None:
    rendered = render_card(make_card(name="Вино\n\nс  переносом", country="", region="Крым"))
    assert rendered.startswith("<b>Вино с переносом</b>, 2018\n")
    assert "🌍 Крым\n" in rendered


# --- split_text ---------------------------------------------------------------------------


def _paragraphs(total: int) -> list[str]:
    paragraphs, size, index = [], 0, 0
    while size < total:
        words = " ".join(f"слово{index}_{n}" for n in range(30 + index % 50))
        paragraphs.append(f"Абзац {index}. {words}.")
        size += len(paragraphs[-1]) + 2
        index += 1
    return paragraphs


def test_split_long_text_at_paragraph_boundaries() -> None:
    paragraphs = _paragraphs(10_000)
    text = "\n\n".join(paragraphs)
    assert len(text) >= 10_000
    parts = split_text(text)
    assert len(parts) >= 3
    check_parts(parts, text, TEXT_LIMIT)
    assert "\n\n".join(parts) == text
    for part in parts:
        assert part.split("\n\n")[0] in paragraphs
        assert part.split("\n\n")[-1] in paragraphs
    # Greedy: the next paragraph would not have fitted.
    for part, following in itertools.pairwise(parts):
        assert len(part) + 2 + len(following.split("\n\n")[0]) > TEXT_LIMIT


def test_split_short_text_is_unchanged() -> None:
    assert split_text("<b>Привет</b>\n") == ["<b>Привет</b>\n"]


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "<b> </b>"])
def test_split_blank_text(text: str) -> None:
    assert split_text(text) == []


def test_split_rejects_non_positive_limit() -> None:
    with pytest.raises(ValueError):
        split_text("text", limit=0)


def test_single_long_italic_element_with_words() -> None:
    body = " ".join(f"w{n:04d}" for n in range(1500))  # 8999 characters
    text = f"<i>{body}</i>"
    parts = split_text(text)
    check_parts(parts, text, TEXT_LIMIT)
    assert len(parts) == 3
    for part in parts:
        assert part.startswith("<i>w")
        assert part.endswith("</i>")
        assert not part.endswith(" </i>")


def test_single_long_italic_element_without_spaces_is_hard_cut() -> None:
    text = "<b>Заголовок</b>\n<i>" + "x&amp;" * 4500 + "</i>"
    parts = split_text(text)
    check_parts(parts, text, TEXT_LIMIT)
    assert parts[0] == "<b>Заголовок</b>"
    assert [visible_length(part) for part in parts[1:]] == [4096, 4096, 808]
    assert all(part.startswith("<i>") and part.endswith("</i>") for part in parts[1:])


def test_split_prefers_line_then_sentence_then_space() -> None:
    assert split_text("Один два. Три\nчетыре пять", limit=20) == [
        "Один два. Три",
        "четыре пять",
    ]
    assert split_text("Один два. Три четыре пять", limit=20) == [
        "Один два.",
        "Три четыре пять",
    ]
    assert split_text("Один два три четыре пять", limit=20) == [
        "Один два три четыре",
        "пять",
    ]


def test_split_never_breaks_at_no_break_space() -> None:
    text = f"aaaa 1{NBSP}990{NBSP}₽ bbbb"
    assert split_text(text, limit=10) == ["aaaa", f"1{NBSP}990{NBSP}₽", "bbbb"]


def test_split_keeps_tags_with_their_text() -> None:
    assert split_text("abc <b>def</b>", limit=4) == ["abc", "<b>def</b>"]
    assert split_text("<b>abc</b> def", limit=4) == ["<b>abc</b>", "def"]


def test_split_nested_tags_are_closed_and_reopened() -> None:
    text = "<b>bold <i>both words here</i> tail</b>"
    parts = split_text(text, limit=12)
    check_parts(parts, text, 12)
    assert parts == ["<b>bold <i>both</i></b>", "<b><i>words here</i></b>", "<b>tail</b>"]


def test_split_reopens_link_with_its_href() -> None:
    anchor = '<a href="https://example.com/?a=1&amp;b=&quot;2&quot;">'
    text = f"{anchor}{'ссылка ' * 20}</a>"
    parts = split_text(text, limit=50)
    check_parts(parts, text, 50)
    assert all(part.startswith(anchor) and part.endswith("</a>") for part in parts)


def test_hard_cut_keeps_flags_whole() -> None:
    # Five regional indicators (10 units) fit, but cutting after an odd one tears a flag.
    assert split_text("🇷🇺" * 10, limit=10) == ["🇷🇺🇷🇺"] * 5


def test_hard_cut_keeps_zwj_emoji_whole() -> None:
    family = "👨\u200d👩\u200d👧"
    assert split_text("a" * 7 + family + "b" * 5, limit=10) == ["a" * 7, family + "bb", "bbb"]


# --- plan_card_messages ---------------------------------------------------------------------


def test_plan_short_card() -> None:
    card_html = render_card(make_card())
    assert plan_card_messages(card_html, has_photo=True) == (card_html, [])
    assert plan_card_messages(card_html, has_photo=False) == (None, [card_html])


def test_plan_long_card_with_photo_splits_at_paragraph() -> None:
    why = "Очень длинное объяснение & подробности. " * 60  # ~2400 characters
    card_html = render_card(make_card(why=why))
    caption, messages = plan_card_messages(card_html, has_photo=True)
    assert caption is not None
    assert caption == card_html.split("\n\n")[0]
    assert visible_length(caption) <= CAPTION_LIMIT
    assert len(messages) == 1
    assert messages[0] == f"<i>{escape(why.strip())}</i>"
    check_parts([caption, *messages], card_html, TEXT_LIMIT)


def test_plan_very_long_card() -> None:
    why = "Длинное объяснение без абзацев. " * 400  # ~12800 characters
    card_html = render_card(make_card(why=why))
    caption, messages = plan_card_messages(card_html, has_photo=True)
    assert caption is not None
    assert visible_length(caption) <= CAPTION_LIMIT
    assert len(messages) == 4
    check_parts(messages, "<i>" + escape(why) + "</i>", TEXT_LIMIT)

    caption, messages = plan_card_messages(card_html, has_photo=False)
    assert caption is None
    check_parts(messages, card_html, TEXT_LIMIT)


def test_plan_huge_header_is_cut_within_caption() -> None:
    card_html = render_card(make_card(name="Очень длинное имя " * 100))
    caption, messages = plan_card_messages(card_html, has_photo=True)
    assert caption is not None
    assert caption.startswith("<b>") and caption.endswith("</b>")
    assert visible_length(caption) <= CAPTION_LIMIT
    check_parts([caption, *messages], card_html, TEXT_LIMIT)


# --- property tests -----------------------------------------------------------------------

_SPECIAL = ["<", ">", "&", "&amp;", ";", "#", '"', "\n", "\n\n", " ", ".", "!"]
_EMOJI = ["🍷", "👍🏽", "🇷🇺", "🇫🇷", "👨\u200d👩\u200d👧", "e\u0301", "❤️"]

rich_text = st.lists(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(_SPECIAL),
        st.sampled_from(_EMOJI),
        st.sampled_from(["вино", "Château", "слово"]),
    ),
    max_size=60,
).map("".join)

long_rich_text = st.tuples(rich_text, st.integers(min_value=1, max_value=40)).map(
    lambda pair: pair[0] * pair[1]
)

cards = st.builds(
    RecommendedWine,
    id=st.uuids(),
    name=rich_text,
    producer=rich_text,
    country=rich_text,
    region=st.none() | rich_text,
    grape_varieties=st.lists(rich_text, max_size=4),
    wine_type=st.sampled_from(WineType),
    sweetness=st.sampled_from(Sweetness),
    price_rub=st.decimals(min_value=0, max_value=10**7, places=2, allow_nan=False),
    vintage_year=st.none() | st.integers(min_value=1900, max_value=2030),
    why=long_rich_text,
    image_url=st.none() | st.just("https://example.com/wine.jpg"),
)


def _wrap(text: str, style: str) -> str:
    body = escape(text)
    if style == "bi":
        return f"<b><i>{body}</i></b>"
    if style == "a":
        return f'<a href="https://example.com/?q={html.escape(text[:8], quote=True)}">{body}</a>'
    return f"<{style}>{body}</{style}>" if style else body


@st.composite
def formatted_html(draw: st.DrawFn) -> str:
    """Escaped random text in random <b>/<i>/<a> segments, maybe inside a blockquote."""
    styles = st.sampled_from(["", "b", "i", "bi", "a"])
    segments = draw(st.lists(st.tuples(long_rich_text, styles), max_size=6))
    inner = "".join(_wrap(text, style) for text, style in segments)
    return f"<blockquote>{inner}</blockquote>" if draw(st.booleans()) else inner


@settings(max_examples=200, deadline=None)
@given(card=cards, limit=st.integers(min_value=8, max_value=300))
def test_property_rendered_card_splits_validly(card: RecommendedWine, limit: int) -> None:
    card_html = render_card(card)
    validate(card_html)
    check_parts(split_text(card_html, limit), card_html, limit)


@settings(max_examples=200, deadline=None)
@given(card=cards, has_photo=st.booleans())
def test_property_plan_card_messages(card: RecommendedWine, has_photo: bool) -> None:
    card_html = render_card(card)
    caption, messages = plan_card_messages(card_html, has_photo)
    if has_photo:
        assert caption is not None
        assert visible_length(caption) <= CAPTION_LIMIT
        check_parts([caption, *messages], card_html, TEXT_LIMIT)
    else:
        assert caption is None
        check_parts(messages, card_html, TEXT_LIMIT)


@settings(max_examples=200, deadline=None)
@given(html_text=formatted_html(), limit=st.integers(min_value=8, max_value=200))
def test_property_formatted_text_splits_validly(html_text: str, limit: int) -> None:
    validate(html_text)
    parts = split_text(html_text, limit)
    check_parts(parts, html_text, limit)
    assert html_to_plain(html_text) == validate(html_text)
