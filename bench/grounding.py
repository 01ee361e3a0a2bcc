"""`python -m bench.grounding`: what the grounded-prose check costs per answer, without a database.

Answers of three demo-catalog wines each, with prose of two kinds: an honest model's (each why
the wine's own name and description, a true intro) and an inventing model's
(fakes/inventing_model.py: nine claims per why, most false). The caches of sentences and of
catalog rows are emptied before each answer, so each answer is read as if its sentences and
its wines were new — the cost of a real answer, not of a repeated one; what is kept by word (a
word's stems, its dictionary parse, its sounds) or by a catalog term (a grape's, a country's,
a pairing's canonical name) stays warm, as in a running bot. The agent benchmark (`python -m
bench`) measures the same step inside the whole pipeline (`grounding` in the agent-overhead
table). Wall time per answer is printed for each kind of prose, and the CPU time of the check
(`cpu`, all answers), which other processes on a busy machine do not inflate. `--digest`
prints instead a sha256 of every sentence of the same answers with its verdict (kept or
dropped) and the prose as it comes out of the check: a change that only makes the check faster
must leave it unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
import uuid
from collections.abc import Iterator
from typing import Any

from bench.stats import Summary
from core.language.claims import split_sentences
from core.language.reading import Reading, read
from core.recommendation import RecommendedWine
from fakes.inventing_model import INVENTED_CLOSING, invented_intro, invented_why
from repositories.models import Wine
from seeds.loader import load_seed_file
from services.agent import forget_prose_readings, ground_prose

QUESTION = "красное сухое к стейку до 3000"


def _rows() -> list[Wine]:
    rows = []
    for record in load_seed_file():
        fields: dict[str, Any] = record.model_dump()
        fields = {k: v for k, v in fields.items() if hasattr(Wine, k)}
        rows.append(Wine(id=uuid.uuid4(), **fields))
    return rows


Answer = tuple[str, Reading, str, list[RecommendedWine], str]  # kind, asked, intro, cards, closing


def _answers(answers: int, seed: int) -> Iterator[Answer]:
    rows = _rows()
    asked = read(QUESTION)
    rng = random.Random(seed)
    for index in range(answers):
        kind = "honest" if index % 2 == 0 else "inventing"
        picked = rng.sample(rows, 3)
        if kind == "honest":
            whys = [f"{w.name}: {w.description}" for w in picked]
            intro, closing = "Вот три вина из каталога.", "Что ещё подобрать?"
        else:
            whys = [invented_why(list(w.grape_varieties), w.country) for w in picked]
            intro, closing = invented_intro([w.country for w in picked]), INVENTED_CLOSING
        wines = [
            RecommendedWine.from_wine(w, why, row=w) for w, why in zip(picked, whys, strict=True)
        ]
        yield kind, asked, intro, wines, closing


def measure(answers: int = 300, seed: int = 31) -> dict[str, Summary]:
    out: dict[str, list[float]] = {"honest": [], "inventing": [], "cpu": []}
    for kind, asked, intro, wines, closing in _answers(answers, seed):
        forget_prose_readings()
        started, cpu = time.perf_counter(), time.thread_time()
        ground_prose(asked, intro, wines, closing)
        out["cpu"].append((time.thread_time() - cpu) * 1000)
        out[kind].append((time.perf_counter() - started) * 1000)
    both = out["honest"] + out["inventing"]
    return {name: Summary.of(values) for name, values in (*out.items(), ("all", both))}


def digest(answers: int = 300, seed: int = 31) -> tuple[str, int, int]:
    """(sha256 of every sentence's verdict and of the prose the check gives back, sentences,
    sentences kept) over the answers `measure` times, each read cold as there."""
    verdicts = hashlib.sha256()
    sentences = kept = 0
    for _, asked, intro, wines, closing in _answers(answers, seed):
        written = [wine.why for wine in wines]
        forget_prose_readings()
        grounded_intro, grounded_closing, report = ground_prose(asked, intro, wines, closing)
        parts = [("intro", intro, grounded_intro), ("closing", closing, grounded_closing)]
        parts += [("why", why, wine.why) for why, wine in zip(written, wines, strict=True)]
        for part, before, after in parts:
            left = split_sentences(after)
            for sentence in split_sentences(before):
                verdict = "kept" if sentence in left else "dropped"
                sentences += 1
                kept += verdict == "kept"
                verdicts.update(f"{part}\t{verdict}\t{sentence}\n".encode())
            verdicts.update(f"{part} as given back\t{after}\n".encode())
        dropped = sorted(report.dropped.items())
        verdicts.update(f"{dropped} {report.why_sentences} {report.why_kept}\n".encode())
    return verdicts.hexdigest(), sentences, kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.grounding", description=__doc__)
    parser.add_argument("--answers", type=int, default=300)
    parser.add_argument("--digest", action="store_true", help="the verdicts' sha256, no timing")
    args = parser.parse_args(argv)
    if args.digest:
        sha, sentences, kept = digest(args.answers)
        print(f"grounding verdicts: {sentences} sentences, {kept} kept, sha256 {sha}")
        return 0
    measure(20)  # warm-up: imports, the stemmer's own tables
    for name, summary in measure(args.answers).items():
        print(
            f"grounding check, {name}: {summary.n} answers, p50 {summary.p50:.2f} ms, "
            f"p95 {summary.p95:.2f} ms, max {summary.max:.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
