"""Conversation history under a token budget: cuts keep tool calls with their results.

A strict API (and the fake server) rejects a request in which an assistant `tool_calls`
message is not followed by one tool message per call id, or a tool message answers nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.recommendation import Recommendation
from fakes.openai_server import FakeOpenAIServer, JSONDict, call, reply, responder, tool_calls
from services.agent._compact import compact_history
from services.agent._history import estimate_tokens, repair_pairing, trim_to_budget
from services.agent._run import UserContext
from services.agent._wine_handles import with_handles
from services.app.runtime import Runtime
from tests.agent_fixtures import (
    agent_settings,
    formatted,
    last_tool_payloads,
    sommelier_service,
    why_for,
)

Message = dict[str, Any]


def user(text: str) -> Message:
    return {"role": "user", "content": text}


def answer(text: str) -> Message:
    return {"role": "assistant", "content": text}


def calls(*ids: str, content: str | None = None) -> Message:
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [
            {
                "id": i,
                "type": "function",
                "function": {"name": "search_wines", "arguments": '{"wine_type":"red"}'},
            }
            for i in ids
        ],
    }


def result(call_id: str, content: str = '{"count":0,"wines":[]}') -> Message:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def pairing_problems(messages: Sequence[Message]) -> list[str]:
    """What a strict chat API would reject about tool-call pairing (empty when acceptable)."""
    problems: list[str] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        if message["role"] == "tool":
            problems.append(f"#{i}: tool message answers nothing")
            i += 1
            continue
        if message["role"] == "assistant" and "tool_calls" in message:
            ids = [c["id"] for c in message["tool_calls"]]
            if not ids:
                problems.append(f"#{i}: empty tool_calls")
            answered: list[str] = []
            j = i + 1
            while j < len(messages) and messages[j]["role"] == "tool":
                answered.append(messages[j]["tool_call_id"])
                j += 1
            if sorted(answered) != sorted(ids):
                problems.append(f"#{i}: calls {ids} answered by {answered}")
            i = j
            continue
        if message["role"] == "assistant" and message.get("content") is None:
            problems.append(f"#{i}: assistant message without content")
        i += 1
    return problems


def tokens(messages: Sequence[Message]) -> int:
    return sum(estimate_tokens(m) for m in messages)


# ---- repair_pairing -------------------------------------------------------------------------


def test_orphan_tool_messages_are_dropped() -> None:
    history = [result("lost"), user("привет"), answer("Здравствуйте!"), result("stray")]
    assert repair_pairing(history) == [user("привет"), answer("Здравствуйте!")]


def test_unanswered_calls_are_removed_and_the_rest_kept() -> None:
    history = [user("красное"), calls("a", "b"), result("a"), answer("Вот вино.")]
    repaired = repair_pairing(history)
    assert repaired == [user("красное"), calls("a"), result("a"), answer("Вот вино.")]
    assert pairing_problems(repaired) == []


def test_a_call_message_with_no_answers_keeps_only_its_text() -> None:
    history = [user("x"), calls("a", content="Сейчас поищу."), user("y"), calls("b"), user("z")]
    assert repair_pairing(history) == [
        user("x"),
        answer("Сейчас поищу."),
        user("y"),
        user("z"),
    ]


def test_answers_to_unknown_or_repeated_ids_are_dropped() -> None:
    first = result("a", '{"first":true}')
    history = [user("x"), calls("a"), first, result("a", '{"again":true}'), result("zzz")]
    assert repair_pairing(history) == [user("x"), calls("a"), first]


def test_answers_in_another_order_are_put_in_call_order() -> None:
    history = [user("x"), calls("a", "b"), result("b"), result("a")]
    assert repair_pairing(history) == [user("x"), calls("a", "b"), result("a"), result("b")]


def test_an_assistant_message_without_content_is_made_acceptable() -> None:
    history = [
        user("x"),
        {"role": "assistant", "content": None},
        user("y"),
        {"role": "assistant", "content": None, "tool_calls": []},
        user("z"),
        {"role": "assistant", "content": "Вот.", "tool_calls": []},
    ]
    repaired = repair_pairing(history)
    assert repaired == [user("x"), user("y"), user("z"), answer("Вот.")]
    assert pairing_problems(repaired) == []


# ---- trim_to_budget -------------------------------------------------------------------------


def turn(n: int, words: int = 20) -> list[Message]:
    """One stored turn: a question, a tool call with its result and the answer."""
    return [
        user(f"вопрос {n}"),
        calls(f"call-{n}-a", f"call-{n}-b"),
        result(f"call-{n}-a", json.dumps({"wines": ["вино"] * words}, ensure_ascii=False)),
        result(f"call-{n}-b", json.dumps({"wines": ["вино"] * words}, ensure_ascii=False)),
        answer(f"ответ {n} " + "слово " * words),
    ]


def test_history_within_the_budget_is_kept_whole() -> None:
    history = turn(1) + turn(2)
    assert trim_to_budget(history, tokens(history)) == history


def test_the_oldest_turns_go_first_and_a_turn_is_never_split() -> None:
    history = turn(1) + turn(2) + turn(3)
    last_two = turn(2) + turn(3)
    # Enough for the last two turns and most (but not all) of the first one.
    trimmed = trim_to_budget(history, tokens(last_two) + tokens(turn(1)) - 5)
    assert trimmed == last_two

    # Too little for turn 2 whole: it is dropped whole, its tool results with it.
    trimmed = trim_to_budget(history, tokens(turn(3)) + 10)
    assert trimmed == turn(3)


def test_a_cut_inside_a_tool_block_drops_the_whole_block() -> None:
    # A budget that would end a message-wise cut between the two tool results of turn 2.
    history = turn(1) + turn(2, words=200)
    tail_from_second_result = history[-2:]
    trimmed = trim_to_budget(history, tokens(tail_from_second_result) + 1)
    assert trimmed == []
    assert pairing_problems(trim_to_budget(history, tokens(turn(2, words=200)))) == []


def test_the_history_never_starts_with_an_answer() -> None:
    history = [answer("Добро пожаловать!"), *turn(1)]
    assert trim_to_budget(history, 10_000) == turn(1)


def test_a_broken_history_is_repaired_before_it_is_measured() -> None:
    history = [result("orphan"), *turn(1), calls("never-answered"), *turn(2)]
    trimmed = trim_to_budget(history, 10_000)
    assert trimmed == turn(1) + turn(2)


# Random histories: any mix of messages, pairings right or wrong.
_ids = st.sampled_from(["a", "b", "c", "d"])
_message = st.one_of(
    st.builds(user, st.text(min_size=0, max_size=40)),
    st.builds(answer, st.text(min_size=1, max_size=40)),
    st.lists(_ids, min_size=1, max_size=3, unique=True).map(lambda ids: calls(*ids)),
    st.builds(result, _ids, st.text(max_size=60)),
    st.sampled_from(
        [
            {"role": "assistant", "content": None},
            {"role": "assistant", "content": "", "tool_calls": []},
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(history=st.lists(_message, max_size=25), budget=st.integers(min_value=0, max_value=400))
def test_trimming_is_the_longest_acceptable_tail_that_fits(
    history: list[Message], budget: int
) -> None:
    repaired = repair_pairing(history)
    assert pairing_problems(repaired) == []
    assert repair_pairing(repaired) == repaired

    trimmed = trim_to_budget(history, budget)
    assert pairing_problems(trimmed) == []
    assert trimmed == repaired[len(repaired) - len(trimmed) :]  # a tail of the conversation
    assert tokens(trimmed) <= budget
    assert not trimmed or trimmed[0]["role"] == "user"
    # Maximal: every longer tail that starts at a question is over the budget.
    start = len(repaired) - len(trimmed)
    for i in range(start):
        if repaired[i]["role"] == "user":
            assert tokens(repaired[i:]) > budget


# ---- the agent sends a trimmed, well-paired history ----------------------------------------


def _answer_from_tools(body: JSONDict) -> Any:
    wines = [w for payload in last_tool_payloads(body) for w in payload.get("wines", [])]
    # Reasons as long as a past answer keeps them, so that a turn weighs what a real one does.
    more = " Плотное и бархатное, с нотами вишни, табака и специй, и долгое послевкусие."
    return reply(formatted([(w["id"], why_for(w["id"]) + more) for w in wines[:3]]))


async def _turn(
    runtime: Runtime,
    server: FakeOpenAIServer,
    text: str,
    history: list[Message],
    budget: int = 3000,
) -> Recommendation:
    server.script(
        tool_calls(call("search_wines", {"wine_type": "red", "limit": 3})),
        responder(_answer_from_tools),
    )
    settings_ = agent_settings(server.base_url, history_token_budget=budget)
    async with sommelier_service(runtime, settings_) as service:
        return await service.generate_response(UserContext(), text, history)


async def test_a_long_history_is_trimmed_and_accepted_by_a_strict_api(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    history: list[Message] = []
    turns: list[list[Message]] = []
    for n in range(3):
        rec = await _turn(seeded, server, f"красное вино, вариант {n}", history)
        assert rec.path == "agent"
        turns.append(rec.new_messages)
        history.extend(rec.new_messages)
    # What a store can hand back after a crash or a cut: an orphan result, a lost answer.
    stored = [result("orphan"), *turns[0], calls("lost"), *turns[1], *turns[2]]
    # Past turns reach the model compact (question and answer, no tool payloads).
    last_turn = compact_history(turns[-1])
    budget = max(200, tokens(last_turn) + 10)
    assert tokens(compact_history(stored)) > budget

    server.requests.clear()
    rec = await _turn(seeded, server, "а что-нибудь подешевле?", stored, budget)

    assert server.errors == []
    assert rec.path == "agent" and rec.wines
    for body in server.requests:
        messages = body["messages"]
        assert messages[0]["role"] == "system"
        # only the newest past turn fits (its wines as the model reads them: by their handles)
        assert messages[1 : 1 + len(last_turn)] == with_handles(last_turn)
        assert messages[1 + len(last_turn)] == user("а что-нибудь подешевле?")
    assert len(server.requests) == 2
