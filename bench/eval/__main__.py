"""`python -m bench.eval` (also `sommelier eval`): golden dialogs on the offline and agent paths,
and the message-kind set (`kinds.json`) on the offline path with its confusion per class.

Runs on a database of its own on the embedded server (never the user's catalog), with the
bundled demo catalog the golden set is written for. Exit status 1 when a path passes fewer
than --min-rate of its turns, or the message-kind set or any one of its classes does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys

from bench.eval.kinds import KindReport, format_kinds, run_kinds
from bench.eval.runner import PathReport, format_report, run_path
from core.errors import SommelierError
from core.settings import get_settings
from services.app.runtime import open_runtime

EVAL_DATABASE = "sommelier_eval"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sommelier eval",
        description="Golden multi-turn dialogs checked on the offline and agent paths.",
    )
    p.add_argument("--path", choices=("offline", "agent", "both"), default="both")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--limit", type=int, help="only the first N dialog runs")
    p.add_argument("--min-rate", type=float, default=95.0, help="pass threshold, percent")
    p.add_argument(
        "--set",
        choices=("golden", "kinds", "all"),
        default="all",
        help="the golden dialogs, the message-kind set, or both (default)",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="print each failing turn")
    return p


async def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    paths = ("offline", "agent") if args.path == "both" else (args.path,)
    reports: list[PathReport] = []
    kinds: KindReport | None = None
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    async with open_runtime(settings, EVAL_DATABASE) as rt:
        await rt.ensure_ready()
        if args.set in ("golden", "all"):
            for path in paths:
                reports.append(await run_path(rt, path, limit=args.limit, progress=progress))
        if args.set in ("kinds", "all"):
            kinds = await run_kinds(rt)
            if progress is not None:
                for r in kinds.results:
                    if not r.ok:
                        progress(f"[kinds] «{r.text}»: {'; '.join(r.failures)}")
    if args.json:
        out: dict[str, object] = {"golden": [r.as_json() for r in reports]}
        if kinds is not None:
            out["kinds"] = kinds.as_json()
        print(json.dumps(out if kinds is not None else out["golden"], ensure_ascii=False, indent=2))
    else:
        if reports:
            print(format_report(reports))
        if kinds is not None:
            print(("\n" if reports else "") + format_kinds(kinds))
    ok = all(r.rate()[1] and 100.0 * r.rate()[0] / r.rate()[1] >= args.min_rate for r in reports)
    if kinds is not None:
        right, total = kinds.classified()
        passed, _ = kinds.rate()
        ok = ok and total > 0 and 100.0 * min(right, passed) / total >= args.min_rate
        short = kinds.short_classes(args.min_rate)
        for line in short:
            print(f"below {args.min_rate:g} %: {line}", file=sys.stderr)
        ok = ok and not short
    return 0 if ok else 1


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
