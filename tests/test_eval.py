"""`sommelier eval`: the golden dialogs pass on the offline and the agent path (≥ 95 %)."""

from __future__ import annotations

from bench.eval.runner import format_report, load_golden, run_path
from services.app.runtime import Runtime


def test_the_golden_set_is_large_and_varied() -> None:
    golden = load_golden()
    turns = sum(max(len(t["say"]) for t in d["turns"]) * len(d["turns"]) for d in golden["dialogs"])
    assert turns >= 80
    multi_turn = [d for d in golden["dialogs"] if len(d["turns"]) > 1]
    assert len(multi_turn) >= 8
    assert all(len(t["say"]) >= 2 for d in golden["dialogs"] for t in d["turns"])


async def test_the_golden_dialogs_pass_on_both_paths(seeded: Runtime) -> None:
    reports = [await run_path(seeded, path) for path in ("offline", "agent")]
    table = format_report(reports)
    for report in reports:
        passed, total = report.rate()
        assert total >= 80
        assert passed / total >= 0.95, table
    agent = reports[1]
    # An honest model's why sentences survive the grounded-prose check (issue #31).
    share = agent.why_kept_share()
    assert share is not None and share >= 0.95, table
    print(table)
