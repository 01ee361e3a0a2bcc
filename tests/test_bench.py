"""The benchmark harness at a tiny size: it runs, reports every row, and measures recall right."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bench.catalog import Basis, generate
from bench.db import bench_location, database_name, drop_database
from bench.report import TARGET_ROWS, BenchResults, append, render, target_rows
from bench.runner import BenchConfig, run
from bench.stats import percentile
from bench.workload import QUESTIONS, search_cases, semantic_cases
from core.settings import Settings

pytestmark = pytest.mark.slow  # subprocesses / the bench harness: `pytest -m "not slow"` skips

TINY = BenchConfig(
    label="tiny",
    sizes=(300,),
    dim=64,
    search_cases=12,
    semantic_cases=15,
    questions=6,
    agent_small=50,
    agent_rounds=1,
    chats=20,
    sustained_rates=(5.0,),
    sustained_seconds=2.0,
    llm_latency=0.1,
    bypass_index=True,
    output=None,
)


def test_generator_is_deterministic_and_plausible() -> None:
    basis = Basis(16)
    first, again = generate(200, basis), generate(200, Basis(16))
    assert first == again
    assert len({w.slug for w in first}) == 200
    assert {w.wine_type.value for w in first} >= {"red", "white", "sparkling"}
    assert all(350 <= w.price_rub <= 90_000 for w in first)
    assert all(w.grape_varieties and w.food_pairings for w in first)
    assert all(len(w.parts) == 10 for w in first)


def test_workloads_have_the_promised_mix() -> None:
    basis = Basis(16)
    searches = search_cases()
    semantics = semantic_cases(basis)
    assert len(searches) == 200 and len(semantics) == 200
    assert {c.kind for c in searches} == {"broad", "medium", "selective", "very selective"}
    assert any("grape_variety" in c.arguments or "food_pairing" in c.arguments for c in searches)
    assert sum(1 for c in semantics if not c.filters) == 80
    assert len(QUESTIONS) == 50
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5


@pytest.fixture
async def tiny_results(settings: Settings) -> AsyncIterator[BenchResults]:
    config = dataclasses.replace(TINY, variants=("current", "exact"))
    try:
        yield await run(config, settings, say=lambda _msg: None)
    finally:
        for size in (*config.sizes, config.agent_small):
            await drop_database(bench_location(settings, database_name(size, config.dim)))


async def test_tiny_run_reports_every_row(tiny_results: BenchResults, tmp_path: Path) -> None:
    results = tiny_results
    assert results.notes == []
    rows = target_rows(results)
    assert [r[0] for r in rows] == list(TARGET_ROWS)
    assert all(measured != "not run" for _name, measured, _target, _status in rows)
    section = render(results)
    for name in TARGET_ROWS:
        assert f"| {name} |" in section

    for variant in ("current", "exact"):
        (report,) = results.search[variant]
        assert report.search_errors == 0 and report.semantic_errors == 0
        # Both sides are exact scans, so recall must be perfect.
        assert report.recall_mean == 1.0 and report.recall_min == 1.0
        assert report.full_share == 1.0

    assert {(a.size, a.variant) for a in results.agent} == {
        (50, "current"),
        (300, "current"),
        (300, "exact"),
    }
    assert results.economy is not None and results.economy.catalog_chars.mean > 0
    conc = results.concurrency
    assert conc is not None
    assert conc.completed == 20 and conc.error_count == 0
    assert conc.peak_rss_mb > 0 and conc.pool_max_checked_out >= 1
    # Steady arrivals, through one polling process and through two webhook replicas.
    assert [s.replicas for s in results.sustained] == [0, 2]
    for sustained in results.sustained:
        ((rate, step),) = sustained.steps
        assert rate == 5.0 and step.completed == step.chats == 10 and step.error_count == 0
    assert results.economy is not None and 0 < results.economy.stable_share < 1

    out = tmp_path / "runs" / "2026-11-25-1200.md"
    append(out, section)
    append(out, section)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# A benchmark run") and "BENCHMARKS.md" in text
    assert text.count("| target | measured |") == 2
