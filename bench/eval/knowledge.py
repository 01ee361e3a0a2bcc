"""The knowledge questions: each question in several wordings, answered through `Turns`.

A wording is **right** when the answer gives one of the entries its label names, **honest**
when the label names none and the bot says it has no checked answer (or, for a health
question, gives the general health answer rather than a wrong entry), **wrong** when it gives
another entry, and **missed** when the message was not read as a wine question at all (cards,
small talk, a decline). The bar is right + honest; health questions may have no wrong entry.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.eval.sets import load_set, percent
from services.app.container import build_services
from services.app.runtime import Runtime

OUTCOMES = ("right", "honest", "wrong", "missed")


@dataclass
class Asked:
    text: str
    expected: list[str]
    health: bool
    outcome: str
    got: str | None
    kind: str
    cards: int


@dataclass
class KnowledgeReport:
    part: str
    results: list[Asked] = field(default_factory=list)

    def counts(self, health: bool | None = None) -> Counter[str]:
        return Counter(r.outcome for r in self.results if health is None or r.health == health)

    def rate(self) -> tuple[int, int]:
        counts = self.counts()
        return counts["right"] + counts["honest"], len(self.results)

    def health_wrong(self) -> int:
        return self.counts(health=True)["wrong"]

    def as_json(self) -> dict[str, Any]:
        passed, total = self.rate()
        return {
            "part": self.part,
            "passed": passed,
            "total": total,
            "outcomes": dict(self.counts()),
            "health_outcomes": dict(self.counts(health=True)),
            "failures": [
                dataclasses.asdict(r) for r in self.results if r.outcome in ("wrong", "missed")
            ],
        }


def outcome(expected: Sequence[str], health: bool, kind: str, entry: str | None, cards: int) -> str:
    if kind != "wine_question" or (cards and health):
        return "missed"
    if entry is None:
        return "honest" if not expected or health else "missed"
    return "right" if entry in expected else "wrong"


async def run_knowledge(
    rt: Runtime, part: str = "dev", questions: Sequence[dict[str, Any]] | None = None
) -> KnowledgeReport:
    settings = rt.settings.model_copy(update={"llm_api_key": None})
    services = build_services(dataclasses.replace(rt, settings=settings))
    report = KnowledgeReport(part)
    user = 7_200_000_000_000 + int(time.time() * 1000) % 1_000_000_000 * 1000
    try:
        for question in questions or load_set("knowledge", part):
            for wording in question["wordings"]:
                user += 1
                rec = await services.turns.answer(user, wording)
                health = bool(question.get("health"))
                report.results.append(
                    Asked(
                        wording,
                        list(question["entry"]),
                        health,
                        outcome(question["entry"], health, rec.kind, rec.entry, len(rec.wines)),
                        rec.entry,
                        rec.kind,
                        len(rec.wines),
                    )
                )
    finally:
        await services.close()
    return report


def format_knowledge(report: KnowledgeReport) -> str:
    counts = report.counts()
    health = report.counts(health=True)
    passed, total = report.rate()
    return (
        f"Knowledge questions, {report.part}: right {counts['right']}, honest «no checked "
        f"answer» {counts['honest']}, wrong entry {counts['wrong']}, not read as a question "
        f"{counts['missed']} — right or honest {percent(passed, total)}; health questions: "
        f"{sum(health.values())}, wrong entries {health['wrong']}"
    )
