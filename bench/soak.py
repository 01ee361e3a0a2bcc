"""Chaos soak: thousands of messages from many chats while the LLM, Telegram and the database
fail, against the real bot in a process of its own.

    python -m bench.soak --messages 5000 --chats 200

This process runs the fakes (the strict OpenAI and Telegram servers of tests/fakes) and an
embedded PostgreSQL in a temporary data dir; the bot runs as a child process doing exactly
what `sommelier bot` does (long polling; the only difference is a shorter Telegram request
timeout, so that injected Telegram stalls cost seconds, not minutes), logging each record as
one JSON line. Messages arrive at a steady rate from random chats. Meanwhile:
- a share of the LLM requests (10 % by default) gets a fault: hangs past the timeout, 429,
  5xx, 400, dropped connections, malformed or unknown tool calls, duplicate call ids, empty or
  unformatted answers, made-up ids, streams cut mid-answer, control characters;
- a share of the Telegram calls (2 %) fails: 429 with retry_after, 5xx, rejected markup,
  stalls of the typing indicator and of sendMessage, failed long polls and drafts;
- the database is stopped halfway through and started again.

Afterwards: every message must have been answered or explicitly refused («temporarily
unavailable») exactly once — judged per update id from what the fake Bot API accepted (the bot
process marks each call with the update it handles; bench/replies.py): none lost, none shown a
message twice —, no exception may have gone unhandled, every stored conversation must be one a
strict chat API accepts (each tool call paired with its result, no question without its
answer), and the bot's memory must not grow after warm-up (RSS is sampled after each tenth,
and once more at the end after the bot ran gc and malloc_trim).

Diagnostics: SOAK_DEBUG=1 echoes the bot's log lines; SOAK_OBJECTS=<dir> makes the bot write
after each tenth its live objects by type, Python's allocated blocks and glibc's heap figures
(in use / free but kept), plus a tracemalloc snapshot when SOAK_TRACE_FRAMES > 0 (slow).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.replies import Replies, mark_calls_with_their_update, some_ids
from core.language.request import parse_query

JSONDict = dict[str, Any]
API_KEY = "soak-key"
BOT_TOKEN = "424242:SOAK-token"
EMBEDDING_DIM = 64
LLM_TIMEOUT = 2.0
TELEGRAM_TIMEOUT = 2.0
RECORD = "SOAK "  # prefix of the child's JSON log lines
_NAMED_UPDATE = re.compile(r"\bupdates? (\d+)")
ABOUT_LINES = 6
FIRST_CHAT = 7_000_000

QUESTIONS = [
    "красное сухое к стейку до 2000",
    "белое сухое к рыбе",
    "игристое на день рождения до 3000",
    "розовое на пикник",
    "что взять к пицце?",
    "посоветуй вино к утке до 2500",
    "сладкое к десерту",
    "белое полусухое рислинг",
    "красное из Италии до 1500",
    "вино к сыру",
    "крепленое к шоколаду",
    "игристое брют к устрицам",
    "легкое красное на вечер",
    "грузинское красное полусладкое",
    "шардоне до 2000",
    "что выбрать к шашлыку?",
    "вино из Испании к паэлье",
    "подбери мерло до 1200",
    "пино нуар к грибам",
    "красное к баранине до 5000",
    "привет!",
    "спасибо, было вкусно",
    "чем брют отличается от экстра-брюта?",
    "что такое танины?",
]


# ---- the fake model ----------------------------------------------------------------------------


def _turn(body: JSONDict) -> list[JSONDict]:
    messages: list[JSONDict] = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[start:]


def _question(body: JSONDict) -> str:
    return str(_turn(body)[0].get("content") or "")


def _found(body: JSONDict) -> list[JSONDict] | None:
    """Wines the tools returned in this turn (None: no tool was called yet)."""
    results = [m for m in _turn(body) if m["role"] == "tool"]
    if not results:
        return None
    wines: list[JSONDict] = []
    for message in results:
        try:
            wines.extend(json.loads(message["content"]).get("wines", []))
        except (json.JSONDecodeError, AttributeError):
            continue
    return wines


def _formatted(ids: list[str]) -> str:
    parts = ["[INTRO]\nВот что я нашел в каталоге."]
    parts += [f"[WINE:{i}]\nПодходит к вашему запросу по стилю и цене." for i in ids]
    parts.append("[CLOSING]\nХорошего вечера!")
    return "\n".join(parts)


def _arguments(question: str) -> JSONDict:
    filters = parse_query(question).filters.model_dump(mode="json", exclude_none=True)
    for key in ("price_min", "price_max"):
        if key in filters:
            filters[key] = float(filters[key])
    return {**filters, "limit": 5}


def good_model(body: JSONDict) -> Any:
    """Searches with the question's filters, then answers with three of the wines found."""
    from fakes.openai_server import call, may_call_tools, reply, tool_calls

    catalog = [
        line.split(" | ")[0]
        for line in str(body["messages"][0].get("content") or "").splitlines()
        if line.count(" | ") >= 5
    ]
    found = _found(body)
    if not may_call_tools(body):
        ids = catalog[:3] if catalog else [str(w["id"]) for w in (found or [])[:3]]
        return reply(_formatted(ids) if ids else "Здравствуйте! Чем помочь с выбором вина?")
    question = _question(body)
    arguments = _arguments(question)
    if found:
        return reply(_formatted([str(w["id"]) for w in found[:3]]))
    if found is None and (len(arguments) > 1 or "посовет" in question or "что " in question):
        return tool_calls(call("search_wines", arguments))
    if found is not None:  # nothing matched: a broader search
        return tool_calls(call("search_wines", {"limit": 5}))
    return reply("Здравствуйте! Расскажите, к какому блюду или поводу подобрать вино?")


def llm_fault(rng: random.Random, body: JSONDict) -> tuple[str, Any]:
    from fakes.openai_server import (
        call,
        drop,
        error,
        hang,
        raw_tool_calls,
        reply,
        stream_cut,
        tool_calls,
    )

    dup = {"type": "function", "function": {"name": "search_wines", "arguments": "{}"}}
    kinds: dict[str, Any] = {
        "hang": lambda: hang(LLM_TIMEOUT + 1.5),
        "429": lambda: error(429, retry_after=0.3),
        "500": lambda: error(500),
        "502": lambda: error(502),
        "503": lambda: error(503),
        "400": lambda: error(400, "Invalid request."),
        "drop": drop,
        "malformed-arguments": lambda: tool_calls(call("search_wines", '{"wine_type": "re')),
        "unknown-tool": lambda: tool_calls(call("find_wine", {"q": "вино"})),
        "duplicate-ids": lambda: raw_tool_calls([{"id": "d", **dup}, {"id": "d", **dup}]),
        "empty-answer": lambda: reply(""),
        "unformatted-answer": lambda: reply("Возьмите что-нибудь красное, не ошибетесь."),
        "made-up-ids": lambda: reply(_formatted(["00000000-0000-0000-0000-000000000000"])),
        "stream-cut": lambda: stream_cut(_formatted(["x", "y"]), 30),
        "control-characters": lambda: reply("\x00[INTRO]\x1b Привет\x07"),
    }
    kind = rng.choice(list(kinds))
    return kind, kinds[kind]()


# ---- the bot process -----------------------------------------------------------------------------


class _JsonLines(logging.Handler):
    """WARNING and above, and the answer lines, as one JSON object per line on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.WARNING and record.name != "sommelier.answers":
            return
        exc = record.exc_info[1] if record.exc_info else None
        line = {
            "level": record.levelname,
            "name": record.name,
            "msg": record.getMessage()[:500],
            "exc": type(exc).__name__ if exc is not None else None,
            "detail": str(exc)[:300] if exc is not None else None,
        }
        sys.stderr.write(RECORD + json.dumps(line, ensure_ascii=False) + "\n")
        sys.stderr.flush()


def _release_free_memory() -> None:
    """Collect garbage and hand the allocator's free pages back to the system: RSS that
    disappears here was kept by malloc for reuse, not held by live objects."""
    import gc

    from sommelier.memory import release_free_memory

    gc.collect()
    release_free_memory()


def _malloc_info() -> dict[str, int]:
    """glibc's heap: bytes in use, free but kept, and mmapped (mallinfo2, glibc 2.33+)."""
    import ctypes

    from sommelier.memory import GLIBC

    names = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
             "fordblks", "keepcost")  # fmt: skip

    class MallInfo2(ctypes.Structure):
        _fields_ = [(n, ctypes.c_size_t) for n in names]

    if GLIBC is None or not hasattr(GLIBC, "mallinfo2"):
        return {}
    GLIBC.mallinfo2.restype = MallInfo2
    info = GLIBC.mallinfo2()
    return {"in_use": info.uordblks, "free_kept": info.fordblks, "mmapped": info.hblkhd}


def _take_snapshots_on_sigusr1(loop: asyncio.AbstractEventLoop, directory: Path) -> None:
    """On each SIGUSR1 write N.json: live objects by type, Python's allocated blocks and
    glibc's heap figures; with SOAK_TRACE_FRAMES > 0 also a tracemalloc snapshot N.snap
    (slow: the bot then falls behind a fast soak)."""
    import gc
    import tracemalloc

    frames = int(os.environ.get("SOAK_TRACE_FRAMES", "0"))
    if frames:
        tracemalloc.start(frames)
    taken = [0]

    def snapshot() -> None:
        taken[0] += 1
        gc.collect()
        facts = {
            "types": Counter(type(o).__qualname__ for o in gc.get_objects()),
            "python_blocks": sys.getallocatedblocks(),
            "malloc": _malloc_info(),
        }
        (directory / f"{taken[0]}.json").write_text(json.dumps(facts))
        if frames:
            tracemalloc.take_snapshot().dump(str(directory / f"{taken[0]}.snap"))

    loop.add_signal_handler(signal.SIGUSR1, snapshot)


async def _bot() -> None:
    """`sommelier bot` (long polling); its environment sets TELEGRAM_TIMEOUT_SECONDS."""
    import sommelier.serve as runner
    from core.settings import load_settings

    mark_calls_with_their_update()

    def on_loop_error(_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        logging.getLogger("soak.loop").error(context.get("message"), exc_info=exc)

    loop = asyncio.get_running_loop()
    loop.set_exception_handler(on_loop_error)
    loop.add_signal_handler(signal.SIGUSR2, _release_free_memory)
    if snapshots := os.environ.get("SOAK_OBJECTS"):
        _take_snapshots_on_sigusr1(loop, Path(snapshots))
    await runner.run_bot(load_settings(_env_file=None))


def bot_process() -> int:
    logging.basicConfig(level=logging.INFO, handlers=[_JsonLines()])
    asyncio.run(_bot())
    return 0


# ---- the run ------------------------------------------------------------------------------


@dataclass
class SoakReport:
    messages: int
    chats: int
    # Per update id, from what the fake Bot API accepted (bench/replies.py):
    answered: int = 0  # shown an answer (perhaps with an apology for a part Telegram failed)
    refused: int = 0  # shown «temporarily unavailable»
    apologised_only: int = 0  # shown nothing but the apology
    lost: list[int] = field(default_factory=list)  # shown nothing at all
    duplicated: list[int] = field(default_factory=list)  # shown one message twice
    reply_examples: list[str] = field(default_factory=list)
    unmarked_messages: dict[str, int] = field(default_factory=dict)  # shown for no update
    apologies: dict[str, int] = field(default_factory=dict)  # the log: failed deliveries
    unhandled: dict[str, int] = field(default_factory=dict)
    handled_noise: dict[str, int] = field(default_factory=dict)  # logged and recovered from
    paths: dict[str, int] = field(default_factory=dict)
    llm_requests: int = 0
    llm_faults: dict[str, int] = field(default_factory=dict)
    llm_invalid_requests: int = 0
    telegram_calls: int = 0
    telegram_faults: dict[str, int] = field(default_factory=dict)
    telegram_unexpected_rejections: list[str] = field(default_factory=list)
    db_restarts: int = 0
    db_down_seconds: float = 0.0
    answered_after_restart: int = 0
    refusals: dict[str, int] = field(default_factory=dict)  # by the error behind them
    last_refusal_after_restart_s: float = 0.0
    # Messages sent once the database was back, and refused all the same (should be none).
    refused_sent_after_back: int = 0  # per update id, as shown
    sent_after_back: int = 0
    conversations: int = 0
    stored_messages: int = 0
    history_problems: list[str] = field(default_factory=list)
    rss_warmup_mb: float = 0.0
    rss_end_mb: float = 0.0
    rss_max_mb: float = 0.0
    rss_by_tenth_mb: list[float] = field(default_factory=list)  # after each tenth handled
    rss_released_mb: float = 0.0  # at the end, after gc and malloc_trim in the bot
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return (
            not self.lost
            and not self.duplicated
            # Only an apology: Telegram refused the answer's first part (an injected 400),
            # which no retry can change; never for any other cause.
            and self.apologised_only <= self.telegram_faults.get("sendMessage 400", 0)
            and not self.unhandled
            and not self.history_problems
            and self.llm_invalid_requests == 0
            and not self.telegram_unexpected_rejections
            and self.refused_sent_after_back == 0
        )

    @property
    def rss_second_half_growth_mb(self) -> float | None:
        """Growth from the fifth tenth to the last: what "flat after warm-up" is judged by."""
        tenths = self.rss_by_tenth_mb
        return round(tenths[9] - tenths[4], 1) if len(tenths) == 10 else None

    def summary(self) -> str:
        growth = self.rss_end_mb - self.rss_warmup_mb
        half = self.rss_second_half_growth_mb
        second_half = "n/a" if half is None else f"{half:+.1f} MB"
        lines = [
            f"chaos soak: {self.messages} messages from {self.chats} chats in {self.seconds:.0f} s",
            f"  per update, as shown in its chat: answered {self.answered}, refused «temporarily "
            f"unavailable» {self.refused}, only an apology {self.apologised_only}, "
            f"lost {some_ids(self.lost)}, duplicated {some_ids(self.duplicated)}",
            *[f"    e.g. {example}" for example in self.reply_examples[:5]],
            f"  apologies logged {sum(self.apologies.values())} {self.apologies or ''}".rstrip()
            + f"; messages shown for no update {self.unmarked_messages or 0}",
            f"  answer paths {self.paths}",
            f"  unhandled exceptions {sum(self.unhandled.values())} {self.unhandled or ''}",
            f"  LLM: {self.llm_requests} requests, {sum(self.llm_faults.values())} faults "
            f"injected, {self.llm_invalid_requests} invalid requests",
            f"    faults: {dict(sorted(self.llm_faults.items()))}",
            f"  Telegram: {self.telegram_calls} calls, {sum(self.telegram_faults.values())} "
            f"faults injected, {len(self.telegram_unexpected_rejections)} calls rejected "
            "other than by the injected faults",
            f"    faults: {dict(sorted(self.telegram_faults.items()))}",
            f"  database: {self.db_restarts} restart(s), down {self.db_down_seconds:.1f} s; "
            f"answered after the restart {self.answered_after_restart}; last refusal "
            f"{self.last_refusal_after_restart_s:.1f} s after it was back; "
            f"refused though sent after it was back {self.refused_sent_after_back}; refusals after "
            f"{self.refusals}",
            f"  histories: {self.conversations} conversations, {self.stored_messages} "
            f"messages, {len(self.history_problems)} problems",
            f"  bot RSS: {self.rss_warmup_mb:.0f} MB after warm-up, {self.rss_end_mb:.0f} MB "
            f"at the end ({growth:+.1f} MB), max {self.rss_max_mb:.0f} MB; second half "
            f"{second_half}; by tenths {self.rss_by_tenth_mb}; "
            f"{self.rss_released_mb:.0f} MB after gc + malloc_trim",
            f"  handled and logged: {self.handled_noise}",
            f"  verdict: {'OK' if self.ok else 'FAILED'}",
        ]
        return "\n".join(lines)


class _Tally:
    """What the bot process reported, line by line: progress (`done`) and diagnostics. What
    each update got is judged from what the fake Bot API accepted (`Replies`), not from here."""

    def __init__(self) -> None:
        self.answered = 0
        self.refused = 0
        self.apologies: Counter[str] = Counter()
        self.unanswered = 0  # apologies that were not for a failed delivery
        self.unhandled: Counter[str] = Counter()
        self.noise: Counter[str] = Counter()
        self.paths: Counter[str] = Counter()
        self.after_restart = 0
        self.restarted = False
        self.changed = asyncio.Event()
        self.refusals: Counter[str] = Counter()
        self.back_at: float | None = None
        self.sent_after_back: set[int] = set()
        self.database_up = True
        self.refused_late = 0.0  # the last refusal, in seconds after the database was back
        self.about: defaultdict[int, list[str]] = defaultdict(list)  # log lines naming an update

    @property
    def done(self) -> int:
        return self.answered + self.refused + self.unanswered

    async def all_handled(self, messages: int) -> None:
        while self.done < messages:
            self.changed.clear()
            await self.changed.wait()

    def feed(self, line: str) -> None:
        self.changed.set()
        if os.environ.get("SOAK_DEBUG"):
            sys.stderr.write(line)
        if not line.startswith(RECORD):
            if line.startswith("Traceback"):
                self.unhandled["a traceback on stderr"] += 1
            elif line.strip():
                self.noise["stderr: " + line.strip()[:60]] += 1
            return
        record = json.loads(line[len(RECORD) :])
        name, msg, level, exc = record["name"], record["msg"], record["level"], record["exc"]
        for update_id in {int(n) for n in _NAMED_UPDATE.findall(msg)}:
            if len(self.about[update_id]) < ABOUT_LINES:  # what explains a lost update
                self.about[update_id].append(f"{level} {name}: {msg[:160]}")
        if name == "sommelier.answers":
            fields = json.loads(msg)
            if fields["event"] == "answer":
                self.answered += 1
                self.paths[fields["path"]] += 1
                self.after_restart += self.restarted
            # A refusal's own line; it is counted by the bot's log of why (below).
        elif "database unavailable while handling update" in msg:
            self.refused += 1
            self.refusals[msg.rsplit(": ", 1)[-1]] += 1
            if self.back_at is not None:
                self.refused_late = max(self.refused_late, time.monotonic() - self.back_at)
        elif "error handling update" in msg:
            # The user got an apology. Expected only when Telegram itself failed the delivery
            # of an answer — that answer was made, stored and logged already, so it counts as
            # answered; any other apology is a message left without an answer.
            if (exc or "").startswith("Telegram"):
                self.apologies[f"apology after {exc}"] += 1
            else:
                self.unhandled[f"apology after {exc}"] += 1
                self.unanswered += 1
        elif level in ("ERROR", "CRITICAL"):
            if name == "aiogram.dispatcher" and "Failed to fetch updates" in msg:
                self.noise["long poll failed, retried"] += 1
            elif name.startswith("sqlalchemy.pool") and "Exception closing connection" in msg:
                self.noise["dead pooled connection discarded"] += 1
            else:
                self.unhandled[f"{name}: {exc or msg[:60]}"] += 1
        else:
            words = re.sub(r"\d+", "N", " ".join(msg.split()[:5]))
            self.noise[f"{level} {name}: {words}"] += 1


async def run_soak(
    messages: int = 5000,
    chats: int = 200,
    *,
    rate: float = 20.0,
    llm_fault_rate: float = 0.10,
    telegram_fault_rate: float = 0.02,
    db_restarts: int = 1,
    db_down_seconds: float = 3.0,
    seed: int = 7,
    progress: bool = False,
) -> SoakReport:
    import psutil

    from core.settings import load_settings
    from fakes.database import PostgresControl, history_problems
    from fakes.openai_server import FakeOpenAIServer, responder
    from fakes.telegram_server import FakeTelegramServer
    from services.app.runtime import open_runtime

    rng = random.Random(seed)
    report = SoakReport(messages, chats)
    tally = _Tally()
    replies = Replies()
    pushed: list[int] = []
    llm_faults: Counter[str] = Counter()
    tg_faults: Counter[str] = Counter()
    data_dir = Path(tempfile.mkdtemp(prefix="sommelier-soak-"))
    settings = load_settings(_env_file=None, data_dir=data_dir, embedding_dim=EMBEDDING_DIM)
    pg: PostgresControl | None = None
    started = time.monotonic()
    try:
        async with (
            open_runtime(settings) as rt,
            FakeOpenAIServer(api_key=API_KEY, embedding_dim=EMBEDDING_DIM) as llm,
            FakeTelegramServer(BOT_TOKEN) as tg,
        ):
            await rt.ensure_ready()
            await _adults(rt, [FIRST_CHAT + i for i in range(chats)])
            pg = PostgresControl(data_dir)

            def model(body: JSONDict) -> Any:
                if rng.random() < llm_fault_rate:
                    kind, step = llm_fault(rng, body)
                    llm_faults[kind] += 1
                    return step
                return good_model(body)

            step = responder(model)
            llm.script(*[step] * (messages * 8))
            env = {
                **{k: v for k, v in os.environ.items() if not k.startswith(_OURS)},
                "DATABASE_URL": rt.location.url.render_as_string(hide_password=False),
                "EMBEDDING_DIM": str(EMBEDDING_DIM),
                "LLM_API_KEY": API_KEY,
                "LLM_BASE_URL": llm.base_url,
                "LLM_TIMEOUT_SECONDS": str(LLM_TIMEOUT),
                "LLM_MAX_RETRIES": "1",
                "TELEGRAM_BOT_TOKEN": BOT_TOKEN,
                "TELEGRAM_API_URL": tg.base_url,
                "TELEGRAM_TIMEOUT_SECONDS": str(TELEGRAM_TIMEOUT),
                "RATE_LIMIT_PER_MINUTE": "10000",
                "SHUTDOWN_GRACE_SECONDS": "30",
            }
            if env.pop("PYTHONDONTWRITEBYTECODE", None):
                # No bytecode beside the sources: keep it elsewhere, or every run of the bot
                # compiles aiogram and openai again (seconds of start-up).
                env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "soak-pycache")
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bench.soak",
                "--bot-process",
                env=env,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            proc = psutil.Process(child.pid)
            rss: list[float] = []

            async def read_child() -> None:
                assert child.stderr is not None
                async for raw in child.stderr:
                    tally.feed(raw.decode(errors="replace"))

            async def watch() -> None:
                """Telegram faults at the configured share of calls; memory; bounded records."""
                injected = 0
                while True:
                    new = tg.calls[:]
                    del tg.calls[: len(new)]  # the records would only grow
                    replies.add(new)
                    report.telegram_calls += len(new)
                    report.telegram_unexpected_rejections += [
                        c.describe()[:300] for c in new if not c.ok and INJECTED not in c.error
                    ]
                    while injected < int(report.telegram_calls * telegram_fault_rate):
                        tg_faults[_telegram_fault(rng, tg)] += 1
                        injected += 1
                    report.llm_requests += len(llm.requests)
                    llm.requests.clear()  # bodies are large; validity is kept in llm.errors
                    with contextlib.suppress(psutil.Error):
                        rss.append(proc.memory_info().rss / 2**20)
                        if not report.rss_warmup_mb and tally.done >= max(1, messages // 10):
                            report.rss_warmup_mb = rss[-1]
                        tenth = len(report.rss_by_tenth_mb) + 1
                        if tenth <= 10 and tally.done >= messages * tenth // 10:
                            report.rss_by_tenth_mb.append(round(rss[-1], 1))
                            if os.environ.get("SOAK_OBJECTS"):
                                child.send_signal(signal.SIGUSR1)
                    await asyncio.sleep(0.2)

            reader = asyncio.create_task(read_child())
            # getMe comes right before the first long poll (which is recorded only when it ends).
            await tg.wait_for(lambda calls: any(c.method == "getMe" for c in calls), 60)
            watcher = asyncio.create_task(watch())

            async def restart(control: PostgresControl) -> None:
                """The database goes away while messages keep coming, then comes back."""
                tally.database_up = False
                await asyncio.to_thread(control.stop)
                down = time.monotonic()
                await asyncio.sleep(db_down_seconds)
                await asyncio.to_thread(control.start)
                report.db_down_seconds += time.monotonic() - down
                report.db_restarts += 1
                tally.restarted = True
                tally.back_at = time.monotonic()
                tally.database_up = True

            restarts: list[asyncio.Task[None]] = []
            restart_at = {messages * (i + 1) // (db_restarts + 1) for i in range(db_restarts)}
            # Half of the messages between a restart and the next one are sent while the
            # database is away; the rest only once it is back, so that "served again after
            # the restart" is measured whatever time the server takes to start.
            back_at = {
                at + (messages * (i + 2) // (db_restarts + 1) - at) // 2
                for i, at in enumerate(sorted(restart_at))
            }
            for n in range(messages):
                if n in restart_at:
                    restarts.append(asyncio.create_task(restart(pg)))
                if n in back_at and restarts:
                    await restarts[-1]
                chat_id = FIRST_CHAT + rng.randrange(chats)
                update = tg.message_update(chat_id, rng.choice(QUESTIONS))
                tg.push_update(update)  # gives it its update_id
                pushed.append(int(update["update_id"]))
                if tally.back_at is not None and tally.database_up:
                    tally.sent_after_back.add(int(update["update_id"]))
                if progress and n % 500 == 0:
                    print(f"soak: pushed {n}, handled {tally.done}", file=sys.stderr)
                await asyncio.sleep(rng.expovariate(rate))

            await asyncio.gather(*restarts)

            async def all_shown() -> None:
                await tally.all_handled(messages)
                await replies.until_shown(pushed)  # the last replies, as the fake accepted them

            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(all_shown(), 180)
            await asyncio.sleep(1.0)  # let the last lines and samples arrive
            report.rss_end_mb = rss[-1] if rss else 0.0
            report.rss_max_mb = max(rss, default=0.0)
            child.send_signal(signal.SIGUSR2)
            await asyncio.sleep(2.0)
            with contextlib.suppress(psutil.Error):
                report.rss_released_mb = proc.memory_info().rss / 2**20
            child.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(child.wait(), 60)
            except TimeoutError:
                child.kill()
                tally.unhandled["bot did not stop on SIGTERM"] += 1
            await reader
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            replies.add(tg.calls)  # the bot has exited: everything it sent is in
            report.llm_requests += len(llm.requests)
            report.llm_invalid_requests = len(llm.errors)

            if not pg.running():
                await asyncio.to_thread(pg.start)
            report.history_problems = await history_problems(rt.sessions)
            report.conversations, report.stored_messages = await _stored(rt)
    finally:
        if pg is not None:
            pg.shutdown()
        shutil.rmtree(data_dir, ignore_errors=True)

    _judge(report, replies, pushed, tally.sent_after_back, tally.about)
    report.apologies = dict(tally.apologies)
    report.unhandled = dict(tally.unhandled)
    report.handled_noise = dict(tally.noise)
    report.paths = dict(tally.paths)
    report.answered_after_restart = tally.after_restart
    report.refusals = dict(tally.refusals)
    report.last_refusal_after_restart_s = tally.refused_late
    report.sent_after_back = len(tally.sent_after_back)
    report.llm_faults = dict(llm_faults)
    report.telegram_faults = dict(tg_faults)
    report.seconds = time.monotonic() - started
    return report


def _judge(
    report: SoakReport,
    replies: Replies,
    pushed: list[int],
    sent_after_back: set[int],
    about: dict[int, list[str]],
) -> None:
    """Each update by what its chat was shown for it: an answer, the refusal, only the
    apology, or nothing (lost); and whether any message was shown twice (duplicated). An odd
    one's example carries the bot's log lines that name it."""
    from services.app.texts import T

    refusal, apology = f"sendMessage: {T.unavailable}", f"sendMessage: {T.apology}"
    for update_id in pushed:
        shown = replies.of(update_id)
        if not shown:
            continue
        if refusal in shown:
            report.refused += 1
            report.refused_sent_after_back += update_id in sent_after_back
        elif set(shown) == {apology}:
            report.apologised_only += 1
        else:
            report.answered += 1
    report.lost = replies.lost(pushed)
    report.duplicated = replies.duplicated(pushed)
    odd = report.duplicated + report.lost
    report.reply_examples = ["; ".join([replies.example(u), *about.get(u, [])]) for u in odd[:5]]
    report.unmarked_messages = dict(replies.unattributed)


_OURS = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_", "API_", "DB_")

_TELEGRAM_FAULTS = [
    ("sendMessage", 429),
    ("sendMessage", 502),
    ("sendMessage", 500),
    ("sendMessage", 400),
    ("sendMessage", "slow"),
    ("sendChatAction", 502),
    ("sendChatAction", "stall"),
    ("sendMessageDraft", 400),
    ("getUpdates", 502),
]


INJECTED = "(injected)"


def _telegram_fault(rng: random.Random, tg: Any) -> str:
    method, kind = rng.choice(_TELEGRAM_FAULTS)
    if kind == 429:
        tg.fail_next(method, 429, f"Too Many Requests: retry after 1 {INJECTED}", retry_after=1)
    elif kind == 400 and method == "sendMessage":
        # As Telegram: only a message with a parse_mode has entities it can fail to parse (a
        # second fault of this kind meets the same message's plain resend no more than there).
        tg.fail_next(
            method,
            400,
            f"Bad Request: can't parse entities: {INJECTED}",
            when=lambda params: bool(params.get("parse_mode")),
        )
    elif kind == 400:
        tg.fail_next(method, 400, f"Bad Request: TEXTDRAFT_PEER_INVALID {INJECTED}")
    elif kind == "slow":
        tg.delay_next(method, TELEGRAM_TIMEOUT / 2)
    elif kind == "stall":
        tg.delay_next(method, TELEGRAM_TIMEOUT * 2)
    else:
        tg.fail_next(method, int(kind), f"Server Error {INJECTED}")
    return f"{method} {kind}"


async def _adults(rt: Any, chat_ids: list[int]) -> None:
    """Users who passed the 18+ gate before the run (the gate has tests of its own)."""
    from repositories.users import UserRepository

    async with rt.sessions() as s:
        users = UserRepository(s)
        for chat_id in chat_ids:
            await users.upsert(chat_id, "Soak", language_code="ru")
            await users.confirm_age(chat_id)
        await s.commit()


async def _stored(rt: Any) -> tuple[int, int]:
    from sqlalchemy import func, select

    from repositories.models import Conversation, Message

    async with rt.sessions() as s:
        conversations = await s.scalar(select(func.count()).select_from(Conversation))
        stored = await s.scalar(select(func.count()).select_from(Message))
    return int(conversations or 0), int(stored or 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description="Chaos soak.")
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--chats", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="messages per second")
    parser.add_argument("--llm-faults", type=float, default=0.10)
    parser.add_argument("--telegram-faults", type=float, default=0.02)
    parser.add_argument("--db-restarts", type=int, default=1)
    parser.add_argument("--db-down-seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--bot-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bot_process:
        return bot_process()
    logging.basicConfig(level=logging.WARNING)
    report = asyncio.run(
        run_soak(
            args.messages,
            args.chats,
            rate=args.rate,
            llm_fault_rate=args.llm_faults,
            telegram_fault_rate=args.telegram_faults,
            db_restarts=args.db_restarts,
            db_down_seconds=args.db_down_seconds,
            seed=args.seed,
            progress=not args.json,
        )
    )
    print(json.dumps(asdict(report), ensure_ascii=False) if args.json else report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
