"""The message-kind set (`kinds.json`): single messages, hand-labelled, through ChatService.

Each message is answered on its own (a fresh user) and checked: the kind the answer was given
for, cards only where they belong (none for off-topic, manipulation, small talk or a pure
knowledge question), the facts a knowledge answer must state. Reported per class with the
confusion between classes.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from core.language.kinds import MessageKind
from services.app.container import build_services
from services.app.runtime import Runtime

KINDS = [k.value for k in MessageKind]


def load_kinds() -> dict[str, Any]:
    text = resources.files("bench.eval").joinpath("kinds.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass
class KindResult:
    text: str
    expected: str
    got: str
    ok: bool
    failures: list[str]
    cards: int


@dataclass
class KindReport:
    path: str
    results: list[KindResult] = field(default_factory=list)

    def rate(self, kind: str | None = None) -> tuple[int, int]:
        chosen = [r for r in self.results if kind is None or r.expected == kind]
        return sum(r.ok for r in chosen), len(chosen)

    def classified(self, kind: str | None = None) -> tuple[int, int]:
        chosen = [r for r in self.results if kind is None or r.expected == kind]
        return sum(r.got == r.expected for r in chosen), len(chosen)

    def short_classes(self, min_rate: float) -> list[str]:
        """The classes (hand labels) read right or answered right less often than `min_rate`
        per cent of their messages, each with both rates («smalltalk: read 15/17, answered
        15/17»); a class with no message is short too."""
        short: list[str] = []
        for kind in KINDS:
            right, total = self.classified(kind)
            passed, _ = self.rate(kind)
            if not total or 100.0 * min(right, passed) < min_rate * total:
                short.append(f"{kind}: read {right}/{total}, answered {passed}/{total}")
        return short

    def confusion(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
        for r in self.results:
            table[r.expected][r.got] += 1
        return table

    def as_json(self) -> dict[str, Any]:
        passed, total = self.rate()
        right, _ = self.classified()
        return {
            "path": self.path,
            "passed": passed,
            "classified": right,
            "total": total,
            "confusion": {k: dict(v) for k, v in self.confusion().items()},
            "failures": [dataclasses.asdict(r) for r in self.results if not r.ok],
        }


def check(message: dict[str, Any], kind: str, intro: str, closing: str, cards: int) -> list[str]:
    failures: list[str] = []
    if kind != message["kind"]:
        failures.append(f"read as {kind}, not {message['kind']}")
    if message.get("cards") is False and cards:
        failures.append(f"{cards} cards where none belong")
    if message.get("cards") is True and not cards:
        failures.append("no cards")
    answer = f"{intro} {closing}".lower()
    missing = [f for f in message.get("facts", []) if f.lower() not in answer]
    if missing:
        failures.append(f"the answer misses {missing}")
    return failures


async def run_kinds(rt: Runtime, path: str = "offline") -> KindReport:
    """Every message of the set on the offline path (no LLM key)."""
    settings = rt.settings.model_copy(update={"llm_api_key": None})
    services = build_services(dataclasses.replace(rt, settings=settings))
    report = KindReport(path)
    user_base = 7_100_000_000_000 + int(time.time() * 1000) % 1_000_000_000 * 1000
    try:
        for number, message in enumerate(load_kinds()["messages"]):
            rec = await services.chat.answer(user_base + number, message["say"])
            failures = check(message, rec.kind, rec.intro, rec.closing, len(rec.wines))
            cards = len(rec.wines)
            expected = message["kind"]
            report.results.append(
                KindResult(message["say"], expected, rec.kind, not failures, failures, cards)
            )
    finally:
        await services.close()
    return report


def format_kinds(report: KindReport) -> str:
    lines = [
        f"Message kinds ({report.path}): rows are the hand label, columns what the bot read",
        "| label | " + " | ".join(KINDS) + " | answers right |",
        "|---" * (len(KINDS) + 2) + "|",
    ]
    confusion = report.confusion()
    for kind in KINDS:
        passed, total = report.rate(kind)
        cells = [str(confusion[kind][k]) for k in KINDS]
        lines.append(f"| {kind} | " + " | ".join(cells) + f" | {passed}/{total} |")
    right, total = report.classified()
    passed, _ = report.rate()
    pct = 100.0 * right / total if total else 0.0
    lines.append(
        f"classified right: {right}/{total} ({pct:.1f} %); answers right (kind, cards, facts): "
        f"{passed}/{total}"
    )
    lowest = min(KINDS, key=lambda k: _share(report.classified(k)))
    lines.append(f"lowest class: {lowest} ({100.0 * _share(report.classified(lowest)):.1f} %)")
    return "\n".join(lines)


def _share(counts: tuple[int, int]) -> float:
    right, total = counts
    return right / total if total else 0.0
