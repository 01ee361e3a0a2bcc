"""The shop's picks over real processes: `sommelier picks import` sets the rules and the next
`sommelier ask --json` (another process, the offline path) leads with the boosted wine that
fits and shows no boosted wine that does not; a bad rules file changes nothing and names the
bad row; `sommelier picks export` prints what is in force."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from seeds.loader import DEFAULT_SEED_FILE
from tests.test_cli import Run, sommelier

pytestmark = pytest.mark.slow

STEAK = "красное сухое к стейку до 2000"


def _fits(w: dict[str, Any]) -> bool:
    return (
        w["wine_type"] == "red"
        and w["sweetness"] == "dry"
        and w["price_rub"] <= 2000
        and any("стейк" in f for f in w["food_pairings"])
    )


def _answer(run: Run) -> list[dict[str, Any]]:
    assert run.code == 0, str(run)
    return list(json.loads(run.out)["wines"])


async def test_rules_from_a_file_reorder_the_next_answer_and_add_no_misfit(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    seed = json.loads(DEFAULT_SEED_FILE.read_text(encoding="utf-8"))
    before = _answer(await sommelier(data, "ask", "--json", STEAK))
    shown = {w["name"] for w in before}
    boosted = [w for w in seed if _fits(w) and w["name"] not in shown][-1]
    fit_producers = {w["producer"] for w in seed if _fits(w)}
    misfit = next(
        w
        for w in seed
        if w["wine_type"] == "red" and w["price_rub"] > 2000 and w["producer"] not in fit_producers
    )
    rules = tmp_path / "rules.csv"
    rules.write_text(
        "action,field,value,starts_on,ends_on,note\n"
        f"boost,wine,{boosted['slug']},,,Вино недели\n"
        f"boost,producer,{misfit['producer']},,,\n",
        encoding="utf-8",
    )
    imported = await sommelier(data, "picks", "import", str(rules))
    assert imported.code == 0 and "2 rule(s) in force" in imported.out, str(imported)

    after = _answer(await sommelier(data, "ask", "--json", STEAK))
    assert after[0]["name"] == boosted["name"] and after[0]["shop_pick"] is True
    assert not any(w["shop_pick"] for w in after[1:])
    assert misfit["name"] not in {w["name"] for w in after}

    bad = tmp_path / "bad.csv"
    bad.write_text("action,field,value\nlift,wine,x\n", encoding="utf-8")
    refused = await sommelier(data, "picks", "import", str(bad))
    assert refused.code == 1 and "line 2" in refused.err and "lift" in refused.err, str(refused)
    exported = await sommelier(data, "picks", "export", "--format", "json")
    assert exported.code == 0, str(exported)
    assert [r["value"] for r in json.loads(exported.out)] == [
        boosted["slug"],
        misfit["producer"],
    ]
