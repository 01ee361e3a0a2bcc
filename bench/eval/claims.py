"""The claims table: sentences a model might write under a wine's card, each labelled true
(everything it says is borne out by the wine's row or its own words) or false.

Each sentence goes through the grounded-prose check of a card's why (services/agent/_grounding.py)
under its catalog row. A false sentence kept is a false claim that reaches the customer (the
bar: none); a true sentence dropped is a loss, reported beside it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from bench.eval.sets import load_set
from core.language.reading import read
from core.recommendation import RecommendedWine
from repositories.models import Wine
from services.agent import ground_prose
from services.app.runtime import Runtime


@dataclass
class Judged:
    wine: str
    sentence: str
    kind: str
    true: bool
    kept: bool


@dataclass
class ClaimsReport:
    part: str
    results: list[Judged] = field(default_factory=list)

    def false_kept(self) -> list[Judged]:
        return [r for r in self.results if not r.true and r.kept]

    def true_dropped(self) -> list[Judged]:
        return [r for r in self.results if r.true and not r.kept]

    def rate(self) -> tuple[int, int]:
        """Sentences judged right (false dropped, true kept), of all."""
        return sum(r.kept == r.true for r in self.results), len(self.results)

    def by_kind(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = {}
        for r in self.results:
            counts = table.setdefault(r.kind, Counter())
            counts["false kept" if not r.true and r.kept else "ok"] += 1
            counts["true dropped"] += r.true and not r.kept
        return table

    def as_json(self) -> dict[str, Any]:
        passed, total = self.rate()
        return {
            "part": self.part,
            "passed": passed,
            "total": total,
            "false_kept": [r.__dict__ for r in self.false_kept()],
            "true_dropped": [r.__dict__ for r in self.true_dropped()],
        }


async def run_claims(
    rt: Runtime, part: str = "dev", rows: Sequence[dict[str, Any]] | None = None
) -> ClaimsReport:
    rows = list(rows or load_set("claims", part))
    async with rt.sessions() as session:
        slugs = {row["wine"] for row in rows}
        found = await session.scalars(select(Wine).where(Wine.slug.in_(slugs)))
        wines = {wine.slug: wine for wine in found}
    report = ClaimsReport(part)
    for row in rows:
        wine = wines[row["wine"]]
        card = RecommendedWine.from_wine(wine, row["sentence"], row=wine)
        grounding = ground_prose(_NOTHING, "", [card], "")[2]
        kept = grounding.why_kept == grounding.why_sentences
        report.results.append(Judged(row["wine"], row["sentence"], row["kind"], row["true"], kept))
    return report


# The person asked for nothing the prose could repeat: each sentence stands on the row alone.
_NOTHING = read("")


def format_claims(report: ClaimsReport) -> str:
    passed, total = report.rate()
    false = sum(not r.true for r in report.results)
    return (
        f"Claims, {report.part}: {passed}/{total} judged right; false claims that reach the "
        f"customer {len(report.false_kept())} of {false}; true sentences dropped "
        f"{len(report.true_dropped())} of {total - false}"
    )
