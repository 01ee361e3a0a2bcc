"""`python -m bench.eval` (also `sommelier eval`): golden dialogs on the offline and agent paths.

Runs on a database of its own on the embedded server (never the user's catalog), with the
bundled demo catalog the golden set is written for. Exit status 1 when a path passes fewer
than --min-rate of its turns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys

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
    p.add_argument("-v", "--verbose", action="store_true", help="print each failing turn")
    return p


async def _run(args: argparse.Namespace) -> int:
    settings = get_settings()
    paths = ("offline", "agent") if args.path == "both" else (args.path,)
    reports: list[PathReport] = []
    progress = (lambda line: print(line, file=sys.stderr)) if args.verbose else None
    async with open_runtime(settings, EVAL_DATABASE) as rt:
        await rt.ensure_ready()
        for path in paths:
            reports.append(await run_path(rt, path, limit=args.limit, progress=progress))
    if args.json:
        print(json.dumps([r.as_json() for r in reports], ensure_ascii=False, indent=2))
    else:
        print(format_report(reports))
    ok = all(r.rate()[1] and 100.0 * r.rate()[0] / r.rate()[1] >= args.min_rate for r in reports)
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
