"""The cost of one turn in the bot, this checkout against another, side by side.

`python -m bench.turn_cost --before PATH` runs `sommelier bot` (long polling, every middleware,
the durable intake) from this checkout and from the checkout at PATH in alternating pairs on
the same bench database, fake Telegram and fake model, and prints per answer: the bot's CPU
and its round trips to PostgreSQL (statements, BEGIN, COMMIT, ROLLBACK), with the statement
shapes of the last pair. Both sides run this checkout's `bench.bot_process`, so the
bookkeeping is the same; only the product code differs. Chats arrive at a steady rate so the
figure is a turn's own cost, not a burst's queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bench.catalog import Basis
from bench.concurrency import ConcurrencyReport, run_concurrency
from bench.db import prepare
from bench.report import cpu_reference_ms
from core.settings import get_settings
from sommelier.logs import configure_logging


@dataclass
class Side:
    name: str
    code: Path | None
    runs: list[ConcurrencyReport] = field(default_factory=list)

    def cpu_ms(self) -> list[float]:
        return [r.bot_cpu_ms_per_answer for r in self.runs]

    def trips(self) -> list[float]:
        return [r.round_trips_per_answer for r in self.runs]


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def render(sides: list[Side], args: argparse.Namespace, reference_ms: float) -> str:
    lines = [
        f"Turn cost: {args.chats} chats at {args.rate}/s, model {args.latency} s per call, "
        f"{args.size} wines, {args.pairs} alternating pairs; CPU reference {reference_ms:.0f} ms",
        "",
        "| side | bot CPU ms per answer (median; runs) | round trips per answer | answered |",
        "| --- | --- | --- | --- |",
    ]
    for side in sides:
        runs = ", ".join(f"{v:.1f}" for v in side.cpu_ms())
        answered = sum(r.completed for r in side.runs)
        asked = sum(r.chats for r in side.runs)
        lines.append(
            f"| {side.name} | {_median(side.cpu_ms()):.1f} ({runs}) | "
            f"{_median(side.trips()):.1f} | {answered}/{asked} |"
        )
    if len(sides) == 2 and sides[0].runs and sides[1].runs:
        cpu = _median(sides[1].cpu_ms()) / _median(sides[0].cpu_ms())
        trips = _median(sides[1].trips()) / _median(sides[0].trips())
        lines += ["", f"{sides[1].name} / {sides[0].name}: CPU {cpu:.0%}, round trips {trips:.0%}"]
    for side in sides:
        if not side.runs:
            continue
        last = side.runs[-1]
        per = last.answers_in_process or 1
        kinds = ", ".join(f"{k} {v / per:.2f}" for k, v in sorted(last.round_trips.items()))
        calls = ", ".join(
            f"{m} {n / last.chats:.2f}" for m, n in sorted(last.telegram_calls.items())
        )
        lines += [
            "",
            f"{side.name}, per answer: {kinds}; model calls {last.llm_requests / last.chats:.2f}",
            f"Telegram calls per answer: {calls}",
            "",
        ]
        lines += [
            f"    {count / per:5.2f}  {shape}"
            for shape, count in sorted(last.statement_shapes.items(), key=lambda kv: -kv[1])
        ]
        if last.errors:
            lines.append(f"    errors: {last.errors}")
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> str:
    settings = get_settings()
    reference = cpu_reference_ms()
    db = await prepare(settings, args.size, args.dim, Basis(args.dim), reuse=True)
    sides = [Side("before", args.before)] if args.before else []
    sides.append(Side("now", None))
    try:
        for pair in range(args.pairs):
            order = sides if pair % 2 == 0 else list(reversed(sides))
            for side in order:
                report = await run_concurrency(
                    settings.model_copy(update={"embedding_dim": args.dim}),
                    db,
                    chats=args.chats,
                    latency=args.latency,
                    arrival_rate=args.rate,
                    code=side.code,
                    # 20 new chats a second, ten messages each, is beyond Telegram's 30 a second:
                    # CPU per answer is compared without the fake's 429s (the product still paces).
                    telegram_limits=False,
                    profile=Path(args.profile) if args.profile and side.code is None else None,
                )
                side.runs.append(report)
                print(
                    f"pair {pair + 1} {side.name}: {report.bot_cpu_ms_per_answer:.1f} ms CPU, "
                    f"{report.round_trips_per_answer:.1f} round trips per answer, "
                    f"{report.completed}/{report.chats} answered"
                    + (f"; {report.errors}" if report.errors else "")
                    + (f"; bot warnings {report.bot_warnings}" if report.bot_warnings else ""),
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        await db.engine.dispose()
    return render(sides, args, reference)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.turn_cost", description=__doc__)
    p.add_argument("--before", help="another checkout of this project (the baseline)")
    p.add_argument("--chats", type=int, default=300)
    p.add_argument("--rate", type=float, default=20.0, help="chats arriving per second")
    p.add_argument("--latency", type=float, default=1.0, help="fake model seconds per call")
    p.add_argument("--size", type=int, default=1000, help="wines in the bench catalog")
    p.add_argument("--dim", type=int, default=1536)
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--profile", help="a cProfile dump of this checkout's bot (last run) here")
    args = p.parse_args(argv)
    if args.before:
        args.before = Path(args.before).resolve()
    configure_logging()
    print(asyncio.run(run(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
