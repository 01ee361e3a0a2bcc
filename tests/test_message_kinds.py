"""Not every message is a request: the message-kind set on the offline path (≥ 95 % right, in
each class too; no cards for off-topic or pure knowledge questions, the facts in knowledge
answers)."""

from __future__ import annotations

from collections import Counter

from bench.eval.kind_set import format_kinds, load_kinds, run_kinds
from core.language.knowledge import knowledge_base
from services.app.runtime import Runtime


def test_the_kind_set_is_large_and_covers_every_class() -> None:
    for part in ("dev", "test"):
        messages = load_kinds(part)
        assert len(messages) >= 150
        per_kind = Counter(m["kind"] for m in messages)
        kinds = {"request", "wine_question", "smalltalk", "offtopic", "manipulation"}
        assert set(per_kind) == kinds and min(per_kind.values()) >= 10, (part, per_kind)


def test_the_knowledge_base_is_reviewed_data() -> None:
    entries = knowledge_base()
    assert len(entries) >= 150
    assert len({e.id for e in entries}) == len(entries)
    for entry in entries:
        assert len(entry.questions) >= 4 and 80 <= len(entry.answer) <= 900, entry.id
        assert entry.source, entry.id  # checked against something named
        for fact in entry.facts:  # what the entry claims to say, it says
            assert fact.lower() in entry.answer.lower(), (entry.id, fact)
    health = [e for e in entries if e.health]
    assert len(health) >= 8 and all(e.cards is None for e in health)


async def test_the_kind_set_passes_on_the_offline_path(seeded: Runtime) -> None:
    report = await run_kinds(seeded, "dev")
    table = format_kinds(report)
    right, total = report.classified()
    assert right / total >= 0.95, table
    passed, _ = report.rate()
    assert passed / total >= 0.95, table
    # Each class on its own too: a small class read badly hides in the overall rate.
    assert report.short_classes(95.0) == [], table
    for result in report.results:
        if result.expected in ("offtopic", "manipulation", "smalltalk"):
            assert result.cards == 0, (result.text, table)


async def test_with_a_model_the_reading_still_holds(seeded: Runtime) -> None:
    """Off-topic is declined without a model call; a wine question reaches the model with the
    knowledge entry as context, and cards it adds to a pure knowledge question are dropped."""
    from fakes.openai_server import call, reply, responder, tool_calls
    from services.agent._run import UserContext
    from tests.agent_fixtures import (
        agent_settings,
        fake_openai,
        formatted,
        sommelier_service,
        system_text,
    )

    async with fake_openai() as server:
        settings = agent_settings(server.base_url)
        async with sommelier_service(seeded, settings) as service:
            declined = await service.generate_response(UserContext(), "кто победит на выборах?")
            assert server.requests == []
            assert declined.kind == "offtopic" and declined.wines == []
            assert "сомелье" in declined.intro

            server.script(
                tool_calls(call("search_wines", {"wine_type": "red", "limit": 3})),
                responder(
                    lambda body: reply(
                        formatted(
                            [(w["id"], "Танинное.") for w in _tool_wines(body)],
                            "Танины дают терпкость; они из кожицы и косточек.",
                            "",
                        )
                    )
                ),
            )
            answer = await service.generate_response(UserContext(), "Что такое танины?")
    system = system_text(server.requests[0])
    assert "Проверенная справка" in system and "кожицы, косточек" in system
    assert answer.path == "agent" and answer.kind == "wine_question"
    assert answer.wines == [] and "терпкость" in answer.intro


def _tool_wines(body: dict) -> list[dict]:  # type: ignore[type-arg]
    import json

    tool = [m for m in body["messages"] if m["role"] == "tool"][-1]
    return list(json.loads(tool["content"])["wines"])[:3]
