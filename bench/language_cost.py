"""What reading a message costs, this checkout against another, side by side.

`python -m bench.language_cost --before PATH` times, for every message of the language sets
(both parts: single messages, knowledge questions, every dialog turn), the reading an answer
does of its words — the one reading of a message (`core.language.reading.read`: what it is,
its filters, what it changes in the request before), or in an older checkout its readers one
by one (`read_message`, `parse_query`, `read_followup`) — and the claims check of a card's why
(`read_text` over a sentence the model might write). Each message is read cold: any message
caches are cleared before it, the word caches of a running process stay warm (a bot has read
most words before). The two checkouts run in alternating pairs of subprocesses on one machine,
each with its own code on `PYTHONPATH`; the report gives p50 and p95 per message and the
CPU reference (`bench.report.cpu_reference_ms`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_WHY = (
    "Урожай 2019 года, сорт саперави из Кахетии. Его делает Tbilvino, выдержка 6 месяцев "
    "в дубе. Крепость 13 %, к шашлыку и сыру."
)


def _messages(root: Path) -> list[str]:
    texts: list[str] = []
    for path in sorted((root / "bench" / "eval").glob("*/*.json")):
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for item in data.get("messages", []):
            texts.append(item["say"])
        for item in data.get("questions", []):
            texts += item["wordings"]
        for dialog in data.get("dialogs", []):
            texts += [say for turn in dialog["turns"] for say in turn["say"]]
    return list(dict.fromkeys(texts))


def _clear(functions: list[Any]) -> None:
    for function in functions:
        clear = getattr(function, "cache_clear", None)
        if clear is not None:
            clear()


def measure(messages: list[str]) -> list[float]:
    """Milliseconds per message, in this process's code."""
    from core.language import claims, knowledge, request
    from core.language.claims import read_text

    cached = [claims.read_sentence, getattr(request, "parse_query", None)]
    cached.append(getattr(knowledge, "rank_knowledge", None))
    try:
        from core.language.reading import read

        def reading(text: str) -> None:
            read(text)

    except ImportError:  # an older checkout: its readers one by one, as its turn called them
        from core.language import kinds
        from core.language.followups import read_followup

        cached += [getattr(kinds, "read_message", None), getattr(kinds, "match_knowledge", None)]

        def reading(text: str) -> None:
            kinds.read_message(text)
            request.parse_query(text)
            read_followup(text)

    for text in messages[:50]:  # warm the word caches and the knowledge index
        reading(text)
    timings: list[float] = []
    for text in messages:
        _clear([c for c in cached if c is not None])
        started = time.perf_counter()
        reading(text)
        read_text(_WHY)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def _run_side(code: Path, messages_file: Path) -> list[float]:
    # This file runs in both: only the product code it imports comes from `code`.
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(
        [sys.executable, __file__, "--measure", str(messages_file)],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    timings: list[float] = json.loads(done.stdout)
    return timings


def _quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.language_cost", description=__doc__)
    parser.add_argument("--before", type=Path, help="the other checkout (a directory)")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure is not None:  # the child: one side, one run
        messages = json.loads(args.measure.read_text(encoding="utf-8"))
        print(json.dumps(measure(messages)))
        return 0
    if args.before is None:
        parser.error("--before PATH is required")
    here = Path(__file__).resolve().parents[1]
    messages = _messages(here)
    messages_file = here / ".language_cost_messages.json"
    messages_file.write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    from bench.report import cpu_reference_ms

    reference = cpu_reference_ms()
    sides: dict[str, list[float]] = {"before": [], "now": []}
    try:
        for _ in range(args.pairs):
            sides["before"] += _run_side(args.before.resolve(), messages_file)
            sides["now"] += _run_side(here, messages_file)
    finally:
        messages_file.unlink(missing_ok=True)
    print(
        f"Reading a message: {len(messages)} messages × {args.pairs} alternating pairs; "
        f"CPU reference {reference:.0f} ms\n"
    )
    print("| side | p50 ms | p95 ms | mean ms |\n| --- | --- | --- | --- |")
    for name, values in sides.items():
        print(
            f"| {name} | {_quantile(values, 0.5):.2f} | {_quantile(values, 0.95):.2f} | "
            f"{statistics.fmean(values):.2f} |"
        )
    p95 = _quantile(sides["now"], 0.95) - _quantile(sides["before"], 0.95)
    print(f"\np95 difference, now − before: {p95:+.2f} ms per message")
    return 0


if __name__ == "__main__":
    sys.exit(main())
