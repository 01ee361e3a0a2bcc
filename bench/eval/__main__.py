"""`python -m bench.eval` (also `sommelier eval`): every language set, its development and its
frozen test part side by side.

- message kinds: single messages through the turn service, offline (kind, cards, entry);
- knowledge questions: several wordings each (the right entry, or an honest «no checked answer»);
- dialogs: multi-turn conversations on the offline and agent paths;
- claims: sentences under a wine's card through the grounded-prose check.

Runs on a database of its own on the embedded server (never the user's catalog), with the
bundled demo catalog the sets are written for. Exit status 1 when a chosen part misses its bar.
`-v` prints the failures of the development part only: the test part is not tuned on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from typing import Any

from bench.eval.claims import ClaimsReport, format_claims, run_claims
from bench.eval.kind_set import KindReport, format_kinds, run_kinds
from bench.eval.knowledge import KnowledgeReport, format_knowledge, run_knowledge
from bench.eval.runner import PathReport, format_report, run_path
from bench.eval.sets import PART_NAMES, PARTS, SETS, percent
from core.errors import SommelierError
from core.settings import get_settings
from services.app.runtime import open_runtime

EVAL_DATABASE = "sommelier_eval"
# The bars the test parts are held to (BENCHMARKS.md, "Language").
KINDS_BAR = 0.95
KNOWLEDGE_BAR = 0.90
DIALOG_BAR = 0.95


def _sets(value: str) -> tuple[str, ...]:
    chosen = tuple(SETS if value == "all" else value.split(","))
    unknown = [name for name in chosen if name not in SETS]
    if unknown:
        raise argparse.ArgumentTypeError(f"no set {', '.join(unknown)}; sets: {', '.join(SETS)}")
    return chosen


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sommelier eval",
        description="The language sets, development and frozen test parts side by side.",
    )
    p.add_argument(
        "--set",
        type=_sets,
        default=SETS,
        help=f"one set or several, comma-separated: {', '.join(SETS)} (default: all)",
    )
    p.add_argument("--part", choices=(*PARTS, "both"), default="both")
    p.add_argument(
        "--path",
        choices=("offline", "agent", "both"),
        default="both",
        help="dialogs: the offline path, the agent path (a fake model), or both",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--limit", type=int, help="dialogs: only the first N dialog runs")
    p.add_argument(
        "-v", "--verbose", action="store_true", help="print each failure of the development part"
    )
    return p


class Results:
    def __init__(self) -> None:
        self.kinds: dict[str, KindReport] = {}
        self.knowledge: dict[str, KnowledgeReport] = {}
        self.dialogs: dict[str, list[PathReport]] = {}
        self.claims: dict[str, ClaimsReport] = {}

    def summary(self) -> list[tuple[str, dict[str, str]]]:
        rows: list[tuple[str, dict[str, str]]] = []
        if self.kinds:
            rows.append(
                (
                    "message kinds, read right",
                    {p: percent(*r.classified()) for p, r in self.kinds.items()},
                )
            )
        if self.knowledge:
            rows.append(
                (
                    "knowledge questions, right entry or honest",
                    {p: percent(*r.rate()) for p, r in self.knowledge.items()},
                )
            )
            rows.append(
                (
                    "health questions given a wrong entry",
                    {p: str(r.health_wrong()) for p, r in self.knowledge.items()},
                )
            )
        for path in ("offline", "agent"):
            cells = {
                p: percent(*r.rate())
                for p, rs in self.dialogs.items()
                for r in rs
                if r.path == path
            }
            if cells:
                rows.append((f"dialog turns, {path}", cells))
        if self.claims:
            rows.append(
                (
                    "claims: false ones that reach the customer",
                    {
                        p: f"{len(r.false_kept())} of {sum(not x.true for x in r.results)}"
                        for p, r in self.claims.items()
                    },
                )
            )
            rows.append(
                (
                    "claims: true ones kept",
                    {
                        p: percent(
                            sum(x.true and x.kept for x in r.results),
                            sum(x.true for x in r.results),
                        )
                        for p, r in self.claims.items()
                    },
                )
            )
        return rows

    def table(self, parts: tuple[str, ...]) -> str:
        lines = [
            "| set | " + " | ".join(PART_NAMES[p] for p in parts) + " |",
            "|---" * (len(parts) + 1) + "|",
        ]
        for name, cells in self.summary():
            lines.append(f"| {name} | " + " | ".join(cells.get(p, "—") for p in parts) + " |")
        return "\n".join(lines)

    def passed(self) -> bool:
        ok = True
        for report in self.kinds.values():
            right, total = report.classified()
            ok &= (
                total > 0
                and right / total >= KINDS_BAR
                and not report.short_classes(100 * KINDS_BAR)
            )
        for k in self.knowledge.values():
            passed, total = k.rate()
            ok &= total > 0 and passed / total >= KNOWLEDGE_BAR and k.health_wrong() == 0
        for reports in self.dialogs.values():
            for r in reports:
                passed, total = r.rate()
                ok &= total > 0 and passed / total >= DIALOG_BAR
        for c in self.claims.values():
            ok &= not c.false_kept()
        return ok

    def as_json(self) -> dict[str, Any]:
        return {
            "kinds": {p: r.as_json() for p, r in self.kinds.items()},
            "knowledge": {p: r.as_json() for p, r in self.knowledge.items()},
            "dialogs": {p: [r.as_json() for r in rs] for p, rs in self.dialogs.items()},
            "claims": {p: r.as_json() for p, r in self.claims.items()},
        }


async def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    parts = PARTS if args.part == "both" else (args.part,)
    chosen = args.set
    paths = ("offline", "agent") if args.path == "both" else (args.path,)
    results = Results()
    async with open_runtime(settings, EVAL_DATABASE) as rt:
        await rt.ensure_ready()
        for part in parts:
            if "kinds" in chosen:
                results.kinds[part] = await run_kinds(rt, part)
            if "knowledge" in chosen:
                results.knowledge[part] = await run_knowledge(rt, part)
            if "dialogs" in chosen:
                results.dialogs[part] = [
                    await run_path(rt, path, part, limit=args.limit) for path in paths
                ]
            if "claims" in chosen:
                results.claims[part] = await run_claims(rt, part)
    if args.json:
        print(json.dumps(results.as_json(), ensure_ascii=False, indent=2, default=str))
        return 0 if results.passed() else 1
    print(results.table(parts))
    for part in parts:
        details = []
        if part in results.kinds:
            details.append(format_kinds(results.kinds[part]))
        if part in results.knowledge:
            details.append(format_knowledge(results.knowledge[part]))
        if part in results.dialogs:
            details.append(f"Dialogs, {part}:\n" + format_report(results.dialogs[part]))
        if part in results.claims:
            details.append(format_claims(results.claims[part]))
        print(f"\n## {PART_NAMES[part]}\n\n" + "\n\n".join(details))
    if args.verbose and "dev" in parts:
        _print_failures(results)
    return 0 if results.passed() else 1


def _print_failures(results: Results) -> None:
    out = sys.stderr
    if "dev" in results.kinds:
        for r in results.kinds["dev"].results:
            if not r.ok:
                print(f"[kinds] «{r.text}»: {'; '.join(r.failures)}", file=out)
    if "dev" in results.knowledge:
        for a in results.knowledge["dev"].results:
            if a.outcome in ("wrong", "missed"):
                print(
                    f"[knowledge] «{a.text}»: {a.outcome} ({a.kind}, {a.got}; want {a.expected})",
                    file=out,
                )
    for report in results.dialogs.get("dev", []):
        for t in report.turns:
            if not t.ok:
                print(f"[{report.path}] «{t.text}»: {'; '.join(t.failures)}", file=out)
    if "dev" in results.claims:
        for j in results.claims["dev"].results:
            if j.kept != j.true:
                print(f"[claims] {j.wine}: «{j.sentence}» true={j.true} kept={j.kept}", file=out)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    try:
        return asyncio.run(_run(args))
    except SommelierError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
