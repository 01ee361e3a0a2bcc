"""An alert to many subscribers, sent within Telegram's limits by real `sommelier bot` processes.

The fake Bot API answers 429 past Telegram's limits (about 30 messages a second per bot, one a
second per chat, twenty a minute per group). N subscribers get one alert each, queued in the
outbox at once; webhook replicas drain it through the shared limiter. Measured from what the
fake accepted: messages a second (first to last), the most in any one second, the most to one
chat in any one second, and every 429. Target: 10,000 subscribers at ≥ 25 messages/s, at most
one message per chat per second, no 429.

    python -m bench.alerts [--subscribers 10000] [--replicas 2]   (also `sommelier bench --alerts`)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shutil
import socket
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import psutil

from bench.report import cpu_reference_ms, machine
from fakes.telegram_server import FakeTelegramServer, SentCall

TARGET_RATE = 25.0
ALERT = "Появилось то, что вы ждали: Шабли Премье Крю 2021, 2 990 ₽"
FIRST_CHAT = 50_000_000
_STRIPPED_ENV = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "WEBHOOK_", "HTTP_", "ADMIN_")


@dataclass
class AlertReport:
    subscribers: int
    replicas: int
    sent: int
    seconds: float
    busiest_second: int
    busiest_chat_second: int
    too_many: int
    bot_cpu_seconds: float
    cpu_reference_ms: float

    @property
    def rate(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0

    @property
    def ok(self) -> bool:
        return (
            self.sent == self.subscribers
            and self.rate >= TARGET_RATE
            and self.busiest_chat_second <= 1
            and self.too_many == 0
        )

    def summary(self) -> str:
        return (
            f"alerts: {self.sent} of {self.subscribers} sent by {self.replicas} replica(s) in "
            f"{self.seconds:.1f} s = {self.rate:.1f} messages/s (target ≥ {TARGET_RATE:.0f}); "
            f"busiest second {self.busiest_second} (Telegram: ~30); one chat's busiest second "
            f"{self.busiest_chat_second} (≤ 1); 429s {self.too_many} (0); bot CPU "
            f"{self.bot_cpu_seconds:.1f} s ({self.bot_cpu_seconds / max(self.sent, 1) * 1000:.2f}"
            f" ms a message); CPU reference {self.cpu_reference_ms:.0f} ms; "
            + ("OK" if self.ok else "FAILED")
        )


def busiest_second(times: list[float]) -> int:
    times = sorted(times)
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= 1.0:
            start += 1
        most = max(most, end - start + 1)
    return most


def measure(calls: list[SentCall]) -> tuple[int, float, int, int]:
    """(sent, seconds first to last, busiest second, one chat's busiest second)."""
    sent = [c for c in calls if c.ok and c.method == "sendMessage"]
    if not sent:
        return 0, 0.0, 0, 0
    by_chat: dict[object, list[float]] = defaultdict(list)
    for call in sent:
        by_chat[call.chat_id].append(call.at)
    times = [c.at for c in sent]
    per_chat = max(busiest_second(t) for t in by_chat.values())
    return len(sent), max(times) - min(times), busiest_second(times), per_chat


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _healthy(url: str, process: asyncio.subprocess.Process) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(1200):
            if process.returncode is not None:
                raise RuntimeError("a bot process exited at start (see its log)")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url) as resp:
                    if resp.status == 200:
                        return
            await asyncio.sleep(0.1)
    raise RuntimeError("a bot process did not start listening")


async def run_alerts(subscribers: int, replicas: int, logs: Path) -> AlertReport:
    from core.settings import load_settings
    from services.app.runtime import open_runtime
    from services.app.sending.outbox import Outbox, OutgoingMessage

    data_dir = Path(tempfile.mkdtemp(prefix="sommelier-alerts-"))
    settings = load_settings(_env_file=None, data_dir=data_dir)
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with open_runtime(settings) as rt, FakeTelegramServer() as tg:
            await rt.ensure_ready()
            from services.app.database import Database

            dsn = rt.location.url.render_as_string(hide_password=False)
            env = {k: v for k, v in os.environ.items() if not k.startswith(_STRIPPED_ENV)}
            env |= {
                "DATABASE_URL": dsn,
                "DATA_DIR": str(data_dir),
                "TELEGRAM_BOT_TOKEN": tg.token,
                "TELEGRAM_API_URL": tg.base_url,
                "WEBHOOK_URL": "https://bench.invalid/telegram",
                "WEBHOOK_SECRET": "alerts-bench",
                "HTTP_HOST": "127.0.0.1",
                "WEEKLY_DIGEST": "false",
            }
            for index in range(replicas):
                port = _free_port()
                with (logs / f"alerts-bot-{index}.log").open("wb") as log:
                    procs.append(
                        await asyncio.create_subprocess_exec(
                            sys.executable,
                            "-m",
                            "sommelier.cli",
                            "bot",
                            env=env | {"HTTP_PORT": str(port)},
                            stdin=asyncio.subprocess.DEVNULL,
                            stdout=log,
                            stderr=log,
                        )
                    )
                await _healthy(f"http://127.0.0.1:{port}/healthz", procs[-1])
            outbox = Outbox(Database(rt.sessions))
            chats = range(FIRST_CHAT, FIRST_CHAT + subscribers)
            cpu_before = sum(_cpu(p.pid) for p in procs)
            await outbox.enqueue("alert", [OutgoingMessage(chat, ALERT) for chat in chats])
            deadline = time.monotonic() + subscribers / 10 + 60
            while await outbox.waiting() and time.monotonic() < deadline:  # noqa: ASYNC110
                await asyncio.sleep(0.5)
            cpu = sum(_cpu(p.pid) for p in procs) - cpu_before
            sent, seconds, busiest, per_chat = measure(tg.calls)
            return AlertReport(
                subscribers=subscribers,
                replicas=replicas,
                sent=sent,
                seconds=seconds,
                busiest_second=busiest,
                busiest_chat_second=per_chat,
                too_many=len([c for c in tg.rejected if c.status == 429]),
                bot_cpu_seconds=cpu,
                cpu_reference_ms=cpu_reference_ms(),
            )
    finally:
        for process in procs:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        for process in procs:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 30)
        shutil.rmtree(data_dir, ignore_errors=True)


def _cpu(pid: int) -> float:
    with contextlib.suppress(psutil.Error):
        times = psutil.Process(pid).cpu_times()
        return float(times.user + times.system)
    return 0.0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.alerts", description=__doc__)
    p.add_argument("--subscribers", type=int, default=10_000)
    p.add_argument("--replicas", type=int, default=2, help="webhook replicas sending")
    p.add_argument("--logs", default=tempfile.gettempdir(), help="the bot processes' logs")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Machine: {machine()}; load average {load}", flush=True)
    report = asyncio.run(run_alerts(args.subscribers, max(args.replicas, 1), Path(args.logs)))
    print(report.summary(), flush=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
