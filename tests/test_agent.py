"""SommelierService end to end: a message in, up to three real catalog wines out.

The model is the strict fake OpenAI server, reached over real HTTP; the catalog is the real
embedded database seeded from seeds/wines.json. Fake model answers are computed from what the
service actually sent (tool results, catalog lines), never from hard-coded ids.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import pytest

from core.domain import Sweetness, WineFilters, WineType
from core.recommendation import MAX_WINES, Recommendation
from fakes.openai_server import (
    FakeOpenAIServer,
    JSONDict,
    Step,
    call,
    error,
    hang,
    may_call_tools,
    raw_tool_calls,
    reply,
    responder,
    stream_cut,
    tool_calls,
)
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._catalog_slice import CATALOG_SLICE
from services.agent._compact import compact_history
from services.agent._events import Final, Observation, ToolInvoked
from services.agent._run import UserContext
from services.agent._wine_handles import handle, with_handles
from services.app.runtime import Runtime
from tests.agent_fixtures import (
    agent_settings,
    catalog_lines,
    formatted,
    ids_in,
    last_tool_payloads,
    sommelier_service,
    system_text,
    tool_messages,
    tool_payloads,
    why_for,
    wines_by_id,
    wines_in_tool_results,
)
from tests.serving import free_port

RED, WHITE, ROSE, SPARKLING = WineType.red, WineType.white, WineType.rose, WineType.sparkling
STEAK_QUERY = "красное сухое к стейку до 2000"


async def ask(
    runtime: Runtime,
    server: FakeOpenAIServer | None,
    text: str,
    history: Sequence[dict[str, Any]] = (),
    base_url: str | None = None,
    **overrides: Any,
) -> Recommendation:
    url = base_url or (server.base_url if server is not None else None)
    async with sommelier_service(runtime, agent_settings(url, **overrides)) as service:
        return await service.generate_response(UserContext(), text, history)


# ---- fake model behaviours ------------------------------------------------------------------


def answer_from_tools(choose: Callable[[list[JSONDict]], list[JSONDict]]) -> Step:
    """A model that answers with wines it picks from the latest tool results."""

    def respond(body: JSONDict) -> Step:
        wines = [w for payload in last_tool_payloads(body) for w in payload.get("wines", [])]
        return reply(formatted([(w["id"], why_for(w["id"])) for w in choose(wines)]))

    return responder(respond)


def last_three(wines: list[JSONDict]) -> list[JSONDict]:
    return wines[-3:]


def answer_from_catalog() -> Step:
    """A model on the catalog_prompt path: answers with the first lines it was shown."""

    def respond(body: JSONDict) -> Step:
        assert not may_call_tools(body)
        ids = ids_in(catalog_lines(body))
        return reply(formatted([(i, why_for(i)) for i in ids[:MAX_WINES]]))

    return responder(respond)


def always_tools(body: JSONDict) -> Step:
    """A model that calls a tool whenever it is offered one, and answers only when it is not."""
    if may_call_tools(body):
        return tool_calls(call("search_wines", {"wine_type": "white", "limit": 4}))
    wines = wines_in_tool_results(body)
    return reply(formatted([(w["id"], why_for(w["id"])) for w in wines[:MAX_WINES]]))


# ---- checks ---------------------------------------------------------------------------------


async def catalog_rows(runtime: Runtime, rec: Recommendation) -> list[Wine]:
    by_id = await wines_by_id(runtime, [w.id for w in rec.wines])
    assert len(by_id) == len(rec.wines), "every recommended wine exists in the catalog"
    return [by_id[str(w.id)] for w in rec.wines]


def assert_reasons_paired(rec: Recommendation) -> None:
    for wine in rec.wines:
        assert wine.why == why_for(str(wine.id)), f"{wine.name} got another wine's reason"


def assert_tool_results_paired(body: JSONDict) -> None:
    """One tool message per call id, directly after the assistant message that made the calls."""
    messages = body["messages"]
    for index, message in enumerate(messages):
        if message["role"] == "assistant" and message.get("tool_calls"):
            ids = [c["id"] for c in message["tool_calls"]]
            answers = messages[index + 1 : index + 1 + len(ids)]
            assert [m["role"] for m in answers] == ["tool"] * len(ids)
            assert [m["tool_call_id"] for m in answers] == ids


def steak_ok(wine: Wine) -> bool:
    return (
        wine.wine_type == RED
        and wine.sweetness == Sweetness.dry
        and wine.price_rub <= 2000
        and any("стейк" in food for food in wine.food_pairings)
    )


def sent_chars(server: FakeOpenAIServer) -> int:
    return sum(len(m.get("content") or "") for body in server.requests for m in body["messages"])


# ---- the agent path -------------------------------------------------------------------------


async def test_one_tool_iteration_recommends_catalog_wines_that_match(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    filters = {"wine_type": "red", "sweetness": "dry", "food_pairing": "стейк", "price_max": 2000}
    server.script(tool_calls(call("search_wines", filters)), answer_from_tools(last_three))

    rec = await ask(seeded, server, STEAK_QUERY)

    assert server.errors == []
    assert rec.path == "agent"
    assert rec.llm_calls == 2 and len(server.requests) == 2
    assert rec.tools_called == ["search_wines"]
    returned = wines_in_tool_results(server.requests[1])
    assert [handle(w.id) for w in rec.wines] == [w["id"] for w in returned][-3:]
    assert all(steak_ok(w) for w in await catalog_rows(seeded, rec))
    assert_reasons_paired(rec)
    assert rec.intro and rec.closing
    assert rec.prompt_chars >= sent_chars(server) > 0

    first, second = server.requests
    assert first["tools"] and first["parallel_tool_calls"] is True
    assert_tool_results_paired(second)
    assert len(tool_messages(second)) == 1


async def test_two_tool_iterations_then_an_answer_without_tools(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(call("search_wines", {"wine_type": "sparkling", "country": "Грузия"})),
        tool_calls(call("search_wines", {"wine_type": "sparkling", "limit": 5})),
        answer_from_tools(last_three),
    )

    rec = await ask(seeded, server, "грузинское игристое")

    assert server.errors == []
    assert rec.path == "agent"
    assert rec.llm_calls == 3
    assert rec.tools_called == ["search_wines", "search_wines"]
    narrow, broad = tool_payloads(server.requests[2])
    assert narrow["count"] == 0 and narrow["hint"]  # the model learned nothing matched
    assert broad["count"] == 5
    for body in server.requests:
        assert_tool_results_paired(body)
    assert len(rec.wines) == 3
    assert all(w.wine_type == SPARKLING for w in await catalog_rows(seeded, rec))
    assert_reasons_paired(rec)


async def test_parallel_calls_each_get_their_own_result(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(
            call("search_wines", {"wine_type": "red", "limit": 3}, id="reds"),
            call("search_wines", {"wine_type": "white", "limit": 3}, id="whites"),
            call("semantic_search", {"query": "игристое на праздник"}, id="ideas"),
        ),
        answer_from_tools(lambda wines: [wines[0], wines[3]]),  # one red, one white
    )

    rec = await ask(seeded, server, "красное и белое на ужин")

    assert server.errors == []
    second = server.requests[1]
    assert_tool_results_paired(second)
    by_call = {m["tool_call_id"]: m for m in tool_messages(second)}
    assert list(by_call) == ["reds", "whites", "ideas"]
    payloads = tool_payloads(second)
    reds = await wines_by_id(seeded, [w["id"] for w in payloads[0]["wines"]])
    whites = await wines_by_id(seeded, [w["id"] for w in payloads[1]["wines"]])
    assert len(reds) == 3 and {w.wine_type for w in reds.values()} == {RED}
    assert len(whites) == 3 and {w.wine_type for w in whites.values()} == {WHITE}
    assert payloads[2]["count"] > 0
    assert rec.tools_called == ["search_wines", "search_wines", "semantic_search"]
    assert rec.llm_calls == 2
    assert [w.wine_type for w in rec.wines] == [RED, WHITE]
    assert_reasons_paired(rec)


async def test_a_search_that_found_wines_is_followed_by_one_call_that_may_not_use_them(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(responder(always_tools), responder(always_tools))

    rec = await ask(seeded, server, "белое")

    assert server.errors == []
    assert len(server.requests) == 2 and rec.llm_calls == 2
    first, second = server.requests
    assert "tools" in first and "tool_choice" not in first
    # The same schemas (the prompt's prefix stays the same), but no call may be made.
    assert second["tools"] == first["tools"] and second["tool_choice"] == "none"
    assert len(tool_messages(second)) == 1
    assert rec.path == "agent" and rec.tools_called == ["search_wines"]
    assert len(rec.wines) == 3
    assert all(w.wine_type == WHITE for w in await catalog_rows(seeded, rec))


def searches_for_nothing(body: JSONDict) -> Step:
    """A model that keeps searching while tools are offered, and nothing ever matches."""
    if may_call_tools(body):
        return tool_calls(call("search_wines", {"wine_type": "white", "price_max": 1}))
    return reply("К сожалению, таких вин в магазине нет.")


async def test_a_model_that_always_wants_tools_is_stopped_after_two_iterations(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(*(responder(searches_for_nothing) for _ in range(3)))

    rec = await ask(seeded, server, "белое")

    assert server.errors == []
    assert len(server.requests) == 3 and rec.llm_calls == 3
    first, second, third = server.requests
    assert "tools" in first and "tools" in second
    assert "tool_choice" not in first and "tool_choice" not in second
    assert third["tools"] == first["tools"] and third["tool_choice"] == "none"
    assert len(tool_messages(third)) == 2  # both iterations' results reach the final call
    assert rec.tools_called == ["search_wines", "search_wines"]


async def test_max_steps_lowers_the_cap(seeded: Runtime, server: FakeOpenAIServer) -> None:
    server.script(responder(always_tools), responder(always_tools))
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        rec = await service.generate_response(UserContext(), "белое", [], max_steps=1)
    assert len(server.requests) == 2
    assert server.requests[1]["tool_choice"] == "none"
    assert rec.path == "agent" and rec.wines


async def test_events_show_each_tool_call_and_its_outcome(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(
            call("search_wines", {"wine_type": "rose"}),
            call("search_wines", {"price_max": -5}),
        ),
        answer_from_tools(last_three),
    )
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        events = [e async for e in service.stream(UserContext(), "розовое")]
    invoked = [e for e in events if isinstance(e, ToolInvoked)]
    observed = [e for e in events if isinstance(e, Observation)]
    assert [e.input for e in invoked] == [{"wine_type": "rose"}, {"price_max": -5}]
    assert [e.ok for e in observed] == [True, False]
    assert "price_max" in observed[1].summary
    final = events[-1]
    assert isinstance(final, Final) and final.path == "agent"
    assert final.recommendation["wines"] and final.result.wines


# ---- bad tool calls are explained to the model -----------------------------------------------

BAD_CALLS = [
    pytest.param(
        call("search_wines", {"price_max": -5}),
        ["price_max", "greater than or equal to 0"],
        id="negative-price",
    ),
    pytest.param(
        call("search_wines", '{"wine_type": "red", "price_max": '), ["not valid JSON"], id="broken"
    ),
    pytest.param(call("semantic_search", ""), ["query", "Field required"], id="empty-arguments"),
    pytest.param(
        call("recommend_wine", {"wine_type": "red"}),
        ["unknown tool 'recommend_wine'", "search_wines", "semantic_search"],
        id="unknown-tool",
    ),
]


@pytest.mark.parametrize(("bad", "explained"), BAD_CALLS)
async def test_a_bad_tool_call_is_fed_back_and_the_model_recovers(
    seeded: Runtime, server: FakeOpenAIServer, bad: Any, explained: list[str]
) -> None:
    server.script(
        tool_calls(bad),
        tool_calls(call("search_wines", {"wine_type": "red"})),
        answer_from_tools(last_three),
    )

    rec = await ask(seeded, server, "красное")

    assert server.errors == []
    feedback = tool_payloads(server.requests[1])
    assert len(feedback) == 1
    for fragment in explained:
        assert fragment in feedback[0]["error"]
    assert rec.path == "agent" and rec.llm_calls == 3
    assert len(rec.wines) == 3
    assert all(w.wine_type == RED for w in await catalog_rows(seeded, rec))


async def test_arguments_sent_as_an_object_are_used_and_echoed_as_text(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        raw_tool_calls(
            [
                {
                    "id": "obj",
                    "type": "function",
                    "function": {"name": "search_wines", "arguments": {"wine_type": "белое"}},
                }
            ]
        ),
        answer_from_tools(last_three),
    )

    rec = await ask(seeded, server, "белое")

    assert server.errors == []  # the strict server accepted the echoed assistant message
    echoed = next(m for m in server.requests[1]["messages"] if m.get("tool_calls"))
    echoed = echoed["tool_calls"][0]["function"]["arguments"]
    assert isinstance(echoed, str)
    assert rec.path == "agent" and len(rec.wines) == 3
    assert all(w.wine_type == WHITE for w in await catalog_rows(seeded, rec))


# ---- only real catalog wines ------------------------------------------------------------------


async def _some_wine(runtime: Runtime, **filters: Any) -> Wine:
    async with runtime.sessions() as session:
        return (await WineRepository(session).search(filters, limit=1))[0]


async def test_made_up_or_untrusted_wines_are_dropped(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    outsider = await _some_wine(seeded, wine_type="red")  # real, but not in this turn's results

    def respond(body: JSONDict) -> Step:
        real = wines_in_tool_results(body)[0]["id"]
        return reply(
            formatted(
                [
                    (str(uuid.uuid4()), "Выдуманный id."),
                    ("Château Imaginaire Merlot Grand Cru 1982", "Выдуманное вино."),
                    (str(outsider.id), "Вино, которого инструмент не возвращал."),
                    (real, why_for(real)),
                ]
            )
        )

    server.script(
        tool_calls(call("search_wines", {"wine_type": "white", "limit": 3})), responder(respond)
    )

    rec = await ask(seeded, server, "белое")

    assert server.errors == []
    assert rec.path == "agent"
    assert [handle(w.id) for w in rec.wines] == [wines_in_tool_results(server.requests[1])[0]["id"]]
    assert_reasons_paired(rec)
    assert "Château Imaginaire" not in rec.new_messages[-1]["content"]


async def test_a_catalog_name_in_place_of_an_id_is_matched(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    def respond(body: JSONDict) -> Step:
        first, second = wines_in_tool_results(body)[:2]
        return reply(
            formatted(
                [
                    (first["name"], why_for(first["id"])),
                    (second["name"].upper() + " 2021", why_for(second["id"])),
                ]
            )
        )

    server.script(
        tool_calls(call("search_wines", {"wine_type": "red", "limit": 3})), responder(respond)
    )

    rec = await ask(seeded, server, "красное")

    returned = wines_in_tool_results(server.requests[1])
    assert [handle(w.id) for w in rec.wines] == [returned[0]["id"], returned[1]["id"]]
    assert_reasons_paired(rec)
    # What is stored for the next turn carries the verified ids, not the names.
    stored = rec.new_messages[-1]["content"]
    assert f"[WINE:{rec.wines[0].id}]" in stored and returned[0]["name"] not in stored


async def test_at_most_three_distinct_wines(seeded: Runtime, server: FakeOpenAIServer) -> None:
    def respond(body: JSONDict) -> Step:
        ids = [w["id"] for w in wines_in_tool_results(body)]
        picks = [ids[0], ids[0], ids[1], ids[2], ids[3], ids[4]]
        return reply(formatted([(i, why_for(i)) for i in picks]))

    server.script(
        tool_calls(call("search_wines", {"wine_type": "red", "limit": 5})), responder(respond)
    )

    rec = await ask(seeded, server, "красное")

    returned = [w["id"] for w in wines_in_tool_results(server.requests[1])]
    assert [handle(w.id) for w in rec.wines] == returned[:3]


async def test_no_valid_wine_left_falls_back_to_the_catalog_prompt(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(call("search_wines", {"wine_type": "red"})),
        reply(formatted([(str(uuid.uuid4()), "Выдумка."), ("Domaine Fantôme", "Тоже.")])),
        answer_from_catalog(),
    )

    rec = await ask(seeded, server, "красное вино")

    assert server.errors == []
    assert rec.path == "catalog_prompt"
    assert rec.llm_calls == 3
    shown = ids_in(catalog_lines(server.requests[2]))
    assert [handle(w.id) for w in rec.wines] == shown[:3]
    assert all(w.wine_type == RED for w in await catalog_rows(seeded, rec))
    assert_reasons_paired(rec)


async def test_ids_from_earlier_turns_stay_usable(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(call("search_wines", {"wine_type": "rose", "limit": 3})),
        answer_from_tools(last_three),
    )
    first = await ask(seeded, server, "розовое")
    earlier = str(first.wines[0].id)

    # "Tell me more about the first one": the model answers from the stored tool results.
    # The model read the wine's handle in the past answer, and writes it.
    said = handle(earlier)
    server.script(reply(formatted([(said, why_for(said)), (str(uuid.uuid4()), "Выдумка.")])))
    second = await ask(seeded, server, "расскажи подробнее про первое", first.new_messages)

    assert server.errors == []
    assert second.path == "agent"
    assert [handle(w.id) for w in second.wines] == [handle(earlier)]
    # Past turns reach the model compact (issue 19): the question and the answer with its
    # wines' handles, not the raw tool payloads; the handles stay usable because the stored
    # turn keeps the whole ids.
    past = compact_history(first.new_messages)
    assert server.requests[-1]["messages"][1 : 1 + len(past)] == with_handles(past)
    assert earlier in past[-1]["content"]
    assert f"[WINE:{said}]" in server.requests[-1]["messages"][len(past)]["content"]


# ---- fallbacks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("белое до 1500", WineFilters(wine_type=WHITE, price_max=Decimal(1500))),
        ("красное", WineFilters(wine_type=RED)),
    ],
)
async def test_a_rejected_tools_request_falls_back_to_a_catalog_slice(
    seeded: Runtime, server: FakeOpenAIServer, text: str, filters: WineFilters
) -> None:
    server.script(error(400, "This model does not support tools."), answer_from_catalog())

    rec = await ask(seeded, server, text)

    assert server.errors == []
    assert rec.path == "catalog_prompt" and rec.llm_calls == 2
    prompt = server.requests[1]
    assert "tools" not in prompt and "parallel_tool_calls" not in prompt
    shown = ids_in(catalog_lines(prompt))
    async with seeded.sessions() as session:
        available = await WineRepository(session).count_matching(filters)
    assert len(shown) == len(set(shown)) == min(CATALOG_SLICE, available)
    rows = await wines_by_id(seeded, shown)
    for wine in rows.values():
        assert wine.wine_type == filters.wine_type
        assert filters.price_max is None or wine.price_rub <= filters.price_max
    assert [handle(w.id) for w in rec.wines] == shown[:3]
    assert_reasons_paired(rec)


async def test_a_plain_text_answer_to_a_wine_request_is_not_trusted(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        reply("Возьмите Château Pétrus 1990, оно идеально к стейку."), answer_from_catalog()
    )

    rec = await ask(seeded, server, "посоветуй красное к стейку")

    assert rec.path == "catalog_prompt"
    assert "Pétrus" not in rec.intro
    assert rec.wines and all(w.wine_type == RED for w in await catalog_rows(seeded, rec))


@pytest.mark.parametrize("failure", ["refused", "500", "429", "timeout"])
async def test_an_unreachable_llm_gives_offline_picks(
    seeded: Runtime, server: FakeOpenAIServer, failure: str
) -> None:
    overrides: dict[str, Any] = {}
    base_url = None
    if failure == "refused":
        base_url = f"http://127.0.0.1:{free_port()}/v1"
    elif failure == "timeout":
        server.script(hang(5))
        overrides["llm_timeout_seconds"] = 0.5
    else:
        server.script(error(int(failure)))

    rec = await ask(seeded, server, STEAK_QUERY, base_url=base_url, **overrides)

    assert rec.path == "offline"
    assert len(rec.wines) == 3
    assert all(steak_ok(w) for w in await catalog_rows(seeded, rec))
    assert rec.fallback_reason
    # A dead or overloaded LLM is not asked again for the catalog prompt.
    assert len(server.requests) == (0 if failure == "refused" else 1)
    assert server.errors == []


async def test_a_stream_cut_mid_answer_gives_offline_picks(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(stream_cut("[INTRO]\nК стейку я бы взял вот что: плотное красное", 25))
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        events = [e async for e in service.stream(UserContext(), STEAK_QUERY, stream_answer=True)]
    final = events[-1]
    assert isinstance(final, Final) and final.path == "offline"
    rec: Recommendation = final.result
    assert len(rec.wines) == 3
    assert all(steak_ok(w) for w in await catalog_rows(seeded, rec))
    assert len(server.requests) == 1 and server.errors == []


async def test_without_a_key_nothing_is_sent(seeded: Runtime, server: FakeOpenAIServer) -> None:
    rec = await ask(seeded, server, STEAK_QUERY, llm_api_key=None)

    assert server.requests == [] and server.embedding_requests == []
    assert rec.path == "offline" and rec.llm_calls == 0 and rec.prompt_chars == 0
    assert len(rec.wines) == 3
    assert all(steak_ok(w) for w in await catalog_rows(seeded, rec))
    assert "ослабил" not in rec.intro


async def test_offline_relaxes_a_condition_nothing_matches_and_says_so(seeded: Runtime) -> None:
    text = "розовое из Чили"
    async with seeded.sessions() as session:
        exact = WineFilters(wine_type=ROSE, country="Чили")
        assert await WineRepository(session).count_matching(exact) == 0

    rec = await ask(seeded, None, text, llm_api_key=None)

    assert rec.path == "offline"
    assert rec.wines and all(w.wine_type == ROSE for w in await catalog_rows(seeded, rec))
    assert "ослабил" in rec.intro and "страна" in rec.intro


async def test_smalltalk_is_answered_as_plain_text(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    greeting = "Привет! Все отлично, спасибо. Подобрать вино к ужину?"
    server.script(reply(greeting))

    rec = await ask(seeded, server, "привет, как дела?")

    assert server.errors == []
    assert rec.path == "agent"
    assert rec.intro == greeting and rec.wines == [] and rec.closing == ""
    assert rec.tools_called == [] and rec.llm_calls == 1
    assert rec.new_messages == [
        {"role": "user", "content": "привет, как дела?"},
        {"role": "assistant", "content": greeting},
    ]


# ---- the contract the model sees ------------------------------------------------------------


async def test_the_model_sees_the_registry_contract_in_the_schemas_alone(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(reply("Здравствуйте!"))
    async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
        await service.generate_response(UserContext(), "привет", [])
        specs = service.registry.openai_specs()

    body = server.requests[0]
    assert body["tools"] == specs
    for spec in specs:
        function = spec["function"]
        assert function["description"]
        for name, parameter in function["parameters"]["properties"].items():
            assert parameter.get("description"), f"{function['name']}.{name} is not described"
    # The prose names no tool and no parameter, so it cannot drift from the schemas.
    system = system_text(body)
    parameters = {name for spec in specs for name in spec["function"]["parameters"]["properties"]}
    names = {spec["function"]["name"] for spec in specs}
    assert not re.findall(r"`([a-z][a-z0-9_]*)`", system)
    assert not [name for name in names if name in system]
    assert not [p for p in parameters if f"`{p}`" in system or f"{p}=" in system]


async def _first_request_with_only(
    runtime: Runtime, server: FakeOpenAIServer, allowed: list[str]
) -> JSONDict:
    server.script(reply("Здравствуйте!"))
    async with sommelier_service(runtime, agent_settings(server.base_url)) as service:
        await service.generate_response(UserContext(), "привет", [], tools_allowlist=allowed)
    return server.requests[0]


async def test_an_allowlist_limits_the_tools_and_keeps_the_prompt_prefix(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    body = await _first_request_with_only(seeded, server, ["search_wines"])
    assert [t["function"]["name"] for t in body["tools"]] == ["search_wines"]
    server.reset()
    full = await _first_request_with_only(seeded, server, ["search_wines", "semantic_search"])
    # The same instructions with any set of tools: the cached prompt prefix stays valid.
    assert system_text(body) == system_text(full)


async def test_an_allowlist_leaves_no_mention_of_a_withheld_tool(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    body = await _first_request_with_only(seeded, server, ["search_wines"])
    assert "semantic_search" not in system_text(body)


async def test_no_card_contradicts_the_colour_sweetness_or_budget_asked_for(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    """The model searches whites and reds and offers a mix; only the wines that keep to
    «красное сухое … до 2000» become cards (the others would contradict the request)."""

    def mixed(wines: list[JSONDict]) -> list[JSONDict]:
        wrong = [w for w in wines if w["type"] != "red"][:2]
        right = [w for w in wines if w["type"] == "red" and w["sweetness"] == "dry"]
        return wrong + [w for w in right if w["price"] <= 2000][:1]

    server.script(
        tool_calls(
            call("search_wines", {"wine_type": "white", "limit": 3}),
            call("search_wines", {"wine_type": "red", "price_max": 2000, "limit": 3}),
        ),
        answer_from_tools(mixed),
    )
    rec = await ask(seeded, server, STEAK_QUERY)
    assert rec.path == "agent"
    assert len(rec.wines) == 1
    wine = rec.wines[0]
    assert (wine.wine_type, wine.sweetness) == (RED, Sweetness.dry)
    assert wine.price_rub <= 2000


async def test_nothing_cheaper_is_an_answer_with_the_nearest_real_alternatives(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    """The searches find no red under 500 ₽ and the model says so: the person gets that
    sentence, what was searched, and the reds closest in price — never random wines."""
    server.script(
        tool_calls(call("search_wines", {"wine_type": "red", "price_max": 500})),
        reply("К сожалению, красного дешевле 500 ₽ в каталоге нет."),
    )
    rec = await ask(seeded, server, "а есть красное подешевле, до 500?")

    assert rec.path == "agent" and rec.llm_calls == 2
    assert rec.intro.startswith("К сожалению, красного дешевле 500 ₽ в каталоге нет.")
    assert "Искал: красное" in rec.intro
    assert len(rec.wines) == 3
    assert all(w.wine_type == RED and w.price_rub > 500 for w in rec.wines)
    prices = [w.price_rub for w in rec.wines]
    assert prices == sorted(prices)
    async with seeded.sessions() as session:
        reds = await WineRepository(session).search(WineFilters(wine_type=RED), 100)
    assert prices[0] == min(w.price_rub for w in reds)  # the closest price there is
    assert all("ближайшая цена" in w.why for w in rec.wines)
