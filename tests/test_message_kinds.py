"""Not every message is a request: the message-kind set on the offline path (≥ 95 % right, no
cards for off-topic or pure knowledge questions, the facts in knowledge answers)."""

from __future__ import annotations

from collections import Counter

from bench.eval.kinds import format_kinds, load_kinds, run_kinds
from core.language.knowledge import knowledge_base
from services.app.runtime import Runtime


def test_the_kind_set_is_large_and_covers_every_class() -> None:
    messages = load_kinds()["messages"]
    assert len(messages) >= 80
    per_kind = Counter(m["kind"] for m in messages)
    assert set(per_kind) == {"request", "wine_question", "smalltalk", "offtopic", "manipulation"}
    assert min(per_kind.values()) >= 10


def test_the_knowledge_base_is_reviewed_data() -> None:
    entries = knowledge_base()
    assert len(entries) >= 60
    assert len({e.id for e in entries}) == len(entries)
    for entry in entries:
        assert entry.patterns and 80 <= len(entry.answer) <= 600, entry.id
        for fact in entry.facts:  # what the entry claims to say, it says
            assert fact.lower() in entry.answer.lower(), (entry.id, fact)


async def test_the_kind_set_passes_on_the_offline_path(seeded: Runtime) -> None:
    report = await run_kinds(seeded)
    table = format_kinds(report)
    right, total = report.classified()
    assert right / total >= 0.95, table
    passed, _ = report.rate()
    assert passed / total >= 0.95, table
    for result in report.results:
        if result.expected in ("offtopic", "manipulation", "smalltalk"):
            assert result.cards == 0, (result.text, table)
