"""Durable intake of Telegram updates: our PostgreSQL ledger against `pgqueuer`, side by side.

    python -m bench.queue_engines            # needs: pip install -e '.[bench-queues]'

One embedded PostgreSQL; each engine runs the same two workloads in it:
- burst: 1,000 updates from 1,000 chats arrive at once; a webhook stores them one by one, 50 at
  a time; each is then handled (`asyncio.sleep(4)`, the LLM's time) with at most 200 in flight
  and marked done;
- sustained: 40 updates/s from distinct chats for 15 s, the same handling.

Engines:
- ledger: `bot.coordination.Coordinator` as the bot uses it (bot/intake.py): the
  process that stores an update works on it; one `renew` for all held ids every 10 s, a
  `take_expired` every 2 s, `finish` after the handler;
- pgqueuer: one job per update (payload: the update's JSON, dedupe key: its update_id), stored
  through an asyncpg pool of 19; a QueueManager with `max_concurrent_tasks=200` (its
  per-worker cap, like our semaphore) on a connection of its own, as pgqueuer's docs set it
  up: the same budget of 20 connections as the bot's serving pool. (Run over the pool instead,
  every statement costs one more transaction: asyncpg resets a connection it takes back.)

Measured per run: wall time until every update is done (ledger: `finish` committed; pgqueuer:
its status log flushed, which deletes the job), the time to store them all, latency from the
moment the webhook starts storing an update to its handler starting (p50/p95/max; in the
burst mostly the 200-in-flight cap, so also "lag": how much later than the cap allows), CPU
seconds of this process, and transactions per update from pg_stat_database (every pool
connection is closed after a run, so each backend's counters are flushed before reading).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bench.report import cpu_reference_ms, machine
from bench.stats import Summary

EMBEDDING_DIM = 64
POOL = 20  # the bot's serving pool: 2 × DB_POOL_SIZE
IN_FLIGHT = 200  # UpdateWorker's max_concurrent
WEBHOOK_PARALLEL = 50
RENEW_SECONDS = 10.0
RECOVER_SECONDS = 2.0
ENTRYPOINT = "telegram_update"

Store = Callable[[int, int], Awaitable[None]]


@dataclass(frozen=True)
class Workload:
    name: str
    updates: int
    rate: float | None  # None: all at once
    handle_seconds: float


@dataclass
class Probe:
    """When each update arrived, was stored, started; how many are done."""

    expected: int
    arrived: dict[int, float] = field(default_factory=dict)
    started: dict[int, float] = field(default_factory=dict)
    last_stored: float = 0.0
    done: int = 0
    finished: asyncio.Event = field(default_factory=asyncio.Event)

    def arrive(self, uid: int) -> None:
        self.arrived[uid] = time.perf_counter()

    def stored(self) -> None:
        self.last_stored = time.perf_counter()

    def start(self, uid: int) -> None:
        self.started[uid] = time.perf_counter()

    def finish(self, count: int = 1) -> None:
        self.done += count
        if self.done >= self.expected:
            self.finished.set()

    def pick_ms(self) -> Summary:
        return Summary.of([(t - self.arrived[u]) * 1000 for u, t in self.started.items()])

    def lag_ms(self, handle_seconds: float) -> Summary:
        """How much later than the 200-in-flight cap allows each handler started: the n-th
        start could be no earlier than its arrival and the (n-200)-th handler's end."""
        order = sorted(self.started.items(), key=lambda item: item[1])
        lags = []
        for n, (uid, t) in enumerate(order):
            free = order[n - IN_FLIGHT][1] + handle_seconds if n >= IN_FLIGHT else 0.0
            lags.append(max(0.0, t - max(self.arrived[uid], free)) * 1000)
        return Summary.of(lags)


@dataclass(frozen=True)
class Result:
    engine: str
    workload: str
    updates: int
    wall_s: float
    intake_s: float
    pick: Summary
    lag: Summary
    cpu_s: float
    commits: int
    rollbacks: int


def update_body(uid: int, chat: int) -> dict[str, Any]:
    """A Telegram message update of about 600 bytes of JSON."""
    person = {"id": chat, "first_name": "Анна", "last_name": "Петрова", "username": f"u{chat}"}
    text = "Посоветуйте красное сухое к утке с вишнёвым соусом, до 2000 ₽, лучше из Италии. " * 3
    return {
        "update_id": uid,
        "message": {
            "message_id": uid % 100_000,
            "from": person | {"is_bot": False, "language_code": "ru"},
            "chat": person | {"type": "private"},
            "date": 1_760_000_000 + uid % 100_000,
            "text": text.strip(),
        },
    }


async def arrive(workload: Workload, first_uid: int, store: Store) -> None:
    """The webhook: each update stored as it comes (a burst: 50 requests at a time)."""
    gate = asyncio.Semaphore(WEBHOOK_PARALLEL if workload.rate is None else workload.updates)

    async def one(i: int) -> None:
        async with gate:
            await store(first_uid + i, 10_000_000 + first_uid + i)  # one chat per update

    tasks: list[asyncio.Task[None]] = []
    started = time.perf_counter()
    for i in range(workload.updates):
        if workload.rate is not None:
            await asyncio.sleep(max(0.0, started + i / workload.rate - time.perf_counter()))
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)


async def xacts(dsn: str) -> tuple[int, int]:
    """(commits, rollbacks) of this database so far, on a connection of its own."""
    conn = await asyncpg.connect(dsn)
    try:
        row = await conn.fetchrow(
            "SELECT xact_commit, xact_rollback FROM pg_stat_database "
            "WHERE datname = current_database()"
        )
    finally:
        await conn.close()
    assert row is not None
    return int(row[0]), int(row[1])


async def settled_xacts(dsn: str) -> tuple[int, int]:
    await asyncio.sleep(1.0)  # closed backends flush their counters as they exit
    return await xacts(dsn)


async def _result(
    engine: str,
    dsn: str,
    workload: Workload,
    probe: Probe,
    t0: float,
    wall: float,
    cpu_s: float,
    before: tuple[int, int],
) -> Result:
    """One engine's figures for one workload; transactions counted since `before`."""
    after = await settled_xacts(dsn)
    return Result(
        engine,
        workload.name,
        workload.updates,
        wall,
        probe.last_stored - t0,
        probe.pick_ms(),
        probe.lag_ms(workload.handle_seconds),
        cpu_s,
        after[0] - before[0],
        after[1] - before[1],
    )


async def run_ledger(rt: Any, dsn: str, workload: Workload, first_uid: int) -> Result:
    from bot.coordination import Coordinator, Intake
    from services.app.database import Database
    from services.app.ops.ledger import Ledger

    for engine in {rt.engine, rt.maintenance}:
        await engine.dispose()
    before = await settled_xacts(dsn)
    coordinator = Coordinator(Ledger(Database(rt.sessions)))
    probe = Probe(workload.updates)
    slots = asyncio.Semaphore(IN_FLIGHT)
    held: set[int] = set()
    tasks: set[asyncio.Task[None]] = set()

    async def handle(uid: int) -> None:
        async with slots:
            probe.start(uid)
            await asyncio.sleep(workload.handle_seconds)
            await coordinator.finish(uid)
        held.discard(uid)
        probe.finish()

    async def store(uid: int, chat: int) -> None:
        probe.arrive(uid)
        stored, behind = await coordinator.intake([Intake(uid, chat, chat, update_body(uid, chat))])
        probe.stored()
        assert not behind, "every update has a chat of its own"
        for u in stored:
            held.add(u)
            task = asyncio.create_task(handle(u))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def keep_leases() -> None:  # UpdateWorker.keep_leases without the takeover branch
        since_renewal = 0.0
        while True:
            await asyncio.sleep(RECOVER_SECONDS)
            since_renewal += RECOVER_SECONDS
            if since_renewal >= RENEW_SECONDS:
                since_renewal = 0.0
                await coordinator.renew(list(held))
            assert not await coordinator.take_expired(), "nothing may expire here"

    cpu, t0 = time.process_time(), time.perf_counter()
    keeper = asyncio.create_task(keep_leases())
    await arrive(workload, first_uid, store)
    await probe.finished.wait()
    wall, cpu_s = time.perf_counter() - t0, time.process_time() - cpu
    keeper.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await keeper
    await rt.engine.dispose()
    return await _result("ledger", dsn, workload, probe, t0, wall, cpu_s, before)


async def install_pgqueuer(dsn: str) -> None:
    from pgqueuer import Queries

    conn = await asyncpg.connect(dsn)
    try:
        queries = Queries.from_asyncpg_connection(conn)
        if not await queries.schema_is_installed():
            await queries.install()
    finally:
        await conn.close()


async def run_pgqueuer(dsn: str, workload: Workload, first_uid: int) -> Result:
    from pgqueuer import Job, Queries, QueueManager
    from pgqueuer.adapters.drivers.asyncpg import AsyncpgDriver, AsyncpgPoolDriver

    probe = Probe(workload.updates)
    uid_of: dict[int, int] = {}

    @dataclass
    class DoneQueries(Queries):
        """Queries that report when a job's completion reaches the database."""

        async def log_jobs(self, job_status: list[Any]) -> None:
            await super().log_jobs(job_status)
            probe.finish(sum(1 for job, _, _ in job_status if uid_of.pop(job.id, None)))

    before = await settled_xacts(dsn)
    worker_conn = await asyncpg.connect(dsn)
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=POOL - 1)
    try:
        qm = QueueManager(DoneQueries(AsyncpgDriver(worker_conn)))
        producer = Queries(AsyncpgPoolDriver(pool))

        @qm.entrypoint(ENTRYPOINT)
        async def handle(job: Job) -> None:
            uid = int(json.loads(job.payload or b"{}")["update_id"])
            probe.start(uid)
            uid_of[job.id] = uid
            await asyncio.sleep(workload.handle_seconds)

        async def store(uid: int, chat: int) -> None:
            probe.arrive(uid)
            body = json.dumps(update_body(uid, chat), ensure_ascii=False).encode()
            await producer.enqueue(ENTRYPOINT, body, dedupe_key=str(uid), on_conflict="skip")
            probe.stored()

        worker = asyncio.create_task(qm.run(max_concurrent_tasks=IN_FLIGHT))
        await asyncio.sleep(0.5)  # its checks of the schema done, listening (counted in commits)
        cpu, t0 = time.process_time(), time.perf_counter()
        await arrive(workload, first_uid, store)
        await probe.finished.wait()
        wall, cpu_s = time.perf_counter() - t0, time.process_time() - cpu
        qm.shutdown.set()
        await worker
    finally:
        await pool.close()
        await worker_conn.close()
    return await _result("pgqueuer", dsn, workload, probe, t0, wall, cpu_s, before)


def table(results: list[Result]) -> str:
    head = (
        "| engine | workload | updates | wall s | intake s | pick p50 ms | pick p95 ms "
        "| pick max ms | lag p50 ms | lag p95 ms | CPU s | commits/update | rollbacks |"
    )
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for r in results:
        lines.append(
            f"| {r.engine} | {r.workload} | {r.updates} | {r.wall_s:.1f} | {r.intake_s:.2f} "
            f"| {r.pick.p50:.0f} | {r.pick.p95:.0f} | {r.pick.max:.0f} | {r.lag.p50:.0f} "
            f"| {r.lag.p95:.0f} | {r.cpu_s:.2f} "
            f"| {r.commits / r.updates:.2f} | {r.rollbacks} |"
        )
    return "\n".join(lines)


async def run(engines: list[str], workloads: list[Workload]) -> list[Result]:
    from core.settings import load_settings
    from services.app.runtime import open_runtime

    data_dir = Path(tempfile.mkdtemp(prefix="sommelier-queues-"))
    settings = load_settings(_env_file=None, data_dir=data_dir, embedding_dim=EMBEDDING_DIM)
    results: list[Result] = []
    try:
        async with open_runtime(settings) as rt:
            await rt.ensure_ready()
            dsn = rt.location.url.set(drivername="postgresql").render_as_string(hide_password=False)
            if "pgqueuer" in engines:
                await install_pgqueuer(dsn)
            first_uid = 1
            for engine in engines:
                for workload in workloads:
                    if engine == "ledger":
                        result = await run_ledger(rt, dsn, workload, first_uid)
                    else:
                        result = await run_pgqueuer(dsn, workload, first_uid)
                    first_uid += workload.updates
                    results.append(result)
                    print(table([result]).splitlines()[-1], flush=True)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.queue_engines", description=__doc__)
    p.add_argument("--engines", default="ledger,pgqueuer", help="comma-separated, run in order")
    p.add_argument("--burst", type=int, default=1000, help="updates in the burst (0: skip it)")
    p.add_argument("--rate", type=float, default=40.0, help="sustained: updates per second")
    p.add_argument("--seconds", type=float, default=15.0, help="sustained: seconds (0: skip)")
    p.add_argument("--handle", type=float, default=4.0, help="handler sleep (the LLM), seconds")
    args = p.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = set(engines) - {"ledger", "pgqueuer"}
    if unknown:
        p.error(f"unknown engines: {', '.join(sorted(unknown))}")
    workloads = []
    if args.burst > 0:
        workloads.append(Workload("burst", args.burst, None, args.handle))
    if args.seconds > 0:
        count = round(args.rate * args.seconds)
        workloads.append(Workload("sustained", count, args.rate, args.handle))
    logging.basicConfig(level=logging.WARNING)
    version = "not installed"
    with contextlib.suppress(ImportError):
        import pgqueuer

        version = pgqueuer.__version__
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Machine: {machine()}; load average {load}", flush=True)
    print(f"CPU reference: {cpu_reference_ms():.0f} ms; pgqueuer {version}", flush=True)
    results = asyncio.run(run(engines, workloads))
    print()
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
