"""`python -m bench` (also `sommelier bench`): the benchmarks, or the chaos soak with --soak."""

from __future__ import annotations

import argparse
import asyncio
import sys

from core.errors import SommelierError
from core.settings import get_settings
from sommelier.logs import configure_logging


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sommelier bench", description="Benchmarks; writes the report to bench/runs/<when>.md."
    )
    p.add_argument("--quick", action="store_true", help="1k and 10k wines only")
    p.add_argument(
        "--soak", action="store_true", help="chaos soak: 5,000 messages, 200 chats, faults"
    )
    p.add_argument(
        "--chaos",
        action="store_true",
        help="with --soak: SIGKILL the bot processes (2 webhook replicas, 1 polling) as they work",
    )
    p.add_argument(
        "--alerts",
        action="store_true",
        help="an alert to 10,000 subscribers within Telegram's limits (bench/alerts.py)",
    )
    p.add_argument("--minutes", type=float, default=10.0, help="--chaos: minutes of arrivals")
    p.add_argument("--rate", type=float, default=3.0, help="--chaos: questions per second")
    p.add_argument("--lease", type=float, default=30.0, help="--chaos: UPDATE_LEASE_SECONDS")
    p.add_argument("--sizes", help="catalog sizes, e.g. 1000,10000,100000")
    p.add_argument("--chats", type=int, help="concurrent chats (default 1000; 0 skips)")
    p.add_argument(
        "--sustained",
        help="steady arrival rates to try, chats/s (default 10,20,30,40,50; empty skips)",
    )
    p.add_argument("--latency", type=float, help="fake LLM seconds per call (default 2)")
    p.add_argument("--dim", type=int, help="embedding dimension (default 1536)")
    p.add_argument("--variants", help="repository variants, e.g. current,exact")
    p.add_argument("--reuse", action="store_true", help="reuse bench databases already built")
    p.add_argument("--output", help="report file (default bench/runs/<date>-<time>.md)")
    p.add_argument("--no-append", action="store_true", help="print the report only")
    p.add_argument("--profile-bot", help="write a cProfile dump of the bot process here")
    return p


async def _run(args: argparse.Namespace) -> int:
    if args.alerts:
        import tempfile
        from pathlib import Path

        from bench.alerts import run_alerts

        alerts = await run_alerts(10_000, 2, Path(tempfile.gettempdir()))
        print(alerts.summary(), flush=True)
        return 0 if alerts.ok else 1
    if args.soak and args.chaos:
        from bench.chaos import run_chaos

        chaos = await run_chaos(args.minutes, args.rate, args.lease)
        print(chaos.summary(), flush=True)
        return 0 if chaos.ok else 1
    if args.soak:
        from bench.soak import run_soak

        report = await run_soak(5000, 200)
        print(report.summary(), flush=True)
        return 0 if report.ok else 1
    from bench.runner import run_cli

    return await run_cli(args, get_settings())


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging()
    try:
        return asyncio.run(_run(args))
    except SommelierError as exc:
        print(f"sommelier bench: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
