"""Run the dialogs through `Turns` (the path every adapter takes) and score them."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bench.eval.checks import check_turn
from bench.eval.fake_model import respond
from bench.eval.sets import load_set
from core.settings import Settings
from fakes.openai_server import FakeOpenAIServer, responder
from repositories.models import Wine
from repositories.wines import WineRepository
from services.app.container import build_services
from services.app.runtime import Runtime

EVAL_API_KEY = "eval-key"
STEPS_PER_TURN = 6
Paths = ("offline", "agent")


def load_dialogs(part: str = "dev") -> list[dict[str, Any]]:
    return load_set("dialogs", part)


@dataclass
class TurnResult:
    category: str
    dialog: int
    text: str
    ok: bool
    failures: list[str]
    wines: list[str]
    path: str


@dataclass
class PathReport:
    path: str
    part: str = "dev"
    turns: list[TurnResult] = field(default_factory=list)
    # Why sentences the model wrote and those the grounded-prose check kept (agent path).
    why_sentences: int = 0
    why_kept: int = 0
    dropped_claims: dict[str, int] = field(default_factory=dict)

    def why_kept_share(self) -> float | None:
        return self.why_kept / self.why_sentences if self.why_sentences else None

    def rate(self, category: str | None = None) -> tuple[int, int]:
        chosen = [t for t in self.turns if category is None or t.category == category]
        return sum(t.ok for t in chosen), len(chosen)

    def categories(self) -> list[str]:
        return list(dict.fromkeys(t.category for t in self.turns))

    def as_json(self) -> dict[str, Any]:
        passed, total = self.rate()
        return {
            "path": self.path,
            "passed": passed,
            "total": total,
            "categories": {
                c: dict(zip(("passed", "total"), self.rate(c), strict=True))
                for c in self.categories()
            },
            "failures": [dataclasses.asdict(t) for t in self.turns if not t.ok],
            "why_sentences": self.why_sentences,
            "why_sentences_kept": self.why_kept,
            "dropped_claims": dict(self.dropped_claims),
        }


async def _wines(rt: Runtime, ids: list[Any]) -> list[Wine]:
    async with rt.sessions() as session:
        return await WineRepository(session).get_by_ids(ids)


async def run_path(
    rt: Runtime,
    path: str,
    part: str = "dev",
    limit: int | None = None,
    progress: Callable[[str], None] | None = None,
    dialogs: list[dict[str, Any]] | None = None,
) -> PathReport:
    """Every dialog of one part of the set (or the first `limit` runs) on one path."""
    dialogs = dialogs or load_dialogs(part)
    report = PathReport(path, part)
    server: FakeOpenAIServer | None = None
    settings: Settings = rt.settings.model_copy(update={"llm_api_key": None})
    if path == "agent":
        server = FakeOpenAIServer(api_key=EVAL_API_KEY, embedding_dim=rt.settings.embedding_dim)
        await server.__aenter__()
        settings = rt.settings.model_copy(
            update={
                "llm_api_key": EVAL_API_KEY,
                "llm_base_url": server.base_url,
                "llm_max_retries": 0,
                "embedding_api_key": None,
            }
        )
    services = build_services(dataclasses.replace(rt, settings=settings))
    user_base = 7_000_000_000_000 + int(time.time() * 1000) % 1_000_000_000 * 1000
    runs_done = 0
    try:
        for number, dialog in enumerate(dialogs):
            runs = max(len(turn["say"]) for turn in dialog["turns"])
            for run in range(runs):
                if limit is not None and runs_done >= limit:
                    return report
                runs_done += 1
                user_id = user_base + runs_done
                previous: list[Wine] = []
                earlier: set[Any] = set()
                budget: Decimal | None = None
                for turn in dialog["turns"]:
                    text = turn["say"][run % len(turn["say"])]
                    if server is not None:
                        server.reset()
                        server.script(*(responder(respond) for _ in range(STEPS_PER_TURN)))
                    rec = await services.turns.answer(user_id, text)
                    report.why_sentences += rec.why_sentences
                    report.why_kept += rec.why_sentences_kept
                    for kind, count in rec.dropped_claims.items():
                        report.dropped_claims[kind] = report.dropped_claims.get(kind, 0) + count
                    wines = await _wines(rt, [w.id for w in rec.wines])
                    expect = turn.get("expect", {})
                    budget = Decimal(expect["price_max"]) if "price_max" in expect else budget
                    failures = check_turn(expect, rec, wines, previous, earlier, budget)
                    if server is not None and server.errors:
                        failures += [f"fake API refused a request: {e}" for e in server.errors]
                    if path == "agent" and rec.path != "agent":
                        failures.append(f"answered on the {rec.path} path")
                    report.turns.append(
                        TurnResult(
                            dialog["category"],
                            number,
                            text,
                            not failures,
                            failures,
                            [w.name for w in wines],
                            rec.path,
                        )
                    )
                    if progress is not None and failures:
                        progress(f"[{path}] «{text}»: {'; '.join(failures)}")
                    if wines:
                        previous = wines
                        earlier |= {w.id for w in wines}
    finally:
        await services.close()
        if server is not None:
            await server.__aexit__(None, None, None)
    return report


def format_report(reports: list[PathReport]) -> str:
    categories = list(dict.fromkeys(c for r in reports for c in r.categories()))
    header = "| category | " + " | ".join(r.path for r in reports) + " |"
    lines = [header, "|---" * (len(reports) + 1) + "|"]
    for category in [*categories, None]:
        cells = []
        for r in reports:
            passed, total = r.rate(category)
            pct = 100.0 * passed / total if total else 0.0
            cells.append(f"{passed}/{total} ({pct:.0f} %)")
        name = category or "**overall**"
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    for r in reports:
        share = r.why_kept_share()
        if share is not None:
            dropped = ", ".join(f"{k} {v}" for k, v in sorted(r.dropped_claims.items()))
            lines.append(
                f"\n{r.path}: why sentences kept by the grounded-prose check "
                f"{r.why_kept}/{r.why_sentences} ({share * 100:.1f} %)"
                + (f"; dropped claims: {dropped}" if dropped else "")
            )
    return "\n".join(lines)
