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
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import asyncpg
import psutil

from bench import llm_script
from bench.db import BenchDatabase, add_users
from bench.stats import Summary
from bench.workload import QUESTIONS
from bot.texts import T
from core.settings import Settings
from fakes.openai_server import FakeOpenAIServer
from fakes.telegram_server import FakeTelegramServer, SentCall

FIRST_CHAT_ID = 700_000_001
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


async def _wait(predicate: Any, timeout: float, proc: asyncio.subprocess.Process) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if predicate():
            return True
        if proc.returncode is not None:
            return False
        await asyncio.sleep(0.05)
    return predicate()


async def run_concurrency(
    settings: Settings,
    db: BenchDatabase,
    *,
    chats: int = 1000,
    latency: float = 2.0,
    profile: Path | None = None,
    log_dir: Path | None = None,
) -> ConcurrencyReport:
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
        llm.latency = latency
        llm_script.script(llm, 3 * (chats + WARMUP_CHATS) + 50)
        env = _child_env(settings, db, tg, llm.base_url, stats_file, profile)
        log_path = logs / "bot.log"
        with _open_log(log_path) as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.bot_process",
                env=env,
                cwd=str(workdir),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        child = psutil.Process(proc.pid)
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

        sampler: asyncio.Task[None] | None = None
        try:
            ready = await _wait(lambda: bool(tg.sent("deleteWebhook")), 120, proc)
            if not ready:
                raise RuntimeError(f"the bot did not start; see {log_path}")
            for index, chat_id in enumerate(warmup_ids):
                tg.push_update(tg.message_update(chat_id, QUESTIONS[index % len(QUESTIONS)]))
            await _wait(lambda: all(c in tg.closed_at for c in warmup_ids), 60 + 4 * latency, proc)
            sampler = asyncio.create_task(sample())
            harness = psutil.Process()
            cpu_before = (_cpu(child), _cpu(harness), _machine_cpu())
            pushed: dict[int, float] = {}
            started = time.perf_counter()
            for index, chat_id in enumerate(chat_ids):
                tg.push_update(tg.message_update(chat_id, QUESTIONS[index % len(QUESTIONS)]))
                pushed[chat_id] = time.perf_counter()
            await _wait(
                lambda: all(c in tg.closed_at or c in tg.failed for c in chat_ids),
                120 + 10 * latency + chats * 0.1,
                proc,
            )
            finished = time.perf_counter()
            cpu_after = (_cpu(child), _cpu(harness), _machine_cpu())
            peak_rss = _peak_rss_mb(proc.pid)
        finally:
            sampling = False
            if sampler is not None:
                with contextlib.suppress(Exception):
                    await sampler
            await monitor.close()
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
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
        text = log_path.read_text(encoding="utf-8", errors="replace")
        for line in text.splitlines():
            if '"event": "answer"' in line:
                with contextlib.suppress(ValueError, IndexError):
                    paths[json.loads(line[line.index("{") :])["path"]] += 1
        for line in text.splitlines():
            if "Traceback" in line:
                errors["tracebacks in the bot log"] += 1
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
            pool_capacity=int(stats.get("pool_capacity", settings.db_pool_size * 2)),
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
        )
