"""`sommelier eval`: every language set has a development and a frozen test part, and both are
run and reported side by side. The development parts hold the bar; the frozen test parts may
not fall below the figures recorded in BENCHMARKS.md (a regression guard, never a reason to
edit them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.eval.claims import run_claims
from bench.eval.runner import format_report, run_path
from bench.eval.sets import PARTS, SETS, load_set
from services.app.runtime import Runtime

ROOT = Path(__file__).resolve().parents[1]
# The figures when they were last measured (BENCHMARKS.md, "Language"), a little below: a change
# that reads worse than this fails. They are floors against regressions; the test parts'
# figures against the bar (kinds 95 %, dialogs 95 %, no false claim) are there too.
TEST_FLOORS = {"dialogs_offline": 0.952, "claims_false_kept": 0}
DEV_DIALOGS_OFFLINE = 0.972  # measured 2409/2476 with dialogs_9 (2151/2206 on the files before it)
# measured 1 of 1093 with claims_12: a century that a year in the wine's words fits by chance
DEV_CLAIMS_FALSE_KEPT = 1
DEV_CLAIMS_TRUE_KEPT = 0.985  # measured 1017/1027 with claims_12 (871/874 with claims_11)
# The agent path answers through the eval's own fake model (bench/eval/reader.py), which reads
# less than the product does: its figure guards the tool handling, not the language. Measured
# 80.9 % (1785/2206) with dialogs_8, the file of slang, diminutives and typos that fake model
# reads worst (61.1 %; the files before it: 1631/1954, 83.5 %, as before dialogs_8 came).
# With dialogs_9 (company buyers, tourists, voice notes): 80.0 % (1981/2476).
AGENT_FLOOR = 0.795


def test_every_set_has_both_parts_and_is_large() -> None:
    sizes = {(name, part): load_set(name, part) for name in SETS for part in PARTS}
    assert all(sizes[key] for key in sizes), [k for k, v in sizes.items() if not v]
    kinds = sum(len(sizes[("kinds", p)]) for p in PARTS)
    questions = sum(len(sizes[("knowledge", p)]) for p in PARTS)
    wordings = sum(len(q["wordings"]) for p in PARTS for q in sizes[("knowledge", p)])
    dialogs = sum(len(sizes[("dialogs", p)]) for p in PARTS)
    assert kinds >= 300 and questions >= 150 and wordings >= 450 and dialogs >= 60
    assert all(len(q["wordings"]) >= 2 for p in PARTS for q in sizes[("knowledge", p)])


def test_the_frozen_test_part_says_who_wrote_it() -> None:
    readme = (ROOT / "bench" / "eval" / "test" / "README.md").read_text(encoding="utf-8")
    assert "independent" in readme and "frozen" in readme.lower()
    for name in SETS:
        about = json.loads(next((ROOT / "bench/eval/test").glob(f"{name}*.json")).read_text())
        assert "independent writer" in about["about"] and "Frozen" in about["about"]


async def test_dialogs_hold_on_both_paths(seeded: Runtime) -> None:
    offline = await run_path(seeded, "offline", "dev")
    agent = await run_path(seeded, "agent", "dev")
    table = format_report([offline, agent])
    passed, total = offline.rate()
    assert total >= 300 and passed / total >= DEV_DIALOGS_OFFLINE, table
    passed, total = agent.rate()
    assert passed / total >= AGENT_FLOOR, table
    share = agent.why_kept_share()  # an honest model's why sentences survive the check
    assert share is not None and share >= 0.95, table
    frozen = await run_path(seeded, "offline", "test")
    passed, total = frozen.rate()
    assert passed / total >= TEST_FLOORS["dialogs_offline"], format_report([frozen])


async def test_no_false_claim_of_the_development_table_reaches_a_card(seeded: Runtime) -> None:
    report = await run_claims(seeded, "dev")
    assert len(report.false_kept()) <= DEV_CLAIMS_FALSE_KEPT, [
        r.sentence for r in report.false_kept()
    ]
    true = [r for r in report.results if r.true]
    assert sum(r.kept for r in true) / len(true) >= DEV_CLAIMS_TRUE_KEPT, [
        r.sentence for r in true if not r.kept
    ]
    frozen = await run_claims(seeded, "test")
    assert len(frozen.false_kept()) <= TEST_FLOORS["claims_false_kept"]


def test_eval_prints_both_parts_side_by_side(tmp_path: Path) -> None:
    """The command itself, as a user runs it: one table with a column per part."""
    env = {**os.environ, "DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bench.eval", "--set", "claims"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "| set | development | test (frozen) |" in done.stdout, done.stdout + done.stderr
    assert "claims: false ones that reach the customer" in done.stdout
