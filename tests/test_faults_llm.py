"""The LLM misbehaves in every way we know of; the user still gets real catalog wines.

Each case sends «красное сухое до 2000» through the whole bot (aiogram polling against the fake
Telegram server) to the strict fake OpenAI server, which first plays the fault and then behaves
like a good model. Whatever the path (agent, catalog prompt, offline), the cards must be real
catalog wines, red, dry and within the budget, every request the LLM received must be valid,
Telegram must have accepted every message, and the stored history must be consistent.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.delivery import send_recommendation
from core.domain import Sweetness, WineType
from core.recommendation import Recommendation
from fakes.database import history_problems
from fakes.openai_server import (
    FakeOpenAIServer,
    Step,
    call,
    drop,
    error,
    hang,
    may_call_tools,
    raw_tool_calls,
    reply,
    responder,
    stream_cut,
    tool_calls,
)
from services.agent import Final
from services.app.runtime import Runtime
from services.app.turns.turns import Turns
from tests.agent_fixtures import formatted, why_for
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, fake_llm, llm_settings
from tests.fault_helpers import (
    JSONDict,
    assert_real_cards,
    good_agent,
    good_answer,
    results_of_calls,
    shown_cards,
)
from tests.serving import free_port

QUESTION = "красное сухое до 2000"
ARGS: JSONDict = {"wine_type": "red", "sweetness": "dry", "price_max": 2000}
BUDGET = 2000
GOOD = responder(good_agent(ARGS))
SEARCH = tool_calls(call("search_wines", ARGS))


def final(make: Callable[[list[JSONDict]], Step]) -> Step:
    """A final answer computed from the wines the correct search returned in this turn."""
    return responder(lambda body: make(results_of_calls(body, "search_wines", ARGS)))


def always_tools(body: JSONDict) -> Step:
    """Calls a tool whenever one is offered; answers only when none is."""
    if may_call_tools(body):
        return tool_calls(call("search_wines", ARGS))
    return reply(good_answer(results_of_calls(body, "search_wines", ARGS)))


def huge_answer(found: list[JSONDict]) -> Step:
    intro = "Отличный выбор для вечера. " * 800  # ~21 600 characters
    picks = [(str(w["id"]), ("Плотное и сочное. " * 400) + why_for(w["id"])) for w in found[:3]]
    text = formatted(picks, intro, "До встречи! " * 200)
    assert len(text) > 20_000
    return reply(text)


def cut_at_max_tokens(found: list[JSONDict]) -> Step:
    text = good_answer(found)
    second = text.index("[WINE:", text.index("[WINE:") + 1)
    return reply(text[: second + 20], finish_reason="length")


def slow_then_cut(found: list[JSONDict]) -> Step:
    return hang(0.5, stream_cut(good_answer(found), 70))


def with_control_characters(found: list[JSONDict]) -> Step:
    """NUL and terminal escapes in the text: PostgreSQL cannot store NUL at all."""
    return reply(good_answer(found).replace("\n", "\x00\n").replace("Вот", "\x1b[31mВот\x07"))


async def plain_answer(turns: Turns, user_id: int) -> Recommendation:
    async for event in turns.stream(user_id, QUESTION):
        if isinstance(event, Final):
            return event.result
    raise AssertionError("no final event")


def call_part(call_id: str, name: str, arguments: Any) -> JSONDict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


@dataclass
class Case:
    steps: list[Step]
    path: str
    overrides: dict[str, Any] = field(default_factory=dict)
    fed_back: str | None = None  # an error text the model must have been shown
    llm_calls: int | None = None
    refused: bool = False  # the LLM address refuses connections
    # A private chat (streamed answer), or a plain request as the HTTP API's /v1/agent/ask makes
    # it (the bot streams every answer it gives), its cards then sent through the bot.
    streamed: bool = True


CASES: dict[str, Case] = {
    "timeout-then-recovered": Case([hang(5)], "agent"),
    "timeout-every-attempt": Case([hang(5), hang(5)], "offline"),
    "429-with-retry-after": Case([error(429, retry_after=0.6)], "agent"),
    "429-without-retry-after": Case([error(429), error(429)], "offline"),
    "500": Case([error(500), error(500)], "offline"),
    "502-then-recovered": Case([error(502)], "agent"),
    "503": Case([error(503), error(503)], "offline"),
    "400-invalid-request": Case(
        [error(400, "Invalid 'tools': this model does not support tools.")], "catalog_prompt"
    ),
    "401-bad-key": Case([error(401)], "offline"),
    "connection-refused": Case([], "offline", refused=True),
    "connection-dropped": Case([drop(), drop()], "offline"),
    "malformed-json-arguments": Case(
        [tool_calls(call("search_wines", '{"wine_type": "red", "price_max": '))],
        "agent",
        fed_back="not valid JSON",
    ),
    "empty-arguments": Case([tool_calls(call("search_wines", ""))], "agent"),
    "arguments-as-object": Case(
        [raw_tool_calls([call_part("obj1", "search_wines", ARGS)])], "agent", llm_calls=2
    ),
    "arguments-as-object-unstreamed": Case(
        [raw_tool_calls([call_part("obj1", "search_wines", ARGS)])],
        "agent",
        llm_calls=2,
        streamed=False,
    ),
    "unknown-tool": Case(
        [tool_calls(call("recommend_wine", ARGS))], "agent", fed_back="unknown tool"
    ),
    "invented-parameters": Case(
        [
            tool_calls(
                call("search_wines", {"colour": "red", "sugar_level": "dry", "max_rub": 2000})
            )
        ],
        "agent",
        fed_back="ignored unknown parameter 'sugar_level'",
    ),
    "duplicate-call-ids": Case(
        [
            raw_tool_calls(
                [
                    call_part("dup", "search_wines", json.dumps(ARGS)),
                    call_part("dup", "semantic_search", json.dumps({"query": "красное"})),
                ]
            )
        ],
        "agent",
    ),
    "call-without-id": Case(
        [raw_tool_calls([call_part("", "search_wines", json.dumps(ARGS))])], "agent"
    ),
    # The first search finds fitting wines: the next call is the last, without tools.
    "tools-every-turn": Case([responder(always_tools)] * 3, "agent", llm_calls=2),
    "empty-content-no-calls": Case([reply("")], "catalog_prompt"),
    "answer-without-the-format": Case(
        [SEARCH, reply("К стейку возьмите Château Pétrus 1990 — идеальное сочетание.")],
        "catalog_prompt",
    ),
    "ids-not-in-the-catalog": Case(
        [
            SEARCH,
            reply(
                formatted(
                    [
                        (str(uuid.uuid4()), "Выдуманный id."),
                        ("Château Imaginaire 1982", "Выдуманное вино."),
                    ],
                    "Вот мой выбор.",
                    "Пока!",
                )
            ),
        ],
        "catalog_prompt",
    ),
    "20000-character-answer": Case([SEARCH, final(huge_answer)], "agent"),
    "cut-at-max-tokens": Case([SEARCH, final(cut_at_max_tokens)], "agent"),
    "slow-stream-stops-mid-answer": Case([SEARCH, final(slow_then_cut)], "offline"),
    "control-characters-in-the-answer": Case([SEARCH, final(with_control_characters)], "agent"),
    "control-characters-unstreamed": Case(
        [SEARCH, final(with_control_characters)], "agent", streamed=False
    ),
    "no-choices": Case(
        [responder(lambda body: {"id": "x", "object": "chat.completion", "choices": []})],
        "catalog_prompt",
        streamed=False,
    ),
}


def answer_paths(caplog: pytest.LogCaptureFixture, user_id: int) -> list[str]:
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "sommelier.answers"]
    return [line["path"] for line in lines if line["user_id"] == user_id and "path" in line]


def request_times(server: FakeOpenAIServer, steps: list[Step]) -> tuple[list[Step], list[float]]:
    """Wrap steps so that the time each request arrived is recorded."""
    times: list[float] = []

    def timed(step: Step) -> Step:
        def respond(body: JSONDict) -> Step:
            times.append(time.monotonic())
            return step

        return responder(respond)

    return [timed(s) for s in steps], times


@pytest.mark.parametrize("kind", list(CASES))
async def test_llm_fault(seeded: Runtime, caplog: pytest.LogCaptureFixture, kind: str) -> None:
    caplog.set_level(logging.INFO, logger="sommelier.answers")
    case = CASES[kind]
    chat_id = 610_000 + list(CASES).index(kind)
    async with fake_llm() as llm:
        settings = {**llm_settings(llm), "llm_max_retries": 1, "llm_timeout_seconds": 1}
        if case.refused:
            settings["llm_base_url"] = f"http://127.0.0.1:{free_port()}/v1"
        steps, times = request_times(llm, [*case.steps, *[GOOD] * 6])
        llm.script(*steps)
        async with running_bot(seeded, **settings, **case.overrides) as h:
            await adult(h, chat_id)
            before = len(h.tg.sent(chat_id=chat_id))
            if case.streamed:
                h.tg.push_update(h.tg.message_update(chat_id, QUESTION))
                await h.idle(timeout=30)
            else:
                await send_recommendation(
                    h.bot, chat_id, await plain_answer(h.services.turns, chat_id)
                )
            sent = [
                c
                for c in h.tg.sent(chat_id=chat_id)[before:]
                if c.method in ("sendMessage", "sendPhoto")
            ]

        assert llm.errors == [], llm.errors
        assert h.tg.rejected == [], h.tg.dump_calls()
        assert answer_paths(caplog, chat_id) == [case.path]
        # Real catalog wines that fit the question, whatever the path.
        wines = assert_real_cards(await shown_cards(seeded.sessions, sent))
        assert 0 < len(wines) <= 3, [c.visible_text for c in sent]
        for wine in wines:
            assert wine.wine_type == WineType.red and wine.sweetness == Sweetness.dry, wine.name
            assert wine.price_rub <= BUDGET, wine.name
        assert await history_problems(seeded.sessions) == []

        if case.refused:
            assert llm.requests == []
        if case.llm_calls is not None:
            assert len(llm.requests) == case.llm_calls
        if case.fed_back is not None:
            fed = [
                m["content"]
                for body in llm.requests
                for m in body["messages"]
                if m["role"] == "tool"
            ]
            assert any(case.fed_back in text for text in fed), fed
        if kind == "429-with-retry-after":
            assert times[1] - times[0] >= 0.55  # the SDK waited as long as it was told
        if kind == "tools-every-turn":
            assert llm.requests[-1]["tool_choice"] == "none"  # the last call could only answer
        if kind == "20000-character-answer":
            assert all(len(c.visible_text or "") <= 4096 for c in sent)
            assert len(wines) == 3
