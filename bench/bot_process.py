"""The bot under load: exactly `sommelier bot` (long polling), in a process of its own.

bench.concurrency starts it with the fake servers' URLs and the bench database in its
environment. The only addition is bookkeeping: the SQLAlchemy pool's high-water mark and the
log records at WARNING and above, and the round trips to PostgreSQL (statements,
BEGIN, COMMIT, ROLLBACK), written as JSON to BENCH_STATS_FILE when the bot exits
(SIGTERM). With BENCH_PROFILE set, a cProfile dump (CPU time) of the run after start-up is
written there too.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import logging
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import asyncpg
import asyncpg.connection
import asyncpg.prepared_stmt
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

import services.app.runtime as runtime_module
import sommelier.serve as serve_module
from core.errors import SettingsError
from core.settings import Settings, get_settings
from repositories.database import DatabaseLocation, serving_connections
from sommelier.logs import configure_logging
from sommelier.serve import run_bot

try:
    from sommelier.event_loop import run as _run_loop
except ImportError:  # an older checkout run by bench.turn_cost --before: the standard loop

    def _run_loop(main: Coroutine[Any, Any, int], choice: str = "asyncio") -> int:
        return asyncio.run(main)


class PoolStats:
    def __init__(self) -> None:
        self.capacity = 0
        self.checked_out = 0
        self.max_checked_out = 0
        self.checkouts = 0
        self.checkouts_at_capacity = 0
        self.connects = 0

    def attach(self, engine: AsyncEngine, settings: Settings) -> None:
        self.capacity = serving_connections(settings)
        pool = engine.sync_engine.pool
        event.listen(pool, "checkout", self._checkout)
        event.listen(pool, "checkin", self._checkin)
        event.listen(pool, "connect", self._connect)

    def _checkout(self, *_args: Any) -> None:
        self.checkouts += 1
        self.checked_out += 1
        self.max_checked_out = max(self.max_checked_out, self.checked_out)
        if self.checked_out >= self.capacity:
            self.checkouts_at_capacity += 1

    def _checkin(self, *_args: Any) -> None:
        self.checked_out -= 1

    def _connect(self, *_args: Any) -> None:
        self.connects += 1


class RoundTrips:
    """What goes over the wire to PostgreSQL, counted in asyncpg itself: every statement
    executed, every BEGIN, COMMIT and ROLLBACK, and every statement prepared (a cache miss of
    the per-connection statement cache). Each is one round trip. Statements are also counted
    by their shape (literals and parameter numbers folded) to show where a turn's go."""

    def __init__(self) -> None:
        self.kinds: Counter[str] = Counter()
        self.shapes: Counter[str] = Counter()

    def install(self) -> None:
        for name in ("execute", "executemany", "fetch", "fetchval", "fetchrow", "fetchmany"):
            self._wrap(asyncpg.connection.Connection, name, query_of=lambda _self, q, *_a: q)
        for name in ("fetch", "fetchval", "fetchrow", "fetchmany", "executemany"):
            self._wrap(
                asyncpg.prepared_stmt.PreparedStatement,
                name,
                query_of=lambda stmt, *_a: stmt.get_query(),
            )
        self._wrap(asyncpg.connection.Connection, "prepare", query_of=None)

    def _wrap(self, cls: type, name: str, query_of: Any) -> None:
        original = getattr(cls, name)
        trips = self

        async def counted(*args: Any, **kwargs: Any) -> Any:
            trips.note(None if query_of is None else str(query_of(*args)))
            return await original(*args, **kwargs)

        setattr(cls, name, counted)

    def note(self, query: str | None) -> None:
        if query is None:
            self.kinds["prepare"] += 1
            return
        shape = re.sub(r"\$\d+|\d+", "N", " ".join(query.split()))
        head = shape.split(" ", 1)[0].rstrip(";").upper()
        if head in ("BEGIN", "COMMIT", "ROLLBACK"):
            self.kinds[head] += 1
            return
        self.kinds["statements"] += 1
        self.shapes[shape[:90]] += 1

    @property
    def total(self) -> int:
        return sum(self.kinds.values())


class CountingHandler(logging.Handler):
    """Counts WARNING+ records by logger and the start of the message."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        words = re.sub(r"\d+", "N", " ".join(record.getMessage().split()[:6]))
        self.counts[f"{record.levelname} {record.name}: {words}"] += 1


def main() -> int:
    stats_file = os.environ.get("BENCH_STATS_FILE")
    profile_file = os.environ.get("BENCH_PROFILE")
    configure_logging()
    counter = CountingHandler()
    logging.getLogger().addHandler(counter)
    try:
        settings = get_settings()
    except SettingsError as exc:
        print(f"bench bot: {exc}", file=sys.stderr)
        return 2

    pool = PoolStats()
    trips = RoundTrips()
    trips.install()
    original = runtime_module.make_engine

    def make_engine(
        location: DatabaseLocation, s: Settings, *, maintenance: bool = False
    ) -> AsyncEngine:
        engine = original(location, s, maintenance=maintenance)
        if not maintenance:  # the pool that serves users
            pool.attach(engine, s)
        return engine

    runtime_module.make_engine = make_engine  # type: ignore[assignment]
    # CPU time, not wall time: on a busy machine a wall-clock profile charges other processes'
    # time to whatever frame was running when the bot was descheduled.
    profiler = cProfile.Profile(time.process_time) if profile_file else None
    ready_file = os.environ.get("BENCH_READY_FILE")  # written once start-up is done
    if profiler is not None or ready_file:  # the profile: from the end of start-up, answers only
        frozen = serve_module.freeze_start_up

        def freeze_then_profile() -> None:
            frozen()
            if ready_file:
                Path(ready_file).touch()
            if profiler is not None:
                profiler.enable()

        serve_module.freeze_start_up = freeze_then_profile  # type: ignore[assignment]
    started = time.perf_counter()
    code = 1
    try:
        code = _run_loop(run_bot(settings), getattr(settings, "event_loop", "asyncio"))
    finally:
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(profile_file)
        if stats_file:
            times = os.times()
            with open(stats_file, "w", encoding="utf-8") as out:
                json.dump(
                    {
                        "exit_code": code,
                        "seconds": time.perf_counter() - started,
                        "cpu_seconds": times.user + times.system,
                        "pool_capacity": pool.capacity,
                        "pool_max_checked_out": pool.max_checked_out,
                        "pool_checkouts": pool.checkouts,
                        "pool_checkouts_at_capacity": pool.checkouts_at_capacity,
                        "pool_connects": pool.connects,
                        "round_trips": trips.total,
                        "round_trips_by_kind": dict(trips.kinds),
                        "statement_shapes": dict(trips.shapes.most_common(40)),
                        "warnings": dict(counter.counts),
                    },
                    out,
                    ensure_ascii=False,
                    indent=1,
                )
    return code


if __name__ == "__main__":
    sys.exit(main())
