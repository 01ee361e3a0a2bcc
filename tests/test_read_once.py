"""A turn reads its message once (issue 41): one `Reading`, handed to every part of the turn,
and the strategies that answer it tried in order, each drafting or giving way with a reason."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from core.language.reading import read
from core.language.request import parse_query
from services.agent import StepStarted, UserContext
from services.agent._grounding import Request
from services.agent._request_state import RequestState
from services.agent._run import Run, Turn
from services.agent._strategies import Declined, Draft, Step, first_answer
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.serving import with_settings


def _count_calls(monkeypatch: pytest.MonkeyPatch, function: Callable[..., Any]) -> Counter[str]:
    """Calls of `function` by its first argument, wherever a module imported it."""
    seen: Counter[str] = Counter()

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        seen[text] += 1
        return function(text, *args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, function.__name__, None) is function:
            monkeypatch.setattr(module, function.__name__, counted)
    return seen


async def test_a_turn_reads_its_message_and_each_earlier_one_once(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = build_services(with_settings(seeded, make_settings(llm_api_key=None)))
    agent, user = services.sommelier, UserContext(4101)
    try:
        first = await agent.generate_response(user, "привет! красное сухое к стейку до 2000")
        readings = _count_calls(monkeypatch, read)
        conditions = _count_calls(monkeypatch, parse_query)
        rec = await agent.generate_response(user, "а подешевле?", first.new_messages)
    finally:
        await services.close()
    assert rec.path == "offline" and rec.wines
    # The thread's earlier message is read again (the state is rebuilt from it), once.
    assert readings == {"привет! красное сухое к стейку до 2000": 1, "а подешевле?": 1}
    # Each message's conditions are read once, inside its reading, without its greeting.
    assert conditions == {"красное сухое к стейку до 2000": 1, "а подешевле?": 1}


def test_the_reading_holds_what_every_part_of_a_turn_asks_of_the_words() -> None:
    reading = read("Привет! Посоветуйте недорогое красное из Нового Света к стейку")
    assert reading.is_request and reading.proper.startswith("Посоветуйте")
    assert reading.query.filters.wine_type == "red"
    assert reading.query.filters.food_pairing == "стейк"
    assert reading.price_band is not None and reading.price_band.value == "budget"
    assert "США" in reading.countries and reading.asks_for_wine
    question = read("что такое танины?")
    assert question.entry is not None and question.entries[0] is question.entry


class _Fixed:
    def __init__(self, outcome: Draft | Declined, needs_model: bool = False) -> None:
        self.outcome, self.needs_model, self.tried = outcome, needs_model, False

    async def attempt(self, run: Run) -> AsyncIterator[Step]:
        self.tried = True
        yield StepStarted(step=1, request_id=run.request_id, max_steps=1)
        yield self.outcome


def _run() -> Run:
    reading = read("красное сухое")
    return Run("r", 0.0, Turn(UserContext(), reading, RequestState()), Request.of(reading))


async def _drafted(strategies: list[_Fixed], run: Run) -> tuple[Draft, int]:
    events, draft = 0, None
    async for item in first_answer(strategies, run):
        if isinstance(item, Draft):
            draft = item
        else:
            events += 1
    assert draft is not None
    return draft, events


async def test_the_first_strategy_that_drafts_answers_and_the_first_reason_is_kept() -> None:
    run = _run()
    agent = _Fixed(Declined("the model quoted its instructions"), needs_model=True)
    slice_ = _Fixed(Declined("the catalog prompt produced no valid catalog wine"), True)
    offline = _Fixed(Draft("offline", "Вот что я нашел:"))
    draft, events = await _drafted([agent, slice_, offline], run)
    assert draft.path == "offline" and events == 3  # each attempt's events, in order
    assert run.fallback_reason == "the model quoted its instructions"


async def test_an_unreachable_model_skips_every_strategy_that_needs_one() -> None:
    run = _run()
    agent = _Fixed(Declined("connection refused", model_unreachable=True), needs_model=True)
    slice_ = _Fixed(Draft("catalog_prompt", "не должно быть"), needs_model=True)
    offline = _Fixed(Draft("offline", "Вот что я нашел:"))
    draft, _ = await _drafted([agent, slice_, offline], run)
    assert draft.path == "offline" and not slice_.tried
    assert run.fallback_reason == "connection refused"
