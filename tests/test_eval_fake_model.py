"""The eval's fake model reads what a real model reads: the conversation and the tool schemas,
never the product's summaries in the system prompt (the agent-path score is not circular)."""

from __future__ import annotations

import json
from typing import Any

from bench.eval.fake_model import respond
from fakes.openai_server import ReplyStep, ToolCallsStep
from services.agent._catalog_tools import build_catalog_tools

TOOLS = build_catalog_tools(None, None).openai_specs()  # type: ignore[arg-type]
MISLEADING = (
    "Ты — Сомелье.\n\nСостояние беседы (запрос с учетом уточнений):\n"
    "- ищем: красное, до 900 ₽\n"
    '- фильтры поиска: {"wine_type": "red", "price_max": 900.0, "country": "Чили"}\n'
    "- настроение или описание (для semantic_search): «на праздник»\n"
)


def body(*messages: dict[str, Any], system: str = MISLEADING, tools: Any = TOOLS) -> Any:
    return {
        "model": "gpt-4o-mini",
        "messages": [{"role": "system", "content": system}, *messages],
        "tools": tools,
    }


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def only_call(step: Any) -> tuple[str, dict[str, Any]]:
    assert isinstance(step, ToolCallsStep), step
    assert len(step.calls) == 1
    arguments = step.calls[0].arguments
    assert isinstance(arguments, dict)
    return step.calls[0].name, arguments


def searched(
    text: str, arguments: dict[str, Any], answer: str, call_id: str = "c1"
) -> list[dict[str, Any]]:
    """One earlier turn as the history may hold it: the words, this model's call, its answer."""
    return [*called(text, arguments, call_id), {"role": "assistant", "content": answer}]


def called(text: str, arguments: dict[str, Any], call_id: str = "c1") -> list[dict[str, Any]]:
    """The words, this model's search_wines call, and a tool result that found nothing."""
    function = {"name": "search_wines", "arguments": json.dumps(arguments, ensure_ascii=False)}
    return [
        user(text),
        {"role": "assistant", "tool_calls": [{"id": call_id, "function": function}]},
        {"role": "tool", "tool_call_id": call_id, "content": '{"count": 0, "wines": []}'},
    ]


def test_the_user_asks_for_white_while_the_system_prompt_says_red() -> None:
    name, args = only_call(respond(body(user("посоветуй белое сухое к рыбе"))))
    assert name == "search_wines"
    assert args["wine_type"] == "white" and args["sweetness"] == "dry"
    assert args["food_pairing"] == "рыба"
    assert "price_max" not in args and "country" not in args  # nothing from the filters line


def test_a_mood_is_searched_with_the_users_words_not_the_prompts() -> None:
    name, args = only_call(respond(body(user("что-то освежающее на лето"))))
    assert name == "semantic_search"
    assert args["query"] == "что-то освежающее на лето"
    assert "wine_type" not in args and "price_max" not in args


def test_a_follow_up_starts_from_its_own_previous_call_in_the_history() -> None:
    earlier = searched(
        "красное к стейку",
        {"wine_type": "red", "food_pairing": "стейк", "price_max": 3000, "limit": 5},
        "[INTRO]\nВот.\n[CLOSING]\nВсё.",
    )
    _, args = only_call(respond(body(*earlier, user("а белое?"))))
    assert args["wine_type"] == "white"
    assert args["price_max"] == 3000 and args["food_pairing"] == "стейк"


def test_without_tool_calls_in_the_history_it_rereads_the_conversation() -> None:
    answer = (
        "[INTRO]\nВот что я нашел:\n[WINE:5b0e2f5e-0000-4000-8000-000000000001]\n"
        "Сухое красное (Италия), 1 450 ₽. Кьянти.\n"
        "[WINE:5b0e2f5e-0000-4000-8000-000000000002]\nСухое красное (Испания), 1900 ₽. Риоха.\n"
        "[CLOSING]\nХорошего вечера!"
    )
    history = [
        user("красное сухое к стейку до 2000"),
        {"role": "assistant", "content": answer},
    ]
    _, args = only_call(respond(body(*history, user("а подешевле?"))))
    assert args["wine_type"] == "red" and args["sweetness"] == "dry"
    assert args["food_pairing"] == "стейк"
    assert args["price_max"] == 1449  # below the cheapest wine of its own answer
    _, args = only_call(respond(body(*history, user("только не шардоне"))))
    assert args["exclude_grapes"] == ["шардоне"] and args["price_max"] == 2000
    _, args = only_call(respond(body(*history, user("посоветуй розовое к рыбе"))))
    assert args == {"wine_type": "rose", "food_pairing": "рыба", "limit": 5}  # a new request


def test_it_uses_only_what_the_tool_schemas_offer() -> None:
    search_only = [t for t in TOOLS if t["function"]["name"] == "search_wines"]
    name, args = only_call(respond(body(user("розовое с ягодными нотами"), tools=search_only)))
    assert name == "search_wines" and args["wine_type"] == "rose" and "query" not in args
    no_enum = json.loads(json.dumps(search_only))
    no_enum[0]["function"]["parameters"]["properties"]["wine_type"]["enum"].remove("rose")
    _, args = only_call(respond(body(user("розовое к рыбе"), tools=no_enum)))
    assert "wine_type" not in args


def test_it_answers_from_the_tool_results_and_broadens_an_empty_search() -> None:
    turn = called("белое к стейку", {"wine_type": "white", "food_pairing": "стейк"})
    _, args = only_call(respond(body(*turn)))
    assert args == {"wine_type": "white", "limit": 5}
    wine = {
        "id": "5b0e2f5e-0000-4000-8000-000000000003",
        "name": "Шабли",
        "type": "white",
        "sweetness": "dry",
        "country": "Франция",
        "price": 2900,
        "description": "Минеральное шардоне из Бургундии.",
    }
    found = {"role": "tool", "tool_call_id": "c1", "content": json.dumps({"wines": [wine]})}
    step = respond(body(*turn[:2], found))
    assert isinstance(step, ReplyStep)
    assert f"[WINE:{wine['id']}]" in step.content and "2900 ₽" in step.content
    assert step.content.startswith("[INTRO]") and "[CLOSING]" in step.content


def test_under_tool_choice_none_it_answers_in_text_as_the_real_api_does() -> None:
    """The schemas are sent (the prompt's prefix stays the same) but no call may be made: a
    search that found nothing is not searched again, the honest answer comes instead."""
    request = body(*called("белое к рыбе", {"wine_type": "white", "food_pairing": "рыба"}))
    assert isinstance(respond(request), ToolCallsStep)  # tools allowed: it broadens the search
    step = respond({**request, "tool_choice": "none"})
    assert isinstance(step, ReplyStep) and "ничего не нашлось" in step.content
