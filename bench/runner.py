"""`sommelier bench`: runs every benchmark and writes the report to bench/runs/<when>.md."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from sqlalchemy import text

from bench.agent import run_agent
from bench.catalog import Basis
from bench.concurrency import run_concurrency, run_sustained
from bench.db import BenchDatabase, prepare
from bench.experiments import NOTES as VARIANT_NOTES
from bench.experiments import VARIANTS, variant
from bench.report import BenchResults, CatalogInfo, append, cpu_reference_ms, render
from bench.search import Truth, run_search
from bench.workload import QUESTIONS, search_cases, semantic_cases
from core.settings import Settings

RUNS = Path("bench/runs")

FULL_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (1_000, 10_000)
AGENT_SMALL = 50


@dataclass
class BenchConfig:
    label: str = "full"
    sizes: tuple[int, ...] = FULL_SIZES
    dim: int = 1536
    search_cases: int = 200
    semantic_cases: int = 200
    questions: int = 50
    agent_small: int = AGENT_SMALL
    agent_rounds: int = 2
    chats: int = 1000
    llm_latency: float = 2.0
    reuse: bool = False
    bypass_index: bool = False
    variants: tuple[str, ...] = ("current",)
    # Steady arrival rates (chats/s) tried for the sustained figure; () skips it.
    sustained_rates: tuple[float, ...] = (10.0, 20.0, 30.0, 40.0, 50.0)
    sustained_seconds: float = 15.0
    output: Path | None = field(default_factory=lambda: RUNS / f"{datetime.now():%Y-%m-%d-%H%M}.md")
    bot_profile: Path | None = None


def _say(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} bench: {message}", file=sys.stderr, flush=True)


async def _server_versions(db: BenchDatabase) -> dict[str, str]:
    async with db.engine.connect() as conn:
        server = str(await conn.scalar(text("SHOW server_version")))
        vector = str(
            await conn.scalar(text("SELECT extversion FROM pg_extension WHERE extname = 'vector'"))
        )
    return {"PostgreSQL": server, "pgvector (extension)": vector}


def _command(config: BenchConfig) -> str:
    parts = ["sommelier bench"]
    if config.label == "quick":
        parts.append("--quick")
    elif config.sizes != FULL_SIZES:
        parts.append("--sizes " + ",".join(str(s) for s in config.sizes))
    if config.variants != ("current",):
        parts.append("--variants " + ",".join(config.variants))
    return " ".join(parts)


class _Phases:
    """Runs the benchmark's phases; a failing phase becomes a note instead of losing the run."""

    def __init__(self, results: BenchResults, say: Callable[[str], None]) -> None:
        self.results = results
        self.say = say

    async def run(self, name: str, phase: Callable[[], Awaitable[None]]) -> bool:
        try:
            await phase()
        except Exception as exc:
            message = f"{name} failed: {type(exc).__name__}: {exc}"
            self.results.notes.append(message)
            self.say(message)
            return False
        return True


async def run(
    config: BenchConfig, settings: Settings, say: Callable[[str], None] = _say
) -> BenchResults:
    started = time.perf_counter()
    settings = settings.model_copy(update={"embedding_dim": config.dim})
    results = BenchResults(
        label=config.label,
        dim=config.dim,
        started=datetime.now(),
        command=_command(config),
        cpu_reference_ms=cpu_reference_ms(),
    )
    phases = _Phases(results, say)
    basis = Basis(config.dim)
    searches = search_cases(config.search_cases)
    semantics = semantic_cases(basis, config.semantic_cases)
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(config.questions)]
    largest = max(config.sizes)
    big: BenchDatabase | None = None

    async def search_at(db: BenchDatabase) -> None:
        truth: dict[int, Truth] = {}
        for name in config.variants:
            say(f"search at {db.size} wines ({name})")
            async with variant(name, db.engine):
                report = await run_search(
                    db.sessions,
                    settings,
                    db.size,
                    searches,
                    semantics,
                    bypass_index=config.bypass_index,
                    truth=truth,
                )
            results.search.setdefault(name, []).append(report)
            say(
                f"  search_wines p95 {report.search_wines.p95:.1f} ms, nearest p95 "
                f"{report.nearest.p95:.1f} ms, recall {report.recall_mean:.3f}"
            )

    async def agent_small() -> None:
        say(f"agent overhead at {config.agent_small} wines")
        small = await prepare(
            settings, config.agent_small, config.dim, basis, reuse=config.reuse, progress=say
        )
        try:
            report, _ = await run_agent(
                small.sessions, settings, config.agent_small, questions, rounds=config.agent_rounds
            )
        finally:
            await small.close()
        results.agent.append(report)

    async def agent_large(db: BenchDatabase) -> None:
        say(f"agent overhead and prompt economy at {largest} wines")
        report, economy = await run_agent(
            db.sessions, settings, largest, questions, rounds=config.agent_rounds, economy=True
        )
        results.agent.append(report)
        results.economy = economy
        for name in config.variants:
            if name == "current":
                continue
            say(f"agent overhead at {largest} wines ({name})")
            async with variant(name, db.engine):
                report, _ = await run_agent(
                    db.sessions, settings, largest, questions, rounds=config.agent_rounds
                )
            report.variant = name
            results.agent.append(report)

    async def chats(db: BenchDatabase) -> None:
        say(f"{config.chats} concurrent chats at {largest} wines")
        conc = await run_concurrency(
            settings,
            db,
            chats=config.chats,
            latency=config.llm_latency,
            profile=config.bot_profile,
        )
        results.concurrency = conc
        say(
            f"  e2e p95 {conc.e2e.p95:.2f} s, errors {conc.error_count}, "
            f"peak RSS {conc.peak_rss_mb:.0f} MB"
        )

    async def sustained(db: BenchDatabase) -> None:
        for replicas in (0, 2):
            report = await run_sustained(
                settings,
                db,
                rates=config.sustained_rates,
                seconds=config.sustained_seconds,
                latency=config.llm_latency,
                replicas=replicas,
            )
            results.sustained.append(report)
            say(f"  {report.label}: sustained {report.sustained_rate:.0f} chats/s")

    try:
        for size in sorted(config.sizes):
            say(f"catalog of {size} wines")
            db = await prepare(settings, size, config.dim, basis, reuse=config.reuse, progress=say)
            results.catalogs.append(
                CatalogInfo(
                    size,
                    db.load_seconds,
                    db.index_seconds,
                    db.index_bytes,
                    db.table_bytes,
                    db.reused,
                    db.index_notices,
                )
            )
            if not results.server_versions:
                results.server_versions = await _server_versions(db)
            try:
                await phases.run(f"search at {size} wines", lambda db=db: search_at(db))
            finally:
                if size == largest:
                    big = db
                else:
                    await db.close()
        assert big is not None
        top: BenchDatabase = big
        if config.questions:
            await phases.run(f"agent at {config.agent_small} wines", agent_small)
            await phases.run(f"agent at {largest} wines", lambda: agent_large(top))
        if config.chats:
            await phases.run("concurrent chats", lambda: chats(top))
        if config.sustained_rates:
            await phases.run("sustained arrivals", lambda: sustained(top))
    finally:
        if big is not None:
            await big.close()
    results.notes.extend(VARIANT_NOTES.values())
    VARIANT_NOTES.clear()
    results.seconds = time.perf_counter() - started
    return results


def config_from_args(args: argparse.Namespace) -> BenchConfig:
    config = BenchConfig()
    if args.quick:
        config = replace(config, label="quick", sizes=QUICK_SIZES)
    if args.sizes:
        config = replace(config, sizes=tuple(int(s) for s in args.sizes.split(",") if s.strip()))
    if args.chats is not None:
        config = replace(config, chats=args.chats)
    if args.sustained is not None:
        rates = tuple(float(r) for r in args.sustained.split(",") if r.strip())
        config = replace(config, sustained_rates=rates)
    if args.latency is not None:
        config = replace(config, llm_latency=args.latency)
    if args.dim is not None:
        config = replace(config, dim=args.dim)
    if args.variants:
        names = tuple(v.strip() for v in args.variants.split(",") if v.strip())
        unknown = [n for n in names if n not in VARIANTS]
        if unknown:
            raise SystemExit(f"sommelier: unknown variant {unknown[0]!r}; one of {list(VARIANTS)}")
        config = replace(config, variants=names)
    output = None if args.no_append else Path(args.output) if args.output else config.output
    return replace(
        config,
        reuse=args.reuse,
        output=output,
        bot_profile=Path(args.profile_bot) if args.profile_bot else None,
    )


async def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    config = config_from_args(args)
    results = await run(config, settings)
    section = render(results)
    print(section)
    if config.output is not None:
        append(config.output, section)
        _say(f"report written to {config.output}")
    return 0
