"""A bot process killed with SIGKILL in the middle of an answer (an OOM kill, a lost node,
`docker kill`): another process takes the update over when its lease runs out and the person
gets exactly one complete answer — no part missing, no part twice.

Each case runs real `sommelier bot` processes (forked from tests/forkserver.py, which spares
each the library imports) against the fake Bot API and the test database. The first process
is armed with a failpoint (`SOMMELIER_FAILPOINTS`) that SIGKILLs it at one exact moment of the
answer; the second, unarmed, recovers it. Both modes: long polling (the update is fetched
again by the next process, already stored) and webhook (Telegram got its 200 from the dead
replica and never sends the update again).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import aiohttp
import pytest
from sqlalchemy import text

from bot.coordination import Coordinator
from fakes.openai_server import responder
from fakes.telegram_server import FakeTelegramServer, SentCall
from services.app.container import build_services
from services.app.people.people import UserDetails
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_helpers import API_KEY, JSONDict, cards, fake_llm, messages
from tests.conftest import TEST_EMBEDDING_DIM, make_settings
from tests.fault_helpers import good_agent
from tests.forkserver import python_m
from tests.serving import free_port, with_settings

pytestmark = pytest.mark.slow  # real processes: `make test-fast` skips them

LEASE_SECONDS = 2
SECRET = "crash-secret"
QUESTION = "красное сухое к стейку до 2000"
KILL_POINTS = ["stored", "after_intro", "after_cards", "before_finish"]
OURS = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_", "API_", "HTTP_")


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    webhook: str | None

    async def killed(self) -> bool:
        """Wait for the process to die by its failpoint; True when it was a SIGKILL."""
        code = await asyncio.wait_for(self.process.wait(), 60)
        return code == -signal.SIGKILL

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


@contextlib.asynccontextmanager
async def bot_process(
    runtime: Runtime,
    tg: FakeTelegramServer,
    *,
    webhook: bool,
    failpoint: str | None = None,
    admin: int | None = None,
    extra: dict[str, str] | None = None,
) -> AsyncIterator[BotProcess]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    env |= {
        "DATABASE_URL": runtime.location.url.render_as_string(hide_password=False),
        "EMBEDDING_DIM": str(TEST_EMBEDDING_DIM),
        "TELEGRAM_BOT_TOKEN": tg.token,
        "TELEGRAM_API_URL": tg.base_url,
        "UPDATE_LEASE_SECONDS": str(LEASE_SECONDS),
        "RATE_LIMIT_PER_MINUTE": "1000",
        "SOMMELIER_FAILPOINTS": failpoint or "",
        "ADMIN_IDS": str(admin or ""),
    }
    env |= extra or {}
    url = None
    if webhook:
        port = free_port()
        env |= {
            "WEBHOOK_URL": "https://bot.example/webhook",
            "WEBHOOK_SECRET": SECRET,
            "HTTP_HOST": "127.0.0.1",
            "HTTP_PORT": str(port),
        }
        url = f"http://127.0.0.1:{port}/webhook"
    process = await asyncio.create_subprocess_exec(
        *python_m("sommelier.cli"),
        "bot",
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    bot = BotProcess(process, url)
    try:
        if url is not None:
            await _until_listening(url)
        yield bot
    finally:
        await bot.stop()


async def _until_listening(url: str) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(600):
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(url.replace("/webhook", "/healthz")) as resp:
                    if resp.status < 500:
                        return
            await asyncio.sleep(0.1)
    raise AssertionError("the webhook replica did not start listening")


async def post_update(url: str, update: dict[str, object]) -> int:
    async with (
        aiohttp.ClientSession() as http,
        http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": SECRET}) as resp,
    ):
        return resp.status


async def confirm_age(runtime: Runtime, user_id: int) -> None:
    services = build_services(with_settings(runtime, make_settings()))
    try:
        await services.people.register(UserDetails(user_id, "Ivan"))
        await services.people.confirm_age(user_id)
    finally:
        await services.close()


async def ledger_row(runtime: Runtime, update_id: int) -> dict[str, object] | None:
    async with runtime.engine.connect() as conn:
        row = (
            (
                await conn.execute(
                    text(
                        "SELECT finished_at IS NOT NULL AS finished, body IS NULL AS body_gone,"
                        " attempts, sent_parts, parked_at IS NOT NULL AS parked "
                        "FROM telegram_updates WHERE update_id = :u"
                    ),
                    {"u": update_id},
                )
            )
            .mappings()
            .first()
        )
    return dict(row) if row else None


async def until_finished(runtime: Runtime, update_id: int, timeout: float = 90) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        row = await ledger_row(runtime, update_id)
        if row is not None and (row["finished"] or row["parked"]):
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"update {update_id} was never finished: {row}")


def assert_one_complete_answer(sent: list[SentCall], *, resent_notice: bool) -> None:
    texts = [c.visible_text or "" for c in messages(sent)]
    shown = cards(sent)
    assert len(shown) == 3, texts
    card_texts = [c.visible_text for c in shown]
    assert len(set(card_texts)) == 3, f"a card was sent twice: {texts}"
    others = [t for t in texts if t not in card_texts]
    notices = [t for t in others if t == T.answer_again]
    assert len(notices) == (1 if resent_notice else 0), texts
    prose = [t for t in others if t != T.answer_again]
    assert len(prose) == 2, f"intro and closing, once each: {texts}"
    assert len(set(prose)) == 2, texts
    first_card = texts.index(card_texts[0])
    assert texts.index(prose[0]) < first_card < texts.index(prose[1]), texts


@pytest.mark.parametrize("mode", ["polling", "webhook"])
@pytest.mark.parametrize("point", KILL_POINTS)
async def test_a_killed_process_leaves_exactly_one_complete_answer(
    seeded: Runtime, mode: str, point: str
) -> None:
    chat_id = 980_001
    await confirm_age(seeded, chat_id)
    webhook = mode == "webhook"
    async with FakeTelegramServer() as tg:
        update = tg.message_update(chat_id, QUESTION)
        update_id = int(update["update_id"])
        async with bot_process(seeded, tg, webhook=webhook, failpoint=point) as doomed:
            if webhook:
                tg.accept_update(update)
                assert doomed.webhook is not None
                assert await post_update(doomed.webhook, update) == 200
            else:
                tg.push_update(update)
            assert await doomed.killed(), f"the process did not die at {point}"
        row = await ledger_row(seeded, update_id)
        assert row is not None and not row["finished"], "the update was stored before it died"
        async with bot_process(seeded, tg, webhook=webhook) as survivor:
            finished = await until_finished(seeded, update_id)
            await survivor.stop()
        assert finished["finished"] and finished["body_gone"]
        assert finished["attempts"] == 2
        sent = tg.sent(chat_id=chat_id)
        assert_one_complete_answer(sent, resent_notice=point == "stored")
        assert tg.rejected == []


async def test_an_update_that_keeps_killing_its_handler_is_parked_with_an_apology(
    seeded: Runtime,
) -> None:
    chat_id = 980_002
    await confirm_age(seeded, chat_id)
    async with FakeTelegramServer() as tg:
        update = tg.message_update(chat_id, QUESTION)
        update_id = int(update["update_id"])
        tg.push_update(update)
        for _ in range(3):  # three processes in a row die on it
            async with bot_process(seeded, tg, webhook=False, failpoint="stored") as doomed:
                assert await doomed.killed()
        admin = 980_003
        async with bot_process(seeded, tg, webhook=False, admin=admin) as survivor:
            row = await until_finished(seeded, update_id)
            tg.push_update(tg.message_update(admin, "/stats"))
            await tg.wait_for(lambda _: bool(messages(tg.sent(chat_id=admin))), 30)
            await survivor.stop()
        assert row["parked"] and not row["finished"] and row["body_gone"]
        texts = [c.visible_text for c in messages(tg.sent(chat_id=chat_id))]
        assert texts == [T.apology]
        stats = messages(tg.sent(chat_id=admin))[0].visible_text or ""
        assert "Отложено после сбоев: 1" in stats, stats
        assert "did not finish in 3 attempts" in stats, stats


async def test_an_unreadable_stored_update_is_parked_once_and_its_chat_answered_after(
    seeded: Runtime,
) -> None:
    """A stored update whose body this version cannot read (written by another version of
    the bot, say) and whose process died: the next process parks it at once with the reason —
    no retries —, the person gets one apology, and their next message is answered."""
    chat_id, admin = 980_010, 980_011
    await confirm_age(seeded, chat_id)
    async with FakeTelegramServer() as tg:
        unreadable = tg.message_update(chat_id, QUESTION)
        update_id = int(unreadable["update_id"])
        tg.push_update(unreadable)
        async with bot_process(seeded, tg, webhook=False, failpoint="stored") as doomed:
            assert await doomed.killed()
        await _without_its_date(seeded, update_id)
        later = tg.message_update(chat_id, QUESTION)
        tg.push_update(later)
        async with bot_process(seeded, tg, webhook=False, admin=admin) as survivor:
            row = await until_finished(seeded, update_id)
            answered = await until_finished(seeded, int(later["update_id"]))
            tg.push_update(tg.message_update(admin, "/stats"))
            await tg.wait_for(lambda _: bool(messages(tg.sent(chat_id=admin))), 30)
            services = build_services(with_settings(seeded, make_settings()))
            try:  # what any process finds to take over now: not this update again
                assert await Coordinator(services.ledger).take_expired() == []
            finally:
                await services.close()
            await survivor.stop()
        assert row["parked"] and not row["finished"] and row["body_gone"], row
        assert row["attempts"] == 2, row  # taken over once, parked at once
        assert answered["finished"] and not answered["parked"], answered
        texts = [c.visible_text for c in messages(tg.sent(chat_id=chat_id))]
        assert texts.count(T.apology) == 1, texts
        assert len(cards(tg.sent(chat_id=chat_id))) == 3, texts
        stats = messages(tg.sent(chat_id=admin))[0].visible_text or ""
        assert "Отложено после сбоев: 1" in stats, stats
        assert f"#{update_id}: unreadable update: ValidationError" in stats, stats
        assert (await ledger_row(seeded, update_id)) == row  # not retried since


async def _without_its_date(runtime: Runtime, update_id: int) -> None:
    """The stored body loses a field aiogram requires: this version can no longer read it."""
    async with runtime.engine.begin() as conn:
        await conn.execute(
            text(
                "UPDATE telegram_updates SET body = body #- '{message,date}' WHERE update_id = :u"
            ),
            {"u": update_id},
        )


async def test_sigterm_lets_the_answer_in_flight_finish_and_takes_nothing_new(
    seeded: Runtime,
) -> None:
    """A rolling update: SIGTERM while the model is thinking. The answer in flight is sent
    whole within SHUTDOWN_GRACE_SECONDS, the process exits cleanly, and a message that arrives
    after the signal is left for the next process (not fetched, so not lost)."""
    chat_id, later_chat = 980_004, 980_005
    await confirm_age(seeded, chat_id)
    await confirm_age(seeded, later_chat)
    thinking = asyncio.Event()
    release = asyncio.Event()
    good = good_agent({"wine_type": "red", "sweetness": "dry"})

    async def slow_model(body: JSONDict) -> object:
        thinking.set()
        await release.wait()
        return good(body)

    async with fake_llm() as llm, FakeTelegramServer() as tg:
        llm.script(*[responder(slow_model)] * 10)
        extra = {"LLM_API_KEY": API_KEY, "LLM_BASE_URL": llm.base_url, "LLM_TIMEOUT_SECONDS": "60"}
        async with bot_process(seeded, tg, webhook=False, extra=extra) as bot:
            tg.push_update(tg.message_update(chat_id, QUESTION))
            await asyncio.wait_for(thinking.wait(), 60)
            bot.process.send_signal(signal.SIGTERM)
            await asyncio.sleep(1.0)  # the signal is handled: polling has stopped
            tg.push_update(tg.message_update(later_chat, QUESTION))
            release.set()
            code = await asyncio.wait_for(bot.process.wait(), 60)
        assert code == 0
        assert len(cards(tg.sent(chat_id=chat_id))) == 3
        assert messages(tg.sent(chat_id=later_chat)) == []
        assert [u["message"]["chat"]["id"] for u in tg.pending_updates] == [later_chat]


async def test_sigterm_past_its_grace_hands_the_answers_left_to_another_process(
    seeded: Runtime,
) -> None:
    """A rolling update whose answers outlast SHUTDOWN_GRACE_SECONDS: the model is still
    thinking when the grace runs out. The stopping process releases what it holds at once —
    unfinished, nothing sent — and exits; the next process takes both over well within one
    lease (60 s: only the release explains it) and each person gets one complete answer."""
    chats = [980_008, 980_009]
    for chat_id in chats:
        await confirm_age(seeded, chat_id)
    thinking: list[int] = []
    handed_over = asyncio.Event()
    never = asyncio.Event()
    good = good_agent({"wine_type": "red", "sweetness": "dry"})

    async def slow_then_good(body: JSONDict) -> object:
        if not handed_over.is_set():  # the first process's calls: longer than its grace
            thinking.append(1)
            await never.wait()
        return good(body)

    async with fake_llm() as llm, FakeTelegramServer() as tg:
        llm.script(*[responder(slow_then_good)] * 20)
        extra = {
            "LLM_API_KEY": API_KEY,
            "LLM_BASE_URL": llm.base_url,
            "LLM_TIMEOUT_SECONDS": "60",
            "UPDATE_LEASE_SECONDS": "60",
            "SHUTDOWN_GRACE_SECONDS": "1",
        }
        updates = [tg.message_update(chat_id, QUESTION) for chat_id in chats]
        ids = [int(u["update_id"]) for u in updates]
        try:
            async with bot_process(seeded, tg, webhook=False, extra=extra) as stopping:
                for update in updates:
                    tg.push_update(update)
                await _until_true(lambda: len(thinking) == len(chats))
                stopping.process.send_signal(signal.SIGTERM)
                code = await asyncio.wait_for(stopping.process.wait(), 30)
            assert code == 0
            for update_id in ids:  # released, not finished: nothing of the answer went out
                row = await ledger_row(seeded, update_id)
                assert row is not None, update_id
                assert not row["finished"] and not row["parked"], row
                assert row["attempts"] == 1 and row["sent_parts"] == 0, row
                assert await lease_expired(seeded, update_id), "its lease was not released"
            assert messages(tg.sent()) == []
            handed_over.set()
            async with bot_process(seeded, tg, webhook=False, extra=extra) as survivor:
                for update_id in ids:
                    row = await until_finished(seeded, update_id, timeout=45)
                    assert row["finished"] and row["attempts"] == 2, row
                await survivor.stop()
        finally:
            never.set()
        for chat_id in chats:
            assert_one_complete_answer(tg.sent(chat_id=chat_id), resent_notice=True)
        assert tg.rejected == []


async def _until_true(condition: Callable[[], bool], timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


async def lease_expired(runtime: Runtime, update_id: int) -> bool:
    async with runtime.engine.connect() as conn:
        return bool(
            await conn.scalar(
                text(
                    "SELECT lease_until <= clock_timestamp() FROM telegram_updates"
                    " WHERE update_id = :u"
                ),
                {"u": update_id},
            )
        )
