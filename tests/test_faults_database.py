"""The database stops in the middle of a run and comes back.

The test runs its own embedded PostgreSQL (a data dir of its own), so stopping it cannot
disturb any other test. While it is down every user gets «temporarily unavailable» within
DB_TIMEOUT_SECONDS; nothing is half-written; once it is back the same bot, without a restart,
answers again — also in the chat whose turn was cut off when the database went away.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from bot.callbacks import AgeCallback
from fakes.database import PostgresControl, history_problems
from fakes.openai_server import Step, responder
from fakes.telegram_server import SentCall
from repositories.models import Message, User
from services.app.runtime import Runtime, open_runtime
from services.app.texts import T
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import adult, cards, fake_llm, llm_settings, messages
from tests.conftest import PEOPLE_TABLES, make_settings
from tests.fault_helpers import (
    JSONDict,
    assert_real_cards,
    good_agent,
    shown_cards,
)

DB_TIMEOUT = 2.0
QUESTION = "красное сухое до 2000"
ARGS: JSONDict = {"wine_type": "red", "sweetness": "dry", "price_max": 2000}
ALICE, BOB, CAROL = 970_001, 970_002, 970_003
NEWCOMERS = (970_004, 970_005, 970_006)


@pytest.fixture(scope="module")
async def own_database() -> AsyncIterator[tuple[Runtime, PostgresControl]]:
    data_dir = Path(tempfile.mkdtemp(prefix="sommelier-outage-"))
    settings = make_settings(data_dir=data_dir, db_timeout_seconds=DB_TIMEOUT)
    control: PostgresControl | None = None
    try:
        async with open_runtime(settings) as rt:
            await rt.ensure_ready()
            control = PostgresControl(data_dir)
            yield rt, control
    finally:
        if control is not None:
            control.shutdown()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture
async def outage_db(
    own_database: tuple[Runtime, PostgresControl],
) -> tuple[Runtime, PostgresControl]:
    """The module's database, running, with its catalog and nobody in it: no person, turn or
    update (each fake Telegram server numbers its updates from 1) an earlier test left, so
    what a test counts is what it did, whichever order the tests run in."""
    rt, pg = own_database
    if not pg.running():
        await asyncio.to_thread(pg.start)
    async with rt.engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {PEOPLE_TABLES} CASCADE"))
    return rt, pg


async def _reply_to(h: BotHarness, chat_id: int, text: str, **extra: object) -> list[SentCall]:
    """Send a message; the bot's replies in that chat. A database that hangs forever would
    leave the question without a reply: a reply at all shows the timeout worked."""
    before = len(messages(h.tg.sent(chat_id=chat_id)))
    await h.say(chat_id, text, **extra)
    await h.wait_messages(chat_id, before + 1, timeout=30)
    await h.idle(timeout=30)
    return messages(h.tg.sent(chat_id=chat_id))[before:]


async def _rows(rt: Runtime, model: type) -> int:
    async with rt.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(model)) or 0)


async def test_database_down_and_back(
    outage_db: tuple[Runtime, PostgresControl], caplog: pytest.LogCaptureFixture
) -> None:
    rt, pg = outage_db
    caplog.set_level(logging.WARNING)
    async with fake_llm() as llm:
        good = responder(good_agent(ARGS))

        async def stop_the_database(body: JSONDict) -> Step:
            await asyncio.to_thread(pg.stop)  # the database goes away while the model thinks
            return good.fn(body)  # type: ignore[return-value]

        llm.script(good, good, responder(stop_the_database), *[good] * 20)
        async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT, **llm_settings(llm)) as h:
            await adult(h, ALICE)
            await adult(h, CAROL)
            sent = await _reply_to(h, ALICE, QUESTION)
            assert len(cards(sent)) == 3

            # Carol's turn is cut off: the database stops after her question was read.
            sent = await _reply_to(h, CAROL, QUESTION)
            assert [c.visible_text for c in sent] == [T.unavailable]
            assert not pg.running()

            # While it is down: a known user, a new user, a button — each told, quickly.
            for chat_id, text in ((ALICE, QUESTION), (BOB, "/start"), (ALICE, "/profile")):
                sent = await _reply_to(h, chat_id, text)
                assert [c.visible_text for c in sent] == [T.unavailable], text
                assert not pg.running()  # told while the database is still away
            pressed_before = len(messages(h.tg.sent(chat_id=ALICE)))
            h.tg.push_update(
                h.tg.callback_update(ALICE, AgeCallback(adult=True).pack(), message_id=1)
            )
            await h.wait_messages(ALICE, pressed_before + 1)
            assert h.tg.sent(chat_id=ALICE)[-1].visible_text == T.unavailable

            await asyncio.to_thread(pg.start)

            # Back: the same bot answers, Carol too (her cut-off turn does not block her chat).
            for chat_id in (ALICE, CAROL):
                sent = await _reply_to(h, chat_id, QUESTION)
                wines = assert_real_cards(await shown_cards(rt.sessions, sent))
                assert len(wines) == 3, [c.visible_text for c in sent]
            sent = await _reply_to(h, BOB, "/start")
            assert sent[0].visible_text == T.age_question
            assert h.tg.rejected == []  # Telegram's limits kept, the database away or not

    assert llm.errors == []
    # Nothing half-written: Carol's cut-off turn left no rows; every stored turn is whole.
    assert await history_problems(rt.sessions) == []
    async with rt.sessions() as s:
        questions = await s.scalar(
            select(func.count()).select_from(Message).where(Message.role == "user")
        )
    assert questions == 3  # Alice twice and Carol once, after the restart
    assert await _rows(rt, User) == 3
    assert "database unavailable" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_while_the_database_is_away_the_bot_paces_alone_and_honours_a_429(
    outage_db: tuple[Runtime, PostgresControl],
) -> None:
    """Eight messages from one person while the database is away, and Telegram answers the
    first notice 429 (retry after 1): every notice arrives once, no other one meets
    Telegram's limits (five at once in a chat, then one a second), and nothing but the
    notices already on their way goes out before the 429's retry_after has passed."""
    rt, pg = outage_db
    async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT) as h:
        await adult(h, ALICE)
        await asyncio.to_thread(pg.stop)
        h.tg.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
        before = len(messages(h.tg.sent(chat_id=ALICE)))
        for _ in range(8):
            await h.say(ALICE, "/profile")
        await h.wait_messages(ALICE, before + 8, timeout=30)
        await h.idle(timeout=30)
        notices = messages(h.tg.sent(chat_id=ALICE))[before:]
        assert [c.visible_text for c in notices] == [T.unavailable] * 8
        [refused] = h.tg.rejected  # only the injected 429: none of Telegram's limits met
        assert refused.status == 429
        during = [round(c.at - refused.at, 2) for c in notices if 0.25 < c.at - refused.at < 1]
        assert not during, f"sent during the 429's retry_after: {during}"
        await asyncio.to_thread(pg.start)


async def test_a_notice_telegram_refuses_is_logged_not_dropped_in_silence(
    outage_db: tuple[Runtime, PostgresControl], caplog: pytest.LogCaptureFixture
) -> None:
    """The database is away and Telegram refuses the «temporarily unavailable» notice for good:
    nobody can be told, so the log says which update went without a word, and why."""
    rt, pg = outage_db
    caplog.set_level(logging.WARNING)
    async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT) as h:
        await adult(h, ALICE)
        await asyncio.to_thread(pg.stop)
        h.tg.fail_next("sendMessage", 400, "Bad Request: chat not found")
        before = len(messages(h.tg.sent(chat_id=ALICE)))
        update = h.tg.message_update(ALICE, "/profile")
        h.tg.push_update(update)
        await h.tg.wait_for(lambda _: bool(h.tg.rejected), 30)
        await h.idle(timeout=30)
        shown = messages(h.tg.sent(chat_id=ALICE))[before:]
        await asyncio.to_thread(pg.start)
    assert shown == []  # Telegram took nothing
    told = f"update {update['update_id']}: the person could not be told either"
    assert f"{told} (TelegramBadRequest)" in caplog.text


async def test_a_hanging_database_is_reported_within_the_timeout(
    outage_db: tuple[Runtime, PostgresControl], caplog: pytest.LogCaptureFixture
) -> None:
    """A database that accepts connections but never answers (a stalled host) is as
    unavailable as a stopped one: the user is told within DB_TIMEOUT_SECONDS, not after
    stacked connect and statement timeouts; once it answers again so does the bot."""
    rt, pg = outage_db
    caplog.set_level(logging.WARNING)
    async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT) as h:
        await adult(h, ALICE)
        sent = await _reply_to(h, ALICE, QUESTION)
        assert len(cards(sent)) == 3
        pg.freeze()
        try:
            for chat_id, text in ((ALICE, QUESTION), (BOB, "/start")):
                sent = await _reply_to(h, chat_id, text)
                assert [c.visible_text for c in sent] == [T.unavailable], text
                assert pg.frozen()  # told while the database still hangs
        finally:
            pg.thaw()
        sent = await _reply_to(h, ALICE, QUESTION)
        assert len(cards(sent)) == 3
    assert await history_problems(rt.sessions) == []
    assert "database unavailable" in caplog.text


async def test_without_an_llm_the_outage_is_reported_the_same_way(
    outage_db: tuple[Runtime, PostgresControl],
) -> None:
    """Without an LLM (offline answers) a stopped database is reported the same way."""
    rt, pg = outage_db
    async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT) as h:
        await adult(h, ALICE)
        sent = await _reply_to(h, ALICE, QUESTION)
        assert len(cards(sent)) == 3
        await asyncio.to_thread(pg.stop)
        sent = await _reply_to(h, ALICE, QUESTION)
        assert [c.visible_text for c in sent] == [T.unavailable]
        assert not pg.running()  # told while the database is still away
        await asyncio.to_thread(pg.start)
        sent = await _reply_to(h, ALICE, QUESTION)
        assert len(cards(sent)) == 3


async def test_a_restart_between_messages_costs_no_answer(
    outage_db: tuple[Runtime, PostgresControl], caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL restarts while nobody writes: every pooled connection is dead, yet the next
    question is answered, not met with «temporarily unavailable»."""
    rt, pg = outage_db
    caplog.set_level(logging.WARNING)
    first, *after_restart = NEWCOMERS  # new chats: three unseen wines are there for each
    async with running_bot(rt, db_timeout_seconds=DB_TIMEOUT) as h:
        await adult(h, first)
        sent = await _reply_to(h, first, QUESTION)
        assert len(cards(sent)) == 3
        assert rt.engine.pool.checkedin() >= 1
        await asyncio.to_thread(pg.stop)
        await asyncio.to_thread(pg.start)
        restarted = time.time()
        for chat_id in after_restart:
            await adult(h, chat_id)
            sent = await _reply_to(h, chat_id, QUESTION)
            assert len(cards(sent)) == 3, [c.visible_text for c in sent]
    # The background rounds (leases, heartbeat) that fall while the server is down say so, as
    # they should; once it is back, no stale pooled connection may be taken for an outage.
    after = [r.getMessage() for r in caplog.records if r.created >= restarted]
    assert not [m for m in after if "unavailable" in m.lower()], after
