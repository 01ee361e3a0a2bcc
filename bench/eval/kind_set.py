"""The message-kind set: single messages, hand-labelled, answered through `Turns`.

Each message is answered on its own (a fresh user, offline path) and checked: the kind the
answer was given for; cards only where they belong (none for off-topic, manipulation, small
talk, a pure knowledge question or any health question); the knowledge entry the answer
gives, when the label names the acceptable ones (`entry`; `[]`: an honest «no checked
answer»); the facts a knowledge answer must state (`facts`, development part). Reported per
class with the confusion between classes.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.eval.sets import load_set
from core.language.kinds import MessageKind
from services.app.container import build_services
from services.app.runtime import Runtime

KINDS = [k.value for k in MessageKind]


def load_kinds(part: str = "dev") -> list[dict[str, Any]]:
    return load_set("kinds", part)


@dataclass
class KindResult:
    text: str
    expected: str
    got: str
    ok: bool
    failures: list[str]
    cards: int
    entry: str | None = None


@dataclass
class KindReport:
    path: str
    part: str = "dev"
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
            "part": self.part,
            "passed": passed,
            "classified": right,
            "total": total,
            "per_class": {
                k: dict(zip(("right", "total"), self.classified(k), strict=True)) for k in KINDS
            },
            "confusion": {k: dict(v) for k, v in self.confusion().items()},
            "failures": [dataclasses.asdict(r) for r in self.results if not r.ok],
        }


def check(
    message: dict[str, Any], kind: str, intro: str, closing: str, cards: int, entry: str | None
) -> list[str]:
    failures: list[str] = []
    if kind != message["kind"]:
        failures.append(f"read as {kind}, not {message['kind']}")
    no_cards = message.get("cards") is False or message.get("health")
    if no_cards and cards:
        failures.append(f"{cards} cards where none belong")
    if message.get("cards") is True and not cards:
        failures.append("no cards")
    if "entry" in message:
        wanted = message["entry"]
        if wanted and entry not in wanted:
            failures.append(f"answered with entry {entry}, not one of {wanted}")
        if not wanted and entry is not None:
            failures.append(f"answered with entry {entry} where no entry fits")
    answer = f"{intro} {closing}".lower()
    missing = [f for f in message.get("facts", []) if f.lower() not in answer]
    if missing:
        failures.append(f"the answer misses {missing}")
    return failures


async def run_kinds(
    rt: Runtime, part: str = "dev", messages: Sequence[dict[str, Any]] | None = None
) -> KindReport:
    """Every message of one part of the set on the offline path (no LLM key)."""
    settings = rt.settings.model_copy(update={"llm_api_key": None})
    services = build_services(dataclasses.replace(rt, settings=settings))
    report = KindReport("offline", part)
    user_base = 7_100_000_000_000 + int(time.time() * 1000) % 1_000_000_000 * 1000
    try:
        for number, message in enumerate(messages or load_kinds(part)):
            rec = await services.turns.answer(user_base + number, message["say"])
            cards = len(rec.wines)
            failures = check(message, rec.kind, rec.intro, rec.closing, cards, rec.entry)
            report.results.append(
                KindResult(
                    message["say"],
                    message["kind"],
                    rec.kind,
                    not failures,
                    failures,
                    cards,
                    rec.entry,
                )
            )
    finally:
        await services.close()
    return report


def format_kinds(report: KindReport) -> str:
    lines = [
        f"Message kinds, {report.part} ({report.path}): rows are the label, columns what the bot"
        " read",
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
        f"classified right: {right}/{total} ({pct:.1f} %); answers right (kind, cards, entry, "
        f"facts): {passed}/{total}"
    )
    lowest = min(KINDS, key=lambda k: _share(report.classified(k)))
    lines.append(f"lowest class: {lowest} ({100.0 * _share(report.classified(lowest)):.1f} %)")
    return "\n".join(lines)


def _share(counts: tuple[int, int]) -> float:
    right, total = counts
    return right / total if total else 0.0
