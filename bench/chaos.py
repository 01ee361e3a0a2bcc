"""Chaos benchmark: bot processes killed with SIGKILL while they answer.

    python -m bench --soak --chaos [--minutes 10] [--rate 3] [--lease 30]

Two webhook replicas and one long-polling process share one embedded PostgreSQL. A fake model
answers every call after 1–5 s. Questions arrive at a steady rate for `minutes`: two thirds
from chats Telegram delivers by webhook (to a random live replica, retried on the other while
none answers, as Telegram does), one third from chats read by long polling. Every 30–60 s a
random one of the three processes is killed with SIGKILL and started again at once.

Afterwards, per question, from the ledger and from what the two fake Bot API servers accepted
(each process marks every Bot API call with the update it answers: bench/marked_bot.py,
bench/replies.py):
- unanswered: questions whose update was never finished, or whose chat was shown fewer parts
  of the answer (intro, cards, closing) than the ledger says were sent;
- duplicated: questions whose chat was shown a message of their answer twice;
- extra delay: time to the finished answer minus the model's own time in the attempt that
  answered (each question carries a tag, so the fake model knows whose time it spends); its
  p99 over the questions a kill touched, against 20 s (issue 39: a dead process is noticed by
  its heartbeat, not by each lease running out).

(The polling process reads its chats from a second fake Bot API server with its own update
ids: one real Telegram cannot serve a bot by webhook and polling at once. A process may send
an answer it took over from another route through its own server: the counts add both up.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.replies import Replies, some_ids
from bench.soak import (
    API_KEY,
    BOT_TOKEN,
    EMBEDDING_DIM,
    QUESTIONS,
    _adults,
    _arguments,
    _found,
    _question,
)

JSONDict = dict[str, Any]
FIRST_CHAT = 8_000_000
POLLING_UPDATE_IDS = 1_000_000_000
SECRET = "chaos-secret"
OURS = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_", "API_", "HTTP_")
P99_LIMIT_S = 20.0


@dataclass
class ChaosReport:
    minutes: float
    rate: float
    lease_seconds: float
    questions: int = 0
    answered: int = 0
    unanswered: int = 0
    duplicated: int = 0
    unanswered_updates: list[int] = field(default_factory=list)
    duplicated_updates: list[int] = field(default_factory=list)
    kills: dict[str, int] = field(default_factory=dict)
    taken_over: int = 0
    parked: int = 0
    notices: int = 0
    affected: int = 0
    extra_delay_p50_s: float = 0.0
    extra_delay_p99_s: float = 0.0
    extra_delay_max_s: float = 0.0
    unaffected_extra_p99_s: float = 0.0
    takeover_extra_p50_s: float = 0.0
    takeover_extra_max_s: float = 0.0
    error_lines: int = 0
    seconds: float = 0.0
    cpu_reference_ms: float = 0.0
    examples: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            self.unanswered == 0 and self.duplicated == 0 and self.extra_delay_p99_s <= P99_LIMIT_S
        )

    def summary(self) -> str:
        kills = ", ".join(f"{k} {v}" for k, v in sorted(self.kills.items()))
        return "\n".join(
            [
                f"chaos: {self.questions} questions in {self.minutes:g} min at {self.rate:g}/s; "
                f"SIGKILLs: {sum(self.kills.values())} ({kills}); lease {self.lease_seconds:g} s",
                f"  per update: answered {self.answered}, unanswered "
                f"{some_ids(self.unanswered_updates)}, duplicated "
                f"{some_ids(self.duplicated_updates)}",
                f"  taken over {self.taken_over}, parked {self.parked}, "
                f"«answer again» notices {self.notices}",
                f"  affected by a kill: {self.affected}; extra delay p50 "
                f"{self.extra_delay_p50_s:.1f} s, p99 {self.extra_delay_p99_s:.1f} s, max "
                f"{self.extra_delay_max_s:.1f} s (limit {P99_LIMIT_S:g} s); "
                f"unaffected p99 {self.unaffected_extra_p99_s:.2f} s",
                f"  of them taken over: extra delay p50 {self.takeover_extra_p50_s:.1f} s, "
                f"max {self.takeover_extra_max_s:.1f} s",
                f"  error log lines {self.error_lines}; {self.seconds:.0f} s in all; CPU reference "
                f"{self.cpu_reference_ms:.0f} ms; " + ("OK" if self.ok else "FAILED"),
                *[f"  e.g. {e}" for e in self.examples[:5]],
            ]
        )


class TaggedModel:
    """The soak's good model with 1–5 s per call, writing the question's tag into its text."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.model_seconds: dict[str, float] = defaultdict(float)

    async def __call__(self, body: JSONDict) -> Any:
        from fakes.openai_server import call, reply, tool_calls

        question = _question(body)
        found = re.search(r"q\d+x", question)
        tag = found.group(0) if found else "q0x"
        wines = _found(body)
        if wines is None:  # the first call of an attempt: a takeover starts the clock again
            self.model_seconds[tag] = 0.0
        delay = self.rng.uniform(1.0, 5.0)
        self.model_seconds[tag] += delay
        await asyncio.sleep(delay)
        if wines is None:
            arguments = _arguments(question.replace(tag, ""))
            return tool_calls(call("search_wines", arguments if len(arguments) > 1 else {}))
        if not wines:
            return tool_calls(call("search_wines", {"limit": 5}))
        parts = ["[INTRO]\nВот что я нашел в каталоге."]
        parts += [
            f"[WINE:{w['id']}]\nПодходит к вашему запросу по стилю и цене." for w in wines[:3]
        ]
        parts.append("[CLOSING]\nХорошего вечера!")
        return reply("\n".join(parts))


@dataclass
class Question:
    tag: str
    chat_id: int
    update_id: int
    route: str
    asked: float


class Processes:
    """The three bot processes, each restartable with the same settings."""

    def __init__(self, env: dict[str, str], ports: list[int], logs: Path) -> None:
        self.env = env
        self.ports = ports
        self.logs = logs
        self.children: dict[str, asyncio.subprocess.Process] = {}
        self.starts: Counter[str] = Counter()

    def names(self) -> list[str]:
        return [f"webhook-{i + 1}" for i in range(len(self.ports))] + ["polling"]

    async def start(self, name: str) -> None:
        env = dict(self.env)
        if name.startswith("webhook"):
            port = self.ports[int(name.split("-")[1]) - 1]
            env |= {
                "WEBHOOK_URL": "https://bot.example/webhook",
                "WEBHOOK_SECRET": SECRET,
                "HTTP_HOST": "127.0.0.1",
                "HTTP_PORT": str(port),
            }
        else:
            env["TELEGRAM_API_URL"] = env.pop("POLLING_API_URL")
        env.pop("POLLING_API_URL", None)
        self.starts[name] += 1
        log = (self.logs / f"{name}-{self.starts[name]}.log").open("wb")
        self.children[name] = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.marked_bot",
            env=env, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log,
        )  # fmt: skip

    async def kill(self, name: str) -> None:
        child = self.children[name]
        child.send_signal(signal.SIGKILL)
        await child.wait()

    async def stop_all(self) -> None:
        for child in self.children.values():
            if child.returncode is None:
                child.send_signal(signal.SIGTERM)
        for child in self.children.values():
            try:
                await asyncio.wait_for(child.wait(), 40)
            except TimeoutError:
                child.kill()


async def _deliver(http: Any, ports: list[int], update: JSONDict, rng: random.Random) -> None:
    """Like Telegram: POST to the webhook until a replica says 200, retrying while none does."""
    import aiohttp

    delay = 0.5
    while True:
        for port in rng.sample(ports, len(ports)):
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with http.post(
                    f"http://127.0.0.1:{port}/webhook",
                    json=update,
                    headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
                    timeout=aiohttp.ClientTimeout(total=10),
                ) as resp:
                    if resp.status == 200:
                        return
        await asyncio.sleep(delay)
        delay = min(delay * 2, 5.0)


async def _until_ready(http: Any, ports: list[int], polling: Any, timeout: float = 120) -> None:
    """Until both replicas answer /healthz and the polling process has set itself up (its
    deleteWebhook): on a busy machine the three start in 5 to 30 s, and questions asked before
    would count their wait as delay a kill caused."""
    import aiohttp

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        up = 0
        for port in ports:
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with http.get(f"http://127.0.0.1:{port}/healthz") as resp:
                    up += resp.status < 500
        if up == len(ports) and polling.sent("deleteWebhook"):
            return
        await asyncio.sleep(0.2)
    raise RuntimeError("the bot processes did not start within two minutes")


@dataclass
class Ledger:
    """What the ledger says of one question's update once the run is over."""

    attempts: int
    parked: bool
    parts: int  # parts of the answer recorded as sent: intro, each card, closing
    finished_at: float | None  # epoch seconds


def _count(
    report: ChaosReport,
    questions: dict[str, Question],
    ledger: dict[int, Ledger],
    servers: list[Any],
) -> None:
    """Per question, what its chat was shown for its update against the parts the ledger says
    were sent: the intro and the closing (two texts, whatever the ledger says) and a card for
    each of the rest. Fewer means a part is missing; one message shown twice is a duplicate."""
    from services.app.texts import T

    replies = Replies()
    for server in servers:
        replies.add(server.sent())
    notice, apology = f"sendMessage: {T.answer_again}", f"sendMessage: {T.apology}"
    ids = [q.update_id for q in questions.values()]
    for q in questions.values():
        row = ledger.get(q.update_id)
        shown = replies.of(q.update_id)
        report.notices += shown[notice]
        cards = sum(1 for key in shown if key.startswith("card: "))
        texts = sum(1 for key in shown if key.startswith("sendMessage: ")) - (
            (notice in shown) + (apology in shown)
        )
        if row is None or row.finished_at is None or row.parked:
            report.unanswered_updates.append(q.update_id)
            report.examples.append(f"{q.tag} ({q.route}) never finished: {row}")
        elif cards < row.parts - 2 or texts < 2:
            report.unanswered_updates.append(q.update_id)
            report.examples.append(
                f"{q.tag} ({q.route}), {row.parts} parts sent: {replies.example(q.update_id)}"
            )
    report.unanswered_updates.sort()
    report.duplicated_updates = replies.duplicated(ids)
    report.examples += [f"twice: {replies.example(u)}" for u in report.duplicated_updates[:5]]
    report.unanswered = len(report.unanswered_updates)
    report.duplicated = len(report.duplicated_updates)
    report.answered = len(set(ids) - set(report.unanswered_updates + report.duplicated_updates))


async def run_chaos(
    minutes: float = 10.0, rate: float = 3.0, lease: float = 30.0, seed: int = 11
) -> ChaosReport:
    import aiohttp
    from sqlalchemy import text

    from bench.report import cpu_reference_ms
    from core.settings import load_settings
    from fakes.openai_server import FakeOpenAIServer, responder
    from fakes.telegram_server import FakeTelegramServer
    from services.app.runtime import open_runtime

    rng = random.Random(seed)
    report = ChaosReport(minutes, rate, lease, cpu_reference_ms=cpu_reference_ms())
    data_dir = Path(tempfile.mkdtemp(prefix="sommelier-chaos-"))
    logs = data_dir / "logs"
    logs.mkdir()
    settings = load_settings(_env_file=None, data_dir=data_dir, embedding_dim=EMBEDDING_DIM)
    started = time.monotonic()
    questions: dict[str, Question] = {}
    model = TaggedModel(rng)
    try:
        async with (
            open_runtime(settings) as rt,
            FakeOpenAIServer(api_key=API_KEY, embedding_dim=EMBEDDING_DIM) as llm,
            FakeTelegramServer(BOT_TOKEN) as tg_hook,
            FakeTelegramServer(BOT_TOKEN) as tg_poll,
            aiohttp.ClientSession() as http,
        ):
            await rt.ensure_ready()
            chats = [FIRST_CHAT + i for i in range(300)]
            await _adults(rt, chats)
            hook_chats, poll_chats = chats[:200], chats[200:]
            llm.script(*[responder(model)] * int(minutes * 60 * rate * 6 + 1000))
            env = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
            env |= {
                "DATABASE_URL": rt.location.url.render_as_string(hide_password=False),
                "EMBEDDING_DIM": str(EMBEDDING_DIM),
                "LLM_API_KEY": API_KEY,
                "LLM_BASE_URL": llm.base_url,
                "LLM_TIMEOUT_SECONDS": "20",
                "TELEGRAM_BOT_TOKEN": BOT_TOKEN,
                "TELEGRAM_API_URL": tg_hook.base_url,
                "POLLING_API_URL": tg_poll.base_url,
                "RATE_LIMIT_PER_MINUTE": "10000",
                "UPDATE_LEASE_SECONDS": str(lease),
                "LOG_FORMAT": "json",
            }
            procs = Processes(env, [free_port(), free_port()], logs)
            for name in procs.names():
                await procs.start(name)
            await _until_ready(http, procs.ports, tg_poll)
            next_poll_id = POLLING_UPDATE_IDS
            deliveries: set[asyncio.Task[None]] = set()
            end = time.monotonic() + minutes * 60
            next_kill = time.monotonic() + rng.uniform(30, 60)
            n = 0
            while time.monotonic() < end:
                if time.monotonic() >= next_kill:
                    victim = rng.choice(procs.names())
                    await procs.kill(victim)
                    report.kills[victim] = report.kills.get(victim, 0) + 1
                    await procs.start(victim)
                    next_kill = time.monotonic() + rng.uniform(30, 60)
                n += 1
                tag = f"q{n}x"
                ask = f"{rng.choice(QUESTIONS[:20])} {tag}"
                if rng.random() < 2 / 3:
                    chat = rng.choice(hook_chats)
                    update = tg_hook.accept_update(tg_hook.message_update(chat, ask))
                    questions[tag] = Question(
                        tag, chat, update["update_id"], "webhook", time.time()
                    )
                    task = asyncio.create_task(_deliver(http, procs.ports, update, rng))
                    deliveries.add(task)
                    task.add_done_callback(deliveries.discard)
                else:
                    chat = rng.choice(poll_chats)
                    update = tg_poll.message_update(chat, ask)
                    update["update_id"] = next_poll_id
                    next_poll_id += 1
                    tg_poll.push_update(update)
                    questions[tag] = Question(
                        tag, chat, update["update_id"], "polling", time.time()
                    )
                await asyncio.sleep(rng.expovariate(rate))
            report.questions = len(questions)
            ids = [q.update_id for q in questions.values()]
            for _ in range(600):  # until every update is finished or parked (≤ 10 min)
                async with rt.engine.connect() as conn:
                    left = await conn.scalar(
                        text(
                            "SELECT count(*) FROM telegram_updates WHERE update_id = ANY(:ids)"
                            " AND finished_at IS NULL AND parked_at IS NULL"
                        ),
                        {"ids": ids},
                    )
                    stored = await conn.scalar(
                        text("SELECT count(*) FROM telegram_updates WHERE update_id = ANY(:ids)"),
                        {"ids": ids},
                    )
                if not deliveries and stored == len(ids) and not left:
                    break
                await asyncio.sleep(1)
            await asyncio.sleep(2)
            await procs.stop_all()
            async with rt.engine.connect() as conn:
                rows = (
                    await conn.execute(
                        text(
                            "SELECT update_id, attempts, parked_at IS NOT NULL, sent_parts,"
                            " extract(epoch FROM finished_at) "
                            "FROM telegram_updates WHERE update_id = ANY(:ids)"
                        ),
                        {"ids": ids},
                    )
                ).all()
            ledger = {
                int(r[0]): Ledger(int(r[1]), bool(r[2]), int(r[3]), r[4] and float(r[4]))
                for r in rows
            }
            report.taken_over = sum(1 for row in ledger.values() if row.attempts > 1)
            report.parked = sum(1 for row in ledger.values() if row.parked)
            _count(report, questions, ledger, [tg_hook, tg_poll])
            _delays(report, questions, model, ledger)
            report.error_lines = sum(
                f.read_text(errors="replace").count('"level": "ERROR"') for f in logs.iterdir()
            )
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
    report.seconds = time.monotonic() - started
    return report


def _delays(
    report: ChaosReport, questions: dict[str, Question], model: TaggedModel,
    ledger: dict[int, Ledger],
) -> None:  # fmt: skip
    """Extra delay = time to the finished answer − the model's time in the answering attempt.
    The clock of a question starts when it arrives or when the previous question of its chat
    is answered, whichever is later (a chat's questions are answered in order). A question
    counts as affected when it was taken over, or waited more than 1 s beyond the model
    (its process was down, or an earlier question of its chat was taken over)."""
    affected: list[float] = []
    unaffected: list[float] = []
    taken: list[float] = []
    slowest: list[tuple[float, str]] = []
    free_at: dict[int, float] = {}
    for q in sorted(questions.values(), key=lambda q: q.asked):
        row = ledger.get(q.update_id)
        if row is None or row.finished_at is None:
            continue
        begins = max(q.asked, free_at.get(q.chat_id, 0.0))
        free_at[q.chat_id] = row.finished_at
        extra = max(0.0, row.finished_at - begins - model.model_seconds.get(q.tag, 0.0))
        if row.attempts > 1:
            taken.append(extra)
        if row.attempts > 1 or extra > 1.0:
            affected.append(extra)
            slowest.append((extra, f"{q.tag} {q.route} attempts {row.attempts}"))
        else:
            unaffected.append(extra)
    report.affected = len(affected)
    if affected:
        ordered = sorted(affected)
        report.extra_delay_p50_s = statistics.median(ordered)
        report.extra_delay_p99_s = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        report.extra_delay_max_s = ordered[-1]
        report.examples += [f"{e:.1f} s extra: {what}" for e, what in sorted(slowest)[-3:]]
    if taken:
        report.takeover_extra_p50_s = statistics.median(taken)
        report.takeover_extra_max_s = max(taken)
    if unaffected:
        ordered = sorted(unaffected)
        report.unaffected_extra_p99_s = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main(minutes: float, rate: float, lease: float, as_json: bool = False) -> int:
    report = asyncio.run(run_chaos(minutes, rate, lease))
    print(json.dumps(asdict(report), ensure_ascii=False) if as_json else report.summary())
    return 0 if report.ok else 1
