"""Inline-mode latency: how long the bot takes to build an answer to `@bot <query>`.

Telegram waits a few seconds for an inline answer; the target is server-side p95 ≤ 300 ms on
100k wines. Measured per query: the catalog lookup (`QuickPicks.for_query`, what the inline
handler's `for_person` runs) plus building the results exactly as the handler does and
serialising them as they go to the Bot API. Network time to Telegram is not included.

    python -m bench.inline --sizes 10000,100000 --reuse [--rounds 5] [--output BENCHMARKS.md]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from sqlalchemy import select

from bench.catalog import Basis
from bench.db import BenchDatabase, prepare
from bench.stats import Summary
from bot.handlers.inline import inline_result
from core.settings import Settings, load_settings
from repositories.models import Wine
from services.agent import SommelierService, WelcomeWriter
from services.app.database import Database
from services.app.facts.recorder import FactRecorder
from services.app.picks.inline import QuickPicks
from services.app.taste.profiles import TasteProfiles
from services.llm.client import LLMClient
from services.llm.embeddings import EmbeddingService

TARGET_P95_MS = 300.0
DIM = 1536
# What people type after @bot: filters, a dish, a grape, a country, free words, nonsense, empty.
QUERIES: tuple[str, ...] = (
    "",
    "белое к рыбе до 1500",
    "красное сухое",
    "красное к стейку до 2000",
    "игристое до 3000",
    "розовое",
    "шардоне",
    "италия красное",
    "сладкое десертное",
    "с ягодными нотами",
    "что-нибудь на вечер",
    "ывапролдж",
)


@dataclass
class InlineReport:
    size: int
    first_page: Summary
    next_page: Summary
    shared: Summary
    by_query: dict[str, Summary]
    empty_answers: int

    @property
    def overall(self) -> Summary:
        return self.first_page


async def _answer(quick: QuickPicks, query: str, offset: int = 0) -> tuple[float, int]:
    started = time.perf_counter()
    page = await quick.for_query(query, offset)
    results = [inline_result(w, "sommelier_bench_bot") for w in page.wines]
    json.dumps([r.model_dump(exclude_none=True) for r in results], default=str)
    return (time.perf_counter() - started) * 1000, len(results)


async def run_inline(db: BenchDatabase, settings: Settings, rounds: int = 5) -> InlineReport:
    settings = settings.model_copy(update={"llm_api_key": None, "embedding_api_key": None})
    sommelier = SommelierService(
        settings, db.sessions, LLMClient(settings), EmbeddingService(settings)
    )
    database = Database(db.sessions)
    quick = QuickPicks(
        database, WelcomeWriter(sommelier), TasteProfiles(database), FactRecorder("bench-key")
    )
    async with db.sessions() as session:
        some = list((await session.scalars(select(Wine.id).limit(20))).all())
    for query in QUERIES:  # warm-up: vocabulary and connection pool
        await _answer(quick, query)
    first: list[float] = []
    later: list[float] = []
    shared: list[float] = []
    by_query: dict[str, list[float]] = {q: [] for q in QUERIES}
    empty = 0
    for _ in range(rounds):
        for query in QUERIES:
            ms, count = await _answer(quick, query)
            first.append(ms)
            by_query[query].append(ms)
            empty += count == 0
            if count:
                later.append((await _answer(quick, query, offset=10))[0])
        for wine_id in some:
            shared.append((await _answer(quick, f"wine:{uuid.UUID(str(wine_id)).hex}"))[0])
    return InlineReport(
        size=db.size,
        first_page=Summary.of(first),
        next_page=Summary.of(later),
        shared=Summary.of(shared),
        by_query={q: Summary.of(v) for q, v in by_query.items()},
        empty_answers=empty // max(rounds, 1),
    )


def render(reports: Sequence[InlineReport], rounds: int) -> str:
    lines = [
        f"## Inline mode latency — {datetime.now():%Y-%m-%d %H:%M}",
        "",
        "Server-side time to build an inline answer (catalog lookup + results as sent to the "
        f"Bot API), {rounds} rounds of {len(QUERIES)} queries, no LLM. "
        f"Target: p95 ≤ {TARGET_P95_MS:.0f} ms on 100k wines. "
        "Command: `python -m bench.inline --sizes "
        + ",".join(str(r.size) for r in reports)
        + " --reuse`.",
        "",
        "| wines | first page p50 / p95 / max, ms | next page p95, ms | «wine:<id>» p95, ms | "
        "target |",
        "|---|---|---|---|---|",
    ]
    for r in reports:
        f = r.first_page
        ok = "✅" if f.p95 <= TARGET_P95_MS else "❌"
        size = f"{r.size:,}".replace(",", " ")
        lines.append(
            f"| {size} | {f.p50:.1f} / {f.p95:.1f} / {f.max:.1f} | {r.next_page.p95:.1f} | "
            f"{r.shared.p95:.1f} | {ok} |"
        )
    largest = max(reports, key=lambda r: r.size)
    size = f"{largest.size:,}".replace(",", " ")
    lines += ["", f"Per query at {size} wines (p95 in ms):", ""]
    lines += ["| query | p95 |", "|---|---|"]
    for query, summary in largest.by_query.items():
        lines.append(f"| «{query}» | {summary.p95:.1f} |")
    return "\n".join(lines) + "\n"


async def main_async(args: argparse.Namespace) -> str:
    settings = load_settings().model_copy(update={"embedding_dim": args.dim})
    basis = Basis(args.dim)
    reports: list[InlineReport] = []
    for size in args.sizes:
        print(f"preparing {size} wines…", flush=True)
        db = await prepare(settings, size, args.dim, basis, reuse=args.reuse, progress=print)
        try:
            report = await run_inline(db, settings, args.rounds)
        finally:
            await db.close()
        print(
            f"  {size}: first page p95 {report.first_page.p95:.1f} ms, "
            f"next page p95 {report.next_page.p95:.1f} ms",
            flush=True,
        )
        reports.append(report)
    return render(reports, args.rounds)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.inline", description=__doc__)
    p.add_argument("--sizes", default="10000,100000")
    p.add_argument("--dim", type=int, default=DIM)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--reuse", action="store_true", help="reuse bench databases already built")
    p.add_argument("--output", help="append the report to this file (e.g. BENCHMARKS.md)")
    args = p.parse_args(argv)
    args.sizes = [int(s) for s in str(args.sizes).split(",") if s.strip()]
    section = asyncio.run(main_async(args))
    print(section)
    if args.output:
        with Path(args.output).open("a", encoding="utf-8") as out:
            out.write("\n" + section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
