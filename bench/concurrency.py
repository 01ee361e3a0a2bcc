"""Concurrent chats through the real aiogram pipeline.

The bot (`bench.bot_process`, i.e. `sommelier bot` with long polling) runs in its own process
against the bench database, a fake Telegram Bot API server and a fake LLM whose every call takes
`latency` seconds. N age-confirmed users each send one question at the same moment. End-to-end
time runs from pushing the update to the fake Telegram server until the answer's closing message
for that chat arrives there; the pure LLM time of the scripted two-iteration run is 2 × latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import aiohttp
import asyncpg
import psutil

from bench import llm_script
from bench.db import BenchDatabase, add_users
from bench.stats import Summary
from bench.workload import QUESTIONS
from core.settings import Settings
from fakes.openai_server import FakeOpenAIServer
from fakes.telegram_server import FakeTelegramServer, SentCall
from repositories.database import serving_connections
from services.app.texts import T

#: The checkout this bench belongs to: its bot runs this product code.
CHECKOUT = Path(__file__).resolve().parents[1]
FIRST_CHAT_ID = 700_000_001
WEBHOOK_SECRET = "bench-webhook-secret"
WARMUP_CHATS = 10
_STRIPPED_ENV = (
    "LLM_",
    "EMBEDDING_",
    "TELEGRAM_",
    "DATABASE_",
    "WEBHOOK_",
    "ADMIN_",
    "HTTP_",
    "API_TOKEN",
    "BENCH_",
)


class TimedTelegram(FakeTelegramServer):
    """Notes when each chat's closing message arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.closed_at: dict[int, float] = {}
        self.failed: set[int] = set()
        self.trouble: Counter[str] = Counter()
        self._trouble_texts = {
            T.apology: "apology",
            T.unavailable: "service unavailable",
            T.rate_limited: "rate limited",
        }

    async def _send_message(self, params: dict[str, Any], call: SentCall) -> dict[str, Any]:
        result = await super()._send_message(params, call)
        visible = call.visible_text or ""
        chat_id = int(params["chat_id"])
        if llm_script.CLOSING in visible:
            self.closed_at.setdefault(chat_id, time.perf_counter())
        elif visible in self._trouble_texts:
            self.trouble[self._trouble_texts[visible]] += 1
            self.failed.add(chat_id)
        return result


@dataclass
class ConcurrencyReport:
    chats: int
    completed: int
    latency: float
    pure_llm_seconds: float
    e2e: Summary  # seconds
    wall_seconds: float
    throughput: float  # answers per second
    errors: dict[str, int]
    paths: dict[str, int]
    peak_rss_mb: float
    db_connections_peak: int
    db_active_peak: int
    pool_capacity: int
    pool_max_checked_out: int
    pool_checkouts_at_capacity: int
    cpu_seconds: dict[str, float]
    llm_requests: int
    telegram_calls: dict[str, int]
    bot_warnings: dict[str, int] = field(default_factory=dict)
    # Round trips to PostgreSQL over the whole run of the (first) bot process, warm-up included.
    round_trips: dict[str, int] = field(default_factory=dict)
    statement_shapes: dict[str, int] = field(default_factory=dict)
    answers_in_process: int = 0  # warm-up and measured answers that process gave

    @property
    def bot_cpu_ms_per_answer(self) -> float:
        return 1000 * self.cpu_seconds["bot"] / self.completed if self.completed else float("nan")

    @property
    def round_trips_per_answer(self) -> float:
        total = sum(self.round_trips.values())
        return total / self.answers_in_process if self.answers_in_process else float("nan")

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def p95_ratio(self) -> float:
        return self.e2e.p95 / self.pure_llm_seconds if self.pure_llm_seconds else float("nan")


def _child_env(
    settings: Settings,
    db: BenchDatabase,
    tg: FakeTelegramServer,
    llm_url: str,
    stats_file: Path,
    profile: Path | None,
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_STRIPPED_ENV)}
    env.update(
        {
            "TELEGRAM_BOT_TOKEN": tg.token,
            "TELEGRAM_API_URL": tg.base_url,
            "LLM_API_KEY": llm_script.API_KEY,
            "LLM_BASE_URL": llm_url,
            "LLM_MAX_RETRIES": "0",
            "LLM_TIMEOUT_SECONDS": "60",
            "DATABASE_URL": db.dsn,
            "DATA_DIR": str(settings.data_dir),
            "EMBEDDING_DIM": str(db.dim),
            "DB_POOL_SIZE": str(settings.db_pool_size),
            "SHUTDOWN_GRACE_SECONDS": "5",
            "BENCH_STATS_FILE": str(stats_file),
        }
    )
    if profile is not None:
        env["BENCH_PROFILE"] = str(profile)
    if ready := os.environ.get("BENCH_READY_FILE"):  # for a sampling profiler outside: py-spy
        env["BENCH_READY_FILE"] = ready
    return env


def _open_log(path: Path) -> BinaryIO:
    return path.open("wb")


def _peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    with contextlib.suppress(psutil.Error):
        return psutil.Process(pid).memory_info().rss / 1024 / 1024
    return float("nan")


def _cpu(process: psutil.Process) -> float:
    with contextlib.suppress(psutil.Error):
        times = process.cpu_times()
        return float(times.user + times.system)
    return 0.0


def _machine_cpu() -> float:
    """Busy CPU seconds of the whole machine (every core)."""
    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0)
    return float(
        sum(times) - idle - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)
    )


async def _wait(predicate: Any, timeout: float, bots: _Bots) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if predicate():
            return True
        if bots.exited():
            return False
        await asyncio.sleep(0.05)
    return predicate()


@dataclass
class _Bots:
    """The bot processes under test: one long-polling process, or webhook replicas that the
    harness delivers updates to round-robin (a load balancer in front of them)."""

    procs: list[asyncio.subprocess.Process]
    webhook_urls: list[str]
    logs: list[Path]
    http: aiohttp.ClientSession | None = None
    _next: int = 0

    async def deliver(self, tg: FakeTelegramServer, update: dict[str, Any]) -> None:
        if not self.webhook_urls:
            tg.push_update(update)
            return
        assert self.http is not None
        tg.accept_update(update)
        url = self.webhook_urls[self._next % len(self.webhook_urls)]
        self._next += 1
        headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
        async with self.http.post(url, json=update, headers=headers) as response:
            if response.status != 200:
                raise RuntimeError(f"the webhook answered {response.status}")

    def exited(self) -> bool:
        return any(p.returncode is not None for p in self.procs)


def _bot_command(code: Path | None) -> list[str]:
    """`python -m bench.bot_process`, or with `code` (another checkout, on PYTHONPATH) this
    bench's own bot_process run over that checkout's product code: the same bookkeeping
    measures both sides of a comparison."""
    if code is None:
        return [sys.executable, "-m", "bench.bot_process"]
    script = Path(__file__).with_name("bot_process.py")
    runner = f"import runpy; runpy.run_path({str(script)!r}, run_name='__main__')"
    return [sys.executable, "-c", runner]


async def _start_bots(
    env: dict[str, str], workdir: Path, logs: Path, replicas: int, code: Path | None = None
) -> _Bots:
    procs: list[asyncio.subprocess.Process] = []
    urls: list[str] = []
    paths: list[Path] = []
    for index in range(max(replicas, 1)):
        child_env = dict(env)
        if replicas:
            port = _free_port()
            child_env.update(
                {
                    "WEBHOOK_URL": "https://bench.invalid/telegram",
                    "WEBHOOK_SECRET": WEBHOOK_SECRET,
                    "HTTP_HOST": "127.0.0.1",
                    "HTTP_PORT": str(port),
                }
            )
            urls.append(f"http://127.0.0.1:{port}/telegram")
            if index:
                child_env.pop("BENCH_STATS_FILE", None)
                child_env.pop("BENCH_PROFILE", None)
        # The product code of `code`, or of this checkout: never whichever checkout the
        # package happens to be installed from (the bot runs in a scratch directory).
        child_env["PYTHONPATH"] = str(code or CHECKOUT)
        path = logs / ("bot.log" if index == 0 else f"bot-{index}.log")
        paths.append(path)
        with _open_log(path) as log:
            procs.append(
                await asyncio.create_subprocess_exec(
                    *_bot_command(code),
                    env=child_env,
                    cwd=str(workdir),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                )
            )
    return _Bots(procs, urls, paths, aiohttp.ClientSession() if urls else None)


async def _ready(bots: _Bots, tg: FakeTelegramServer) -> bool:
    deadline = time.perf_counter() + 120
    while time.perf_counter() < deadline and not bots.exited():
        if not bots.webhook_urls:
            if tg.sent("deleteWebhook"):
                return True
        else:
            assert bots.http is not None
            healthy = 0
            for url in bots.webhook_urls:
                with contextlib.suppress(aiohttp.ClientError):
                    async with bots.http.get(url.replace("/telegram", "/healthz")) as r:
                        healthy += r.status == 200
            if healthy == len(bots.webhook_urls):
                return True
        await asyncio.sleep(0.2)
    return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def run_concurrency(
    settings: Settings,
    db: BenchDatabase,
    *,
    chats: int = 1000,
    latency: float = 2.0,
    profile: Path | None = None,
    log_dir: Path | None = None,
    arrival_rate: float | None = None,
    replicas: int = 0,
    code: Path | None = None,
    telegram_limits: bool = True,
) -> ConcurrencyReport:
    """`chats` users each ask one question: all at once, or `arrival_rate` new chats per second.
    `replicas` ≥ 1 runs that many webhook processes instead of one long-polling process;
    `code` runs the product code of another checkout (side-by-side comparisons);
    `telegram_limits` False: the fake Bot API answers past Telegram's limits too (a checkout
    from before the limiter would meet 429s at a load beyond them, and measure its retries)."""
    chat_ids = [FIRST_CHAT_ID + i for i in range(chats)]
    warmup_ids = [FIRST_CHAT_ID + chats + i for i in range(WARMUP_CHATS)]
    await add_users(db.dsn, chat_ids + warmup_ids)
    workdir = Path(tempfile.mkdtemp(prefix="sommelier-bench-bot-"))
    logs = log_dir or workdir
    stats_file = workdir / "bot-stats.json"
    async with (
        TimedTelegram() as tg,
        FakeOpenAIServer(api_key=llm_script.API_KEY, embedding_dim=db.dim) as llm,
    ):
        tg.limits.enabled = telegram_limits
        llm.latency = latency
        llm_script.script(llm, 3 * (chats + WARMUP_CHATS) + 50)
        env = _child_env(settings, db, tg, llm.base_url, stats_file, profile)
        bots = await _start_bots(env, workdir, logs, replicas, code)
        children = [psutil.Process(p.pid) for p in bots.procs]
        monitor = await asyncpg.connect(db.dsn, server_settings={"application_name": "bench"})
        peaks = {"total": 0, "active": 0}
        sampling = True

        async def sample() -> None:
            while sampling:
                rows = await monitor.fetch(
                    "SELECT state, count(*) AS n FROM pg_stat_activity "
                    "WHERE datname = $1 AND application_name = 'sommelier' GROUP BY state",
                    db.name,
                )
                total = sum(int(r["n"]) for r in rows)
                active = sum(int(r["n"]) for r in rows if r["state"] != "idle")
                peaks["total"] = max(peaks["total"], total)
                peaks["active"] = max(peaks["active"], active)
                await asyncio.sleep(0.1)

        def bots_cpu() -> float:
            return sum(_cpu(c) for c in children)

        sampler: asyncio.Task[None] | None = None
        try:
            if not await _ready(bots, tg):
                raise RuntimeError(f"the bot did not start; see {bots.logs[0]}")
            for index, chat_id in enumerate(warmup_ids):
                await bots.deliver(
                    tg, tg.message_update(chat_id, QUESTIONS[index % len(QUESTIONS)])
                )
            await _wait(lambda: all(c in tg.closed_at for c in warmup_ids), 60 + 4 * latency, bots)
            sampler = asyncio.create_task(sample())
            harness = psutil.Process()
            cpu_before = (bots_cpu(), _cpu(harness), _machine_cpu())
            pushed: dict[int, float] = {}
            started = time.perf_counter()
            for index, chat_id in enumerate(chat_ids):
                if arrival_rate:
                    delay = started + index / arrival_rate - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                pushed[chat_id] = time.perf_counter()
                await bots.deliver(
                    tg, tg.message_update(chat_id, QUESTIONS[index % len(QUESTIONS)])
                )
            await _wait(
                lambda: all(c in tg.closed_at or c in tg.failed for c in chat_ids),
                120 + 10 * latency + chats * 0.1,
                bots,
            )
            finished = time.perf_counter()
            cpu_after = (bots_cpu(), _cpu(harness), _machine_cpu())
            peak_rss = max(_peak_rss_mb(p.pid) for p in bots.procs)
        finally:
            sampling = False
            if sampler is not None:
                with contextlib.suppress(Exception):
                    await sampler
            await monitor.close()
            if bots.http is not None:
                await bots.http.close()
            for proc in bots.procs:
                if proc.returncode is None:
                    proc.send_signal(signal.SIGTERM)
            for proc in bots.procs:
                try:
                    await asyncio.wait_for(proc.wait(), 30)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()

        done = [c for c in chat_ids if c in tg.closed_at]
        e2e = [tg.closed_at[c] - pushed[c] for c in done]
        last = max((tg.closed_at[c] for c in done), default=finished)
        wall = last - started
        errors: Counter[str] = Counter()
        silent = [c for c in chat_ids if c not in tg.closed_at and c not in tg.failed]
        if silent:
            errors["no answer"] = len(silent)
        errors.update(tg.trouble)
        if tg.rejected:
            errors["rejected Telegram calls"] = len(tg.rejected)
        if llm.errors:
            errors["invalid LLM requests"] = len(llm.errors)
        stats: dict[str, Any] = {}
        if stats_file.exists():
            stats = json.loads(stats_file.read_text(encoding="utf-8"))
        paths: Counter[str] = Counter()
        text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in bots.logs)
        for line in text.splitlines():
            if '"event": "answer"' in line:
                with contextlib.suppress(ValueError, IndexError):
                    paths[json.loads(line[line.index("{") :])["path"]] += 1
        for line in text.splitlines():
            if "Traceback" in line:
                errors["tracebacks in the bot log"] += 1
        if errors:  # the bot's logs stay for a look at what went wrong
            errors[f"the bot's logs are kept in {workdir}"] = 1
        else:  # nothing of a clean run is left behind in the temp directory
            shutil.rmtree(workdir, ignore_errors=True)
        return ConcurrencyReport(
            chats=chats,
            completed=len(done),
            latency=latency,
            pure_llm_seconds=2 * latency,
            e2e=Summary.of(e2e),
            wall_seconds=wall,
            throughput=len(done) / wall if wall > 0 else 0.0,
            errors=dict(errors),
            paths=dict(paths),
            peak_rss_mb=peak_rss,
            db_connections_peak=peaks["total"],
            db_active_peak=peaks["active"],
            pool_capacity=int(stats.get("pool_capacity", serving_connections(settings))),
            pool_max_checked_out=int(stats.get("pool_max_checked_out", -1)),
            pool_checkouts_at_capacity=int(stats.get("pool_checkouts_at_capacity", -1)),
            cpu_seconds={
                "bot": cpu_after[0] - cpu_before[0],
                "harness (fake servers)": cpu_after[1] - cpu_before[1],
                "PostgreSQL and the rest": (cpu_after[2] - cpu_before[2])
                - (cpu_after[0] - cpu_before[0])
                - (cpu_after[1] - cpu_before[1]),
            },
            llm_requests=len(llm.requests),
            telegram_calls=dict(Counter(c.method for c in tg.calls)),
            bot_warnings=dict(stats.get("warnings", {})),
            round_trips=dict(stats.get("round_trips_by_kind", {})),
            statement_shapes=dict(stats.get("statement_shapes", {})),
            answers_in_process=(len(done) + len(warmup_ids)) // max(replicas, 1),
        )


P95_LIMIT = 1.2  # sustained: p95 end-to-end within this multiple of the pure LLM time


@dataclass
class SustainedReport:
    """Chats arriving at a steady rate: the highest rate one deployment keeps up with."""

    replicas: int  # 0: one long-polling process; N: N webhook processes
    seconds: float
    steps: list[tuple[float, ConcurrencyReport]] = field(default_factory=list)

    @staticmethod
    def keeps_up(report: ConcurrencyReport) -> bool:
        return (
            report.error_count == 0
            and report.completed == report.chats
            and report.p95_ratio <= P95_LIMIT
        )

    @property
    def sustained_rate(self) -> float:
        kept = [rate for rate, report in self.steps if self.keeps_up(report)]
        return max(kept, default=0.0)

    @property
    def label(self) -> str:
        return "one process (polling)" if not self.replicas else f"{self.replicas} webhook replicas"


async def run_sustained(
    settings: Settings,
    db: BenchDatabase,
    *,
    rates: tuple[float, ...],
    seconds: float = 15.0,
    latency: float = 2.0,
    replicas: int = 0,
    log_dir: Path | None = None,
) -> SustainedReport:
    """Rates in increasing order, `seconds` of arrivals each, until one is not kept up with."""
    report = SustainedReport(replicas, seconds)
    for rate in rates:
        step = await run_concurrency(
            settings,
            db,
            chats=max(1, round(rate * seconds)),
            latency=latency,
            arrival_rate=rate,
            replicas=replicas,
            log_dir=log_dir,
        )
        report.steps.append((rate, step))
        if not report.keeps_up(step):
            break
    return report
