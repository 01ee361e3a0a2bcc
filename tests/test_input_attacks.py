"""Hostile and odd input: through the bot, the HTTP API, the tools and the renderer.

- Whatever a user writes gets a polite reply, and what is echoed back is escaped.
- SQL fragments in every filter position reach the database only as bound parameters: the
  catalog and every table survive, and the answer is an ordinary (maybe empty) result.
- Any catalog text and any model text renders as Telegram-valid HTML within the limits, with
  every piece of the text kept.
"""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import pytest
from aiogram.methods import SendMessage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from bot.delivery import send_recommendation, send_text
from core.domain import Sweetness, WineType
from core.recommendation import Recommendation, RecommendedWine
from fakes.database import history_problems
from fakes.openai_server import Step, reply, responder
from fakes.telegram_server import HtmlParseError, parse_telegram_html
from services.agent._answer_format import MAX_CLOSING, MAX_PLAIN, MAX_WHY, parse_answer
from services.agent._catalog_tools import build_catalog_tools
from services.app.runtime import Runtime
from services.app.texts import T
from services.llm.embeddings import EmbeddingService
from tests.agent_fixtures import catalog_ids, fake_openai, formatted
from tests.api_harness import running_api
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, fake_llm, last_user_text, llm_settings
from tests.conftest import make_settings
from tests.fault_helpers import JSONDict, assert_real_cards, catalog_fingerprint, shown_cards

CHAT = 980_001
LIMIT = 1000


def echo(body: JSONDict) -> Step:
    """A model that repeats the user's words back, in a plain answer or around catalog wines."""
    said = last_user_text(body)
    ids = catalog_ids(body)
    if ids:
        picks = [(i, f"К вашему «{said}»") for i in ids[:3]]
        return reply(formatted(picks, f"Вы написали: «{said}»", "Пока!"))
    return reply(f"Вы написали: «{said}»")


# text sent -> what the reply must be: a fixed text, or "answer" (echo / wines)
INPUTS: dict[str, tuple[str, str]] = {
    "whitespace": (" \n\t \u00a0 ", T.empty_text),
    "only-invisible": ("\u200b\u2060\ufeff\u200d\u202e\u2066", T.empty_text),
    "control-characters": ("\x00\x01\x07\x1b\x7f", T.empty_text),
    "100000-characters": ("вино " * 20_000, T.too_long.format(limit=LIMIT)),
    "control-inside": ("\x1b[31mпривет\x1b[0m\x00, как\x07 дела?", "answer"),
    "rtl-and-zero-width": ("\u202eпривет\u202c, как\u200b дела\u2066?\u2069", "answer"),
    "arabic-and-hebrew": ("مرحبا שלום", "answer"),
    "emoji-only": ("🍷🍷🥩🧀", "answer"),
    "html": ('<b>привет</b> <script>alert(1)</script> & <a href="x">ссылка</a> &amp;', "answer"),
    "markdown": ("**привет** _мир_ [тут](x) `code` ~~x~~ ||спойлер||", "answer"),
    "sql": ("привет'; DROP TABLE wines; -- ' OR '1'='1", "answer"),
    "sql-as-a-wine-request": ("красное до 2000'); DELETE FROM users; --", "answer"),
    "lone-surrogate": ("привет \ud800 мир", "answer"),
    "at-the-limit": ("ы" * LIMIT, "answer"),
}


def _cleaned(text: str) -> str:
    kept = "".join(
        c
        for c in text
        if c in "\n\t" or (c.isprintable() and c not in "\u200b\u200c\u200d\u2060\ufeff")
    )
    return kept.strip()


@pytest.mark.parametrize("name", list(INPUTS))
async def test_odd_input_gets_a_polite_escaped_reply(seeded: Runtime, name: str) -> None:
    sent_text, expected = INPUTS[name]
    catalog_before = await catalog_fingerprint(seeded.sessions)
    chat_id = CHAT + list(INPUTS).index(name)
    async with (
        fake_llm() as llm,
        running_bot(seeded, max_message_chars=LIMIT, **llm_settings(llm)) as h,
    ):
        llm.script(*[responder(echo)] * 5)
        await adult(h, chat_id)
        replies = await ask(h, chat_id, sent_text)

    assert replies, name
    assert h.tg.rejected == [], h.tg.dump_calls()
    assert llm.errors == []
    shown = [r.visible_text or "" for r in replies]
    if expected != "answer":
        assert shown == [expected]
        assert llm.requests == []
    else:
        assert T.apology not in shown and T.unavailable not in shown, shown
        # The model got the cleaned text, and the user sees it back exactly, escaped.
        said = last_user_text(llm.requests[0])
        assert said == _cleaned(sent_text)
        assert any(f"«{said}»" in s for s in shown), shown
        assert_real_cards(await shown_cards(seeded.sessions, replies))
        for r in replies:
            tags = re.findall(r"<[^>]*>", str(r.params.get("text") or ""))
            assert all(re.fullmatch(r"</?[bi]>", t) for t in tags), tags
    assert await catalog_fingerprint(seeded.sessions) == catalog_before
    assert await history_problems(seeded.sessions) == []


# ---- SQL in every filter position -----------------------------------------------------------

PAYLOADS = [
    "'; DROP TABLE wines; --",
    "' OR '1'='1",
    "%' OR 1=1 --",
    "\\'; SELECT pg_sleep(30); --",
    "1; UPDATE wines SET price_rub = 1",
    "' UNION SELECT id, name FROM users --",
    "\x00' OR 1=1",
    "$$; DROP TABLE users; $$",
    "ANY(ARRAY['x']) OR TRUE",
]
TEXT_FILTERS = {
    "search_wines": [
        "wine_type",
        "sweetness",
        "grape_variety",
        "food_pairing",
        "country",
        "region",
    ],
    "semantic_search": ["query", "wine_type"],
}
NUMBER_FILTERS = {
    "search_wines": ["price_min", "price_max", "body_min", "body_max", "limit"],
    "semantic_search": ["price_max", "limit"],
}


async def test_sql_in_every_filter_is_only_ever_a_value(seeded: Runtime) -> None:
    before = await catalog_fingerprint(seeded.sessions)
    settings_ = make_settings()
    embeddings = EmbeddingService(settings_)
    # pg_sleep(30) run as SQL would hit the tool's timeout and be reported as timed out.
    registry = build_catalog_tools(seeded.sessions, embeddings, timeout=10)
    outcomes: list[str] = []
    for tool, fields in TEXT_FILTERS.items():
        for field in fields:
            for payload in PAYLOADS:
                result = await registry.execute(tool, {field: payload})
                assert "timed out" not in result.content, (tool, field, payload)  # no pg_sleep
                # A clean result or an explained refusal; never a database error.
                assert "failed" not in result.content, (tool, field, payload, result.content)
                outcomes.append(result.content)
                # A value that smuggles SQL matches nothing (no wine is called "OR 1=1").
                if result.ok and field != "query":
                    assert '"count":0' in result.content, (tool, field, payload, result.content)
    for tool, fields in NUMBER_FILTERS.items():
        for field in fields:
            for payload in PAYLOADS:
                extra = {"query": "вино"} if tool == "semantic_search" else {}
                result = await registry.execute(tool, {field: payload, **extra})
                # A number read out of the text ("... = 1" → 1), or refused; never SQL.
                if result.ok:
                    assert isinstance(result.arguments[field], int | float), result.arguments
                else:
                    assert "invalid arguments" in result.content, result.content
    await embeddings.close()

    assert await catalog_fingerprint(seeded.sessions) == before
    async with seeded.engine.connect() as conn:
        tables = set(
            (
                await conn.execute(
                    text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                )
            ).scalars()
        )
    assert {"wines", "users", "conversations", "messages", "feedback"} <= tables
    assert len(outcomes) == sum(len(f) for f in TEXT_FILTERS.values()) * len(PAYLOADS)


# ---- the HTTP API ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"query": "красное\x00 до 2000"}, 200),
        ({"query": "\x00\x00\u200b"}, 422),
        ({"query": "'; DROP TABLE wines; --"}, 200),
        ({"query": "<script>alert(1)</script>"}, 200),
        ({"query": "привет \ud800 мир"}, 422),  # not valid Unicode
        ({"query": "вино", "user_id": 2**70}, 422),
        ({"query": "вино", "user_id": -(2**70)}, 422),
        ({"query": "вино", "tools_allowlist": ["search_wines'; --"]}, 422),
        ({"query": "вино", "conversation_id": "' OR 1=1"}, 422),
        ({"query": "в" * 1001}, 422),
    ],
)
async def test_api_odd_input(seeded: Runtime, body: dict[str, Any], status: int) -> None:
    before = await catalog_fingerprint(seeded.sessions)
    async with fake_openai() as server:
        server.script(*[responder(echo)] * 5)
        overrides = {"llm_api_key": "test-key", "llm_base_url": server.base_url}
        async with (
            running_api(seeded, **overrides) as api,
            aiohttp.ClientSession() as http,
            http.post(f"{api.base_url}/v1/agent/ask", json=body) as resp,
        ):
            assert resp.status == status, await resp.text()
            payload = await resp.json()
    assert server.errors == []
    if status == 200:
        assert payload["recommendation"]["intro"] or payload["recommendation"]["wines"]
    else:
        assert payload["field"]
    assert await catalog_fingerprint(seeded.sessions) == before
    assert await history_problems(seeded.sessions) == []


# ---- any catalog text and any model text through the real delivery code ------------------------

texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300
) | st.sampled_from(
    [
        "<b>жирный</b> <script>x</script>",
        "&amp; &lt; & ; &#x41; &#65;",
        "[INTRO] [WINE:x] [CLOSING]",
        "🍷" * 700,
        "👨\u200d👩\u200d👧" * 300,
        "\u202eRTL\u202c\u200b",
        "a" * 5000,
        "Слово. " * 900,
    ]
)


class RecordingBot:
    """Stands in for aiogram's Bot: records what the delivery code sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    async def __call__(self, method: SendMessage) -> None:
        self.sent.append(("text", method.text))

    async def send_photo(self, chat_id: int, photo: str, caption: str, **_: Any) -> None:
        self.sent.append(("caption", caption))


@st.composite
def recommendations(draw: st.DrawFn) -> Recommendation:
    wines = [
        RecommendedWine(
            id=draw(st.uuids()),
            name=draw(texts),
            producer=draw(texts),
            country=draw(texts),
            region=draw(st.none() | texts),
            grape_varieties=draw(st.lists(texts, max_size=3)),
            wine_type=draw(st.sampled_from(WineType)),
            sweetness=draw(st.sampled_from(Sweetness)),
            price_rub=draw(st.decimals(min_value=0, max_value=10**7, places=2)),
            vintage_year=draw(st.none() | st.integers(1900, 2030)),
            image_url=draw(st.none() | st.just("https://example.com/w.jpg")),
            why=draw(texts),
        )
        for _ in range(draw(st.integers(0, 3)))
    ]
    return Recommendation(draw(texts), wines, draw(texts), "agent")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rec=recommendations())
async def test_any_text_is_delivered_valid_and_whole(rec: Recommendation) -> None:
    bot = RecordingBot()
    await send_recommendation(bot, 1, rec)  # type: ignore[arg-type]
    visible = []
    for kind, html_text in bot.sent:
        try:
            shown, _ = parse_telegram_html(html_text)
        except HtmlParseError as exc:  # pragma: no cover - the assertion reports it
            raise AssertionError(f"invalid HTML: {exc} in {html_text[:300]!r}") from exc
        limit = 1024 if kind == "caption" else 4096
        assert 0 < len(shown.encode("utf-16-le")) // 2 <= limit
        visible.append(shown)
    # Every word of every text the user should see arrives, in order.
    expected = [rec.intro]
    for wine in rec.wines:
        expected += [wine.name, wine.producer, wine.country, wine.region or ""]
        expected += [*wine.grape_varieties, wine.why]
    expected.append(rec.closing)
    # Cuts drop the whitespace they fall on (and may cut inside a very long word), so the
    # texts are compared without whitespace.
    got = "".join("".join(visible).split())
    for piece in expected:
        assert "".join(piece.split()) in got, piece[:100]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.lists(
        texts | st.sampled_from(["[INTRO]", "[WINE:abc]", "[ wine = 12 ]", "[CLOSING]", "\n"]),
        max_size=12,
    ).map("".join)
)
async def test_any_model_answer_is_read_and_delivered_within_the_limits(raw: str) -> None:
    """Whatever the model writes is parsed without error into bounded texts that arrive as
    valid Telegram HTML, whole (the parser's bounds are the only cuts)."""
    parsed = parse_answer(raw)
    assert len(parsed.intro) <= MAX_PLAIN + 1
    assert len(parsed.closing) <= MAX_CLOSING + 1
    assert all(len(p.why) <= MAX_WHY + 1 for p in parsed.picks)
    bot = RecordingBot()
    for piece in (parsed.intro, *(p.why for p in parsed.picks), parsed.closing):
        before = len(bot.sent)
        await send_text(bot, 1, piece)  # type: ignore[arg-type]
        shown = [parse_telegram_html(text)[0] for _, text in bot.sent[before:]]
        assert all(0 < len(s.encode("utf-16-le")) // 2 <= 4096 for s in shown)
        assert "".join("".join(shown).split()) == "".join(piece.split())
