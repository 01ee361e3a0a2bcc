"""Sending many messages within Telegram's limits (issue 43), over real `sommelier bot`
processes and the fake Bot API, which answers 429 past Telegram's limits as Telegram does:

- a person who blocked the bot is never sent to again, until they write;
- a 1,000-subscriber alert stays under the limits while a waiting person's answer goes out
  first;
- a 429 with `retry_after` on one replica holds back the others.

And the fake itself keeps those limits (in process, fast).
"""

from __future__ import annotations

import asyncio
import time

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramForbiddenError, TelegramRetryAfter

from bot.outbox_sender import BATCH
from fakes.telegram.limits import TelegramLimits
from fakes.telegram_server import FakeTelegramServer, SentCall
from repositories.telegram_limits import Pace
from services.app.database import Database
from services.app.runtime import Runtime
from services.app.sending.local_pace import LocalPace
from services.app.sending.outbox import Outbox, OutgoingMessage
from tests.bot_helpers import fake_llm
from tests.test_crash_recovery import (
    QUESTION,
    BotProcess,
    bot_process,
    confirm_age,
    post_update,
)
from tests.test_takeover import Model, replicas

ALERT = "Появилось: Шабли Премье Крю, 2 990 ₽"


def outbox(runtime: Runtime) -> Outbox:
    return Outbox(Database(runtime.sessions))


def alerts(tg: FakeTelegramServer) -> list[SentCall]:
    return [c for c in tg.calls if c.method == "sendMessage" and c.params.get("text") == ALERT]


async def until(condition: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.05)


# ------------------------------------------------------------------ the fake keeps the limits


def make_bot(tg: FakeTelegramServer) -> Bot:
    return Bot(tg.token, session=AiohttpSession(api=TelegramAPIServer.from_base(tg.base_url)))


async def test_the_fake_answers_429_past_a_chats_pace_and_the_bots_rate() -> None:
    async with FakeTelegramServer() as tg:
        bot = make_bot(tg)
        try:
            for _ in range(tg.limits.chat_burst):  # a short burst is tolerated
                await bot.send_message(1001, "hi")
            with pytest.raises(TelegramRetryAfter) as refused:
                await bot.send_message(1001, "one too many")
            assert refused.value.retry_after == 1
            with pytest.raises(TelegramRetryAfter):  # 30 a second, after a short clump
                for chat in range(2000, 2040):
                    await bot.send_message(chat, "hi")
            assert [why for *_, why in tg.limits.refusals] == ["chat", "bot"]
            assert len(tg.sent("sendMessage")) < 30
            await asyncio.sleep(1.3)
            await bot.send_message(1001, "a second later")
            await bot.send_message(3000, "a second later")
            await bot.send_chat_action(1001, "typing")  # not a message: not counted
        finally:
            await bot.session.close()


async def test_the_fake_counts_a_slow_call_when_it_arrives_not_when_it_is_answered() -> None:
    """A call Telegram is slow to answer was counted when it arrived: the messages sent at the
    bot's pace after it are not counted ahead of it, and it is not refused for their pace."""
    async with FakeTelegramServer() as tg:
        bot = make_bot(tg)
        try:
            tg.delay_next("sendMessage", 1.0)
            slow = asyncio.create_task(bot.send_message(1001, "slow to answer"))
            await asyncio.sleep(0.02)
            for chat in range(2000, 2027):  # a second's worth at 27 a second
                await bot.send_message(chat, "paced")
                await asyncio.sleep(1 / 27)
            await slow
            assert not tg.limits.refusals
            with pytest.raises(TelegramRetryAfter):  # and still as strict past the limits
                for chat in range(3000, 3040):
                    await bot.send_message(chat, "too fast")
        finally:
            await bot.session.close()


async def test_the_fake_answers_403_to_a_chat_that_blocked_the_bot() -> None:
    async with FakeTelegramServer() as tg:
        bot = make_bot(tg)
        try:
            tg.block_bot(1001)
            with pytest.raises(TelegramForbiddenError, match="blocked by the user"):
                await bot.send_message(1001, "hi")
            tg.block_bot(1001, blocked=False)
            await bot.send_message(1001, "hi")
        finally:
            await bot.session.close()


# ------------------------------------------------------------------ real processes


@pytest.mark.slow
async def test_a_person_who_blocked_the_bot_is_never_sent_to_again(seeded: Runtime) -> None:
    blocker, other = 961_001, 961_002
    await confirm_age(seeded, blocker)
    await confirm_age(seeded, other)
    box = outbox(seeded)
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        tg.block_bot(blocker)
        async with bot_process(seeded, tg, webhook=True, extra=model.env(llm)) as bot:
            # Two alerts for them queued before anyone knows, the second a few batches later:
            # the first is refused (403), the second never tried.
            between = [OutgoingMessage(9_610_000 + n, ALERT) for n in range(2 * BATCH)]
            await box.enqueue(
                "alert",
                [OutgoingMessage(blocker, ALERT), *between, OutgoingMessage(blocker, ALERT)],
            )
            await until(lambda: any(c.status == 403 for c in tg.rejected))
            await until_outbox_empty(box)
            assert len([c for c in alerts(tg) if c.ok]) == len(between)
            # Later alerts leave the person out: nothing more is even tried.
            queued = await box.enqueue(
                "alert", [OutgoingMessage(blocker, ALERT), OutgoingMessage(other, ALERT)]
            )
            assert queued == 1
            await until(lambda: len(alerts(tg)) == len(between) + 2)
            await until_outbox_empty(box)
            tried = [c for c in alerts(tg) if c.chat_id == blocker]
            assert [c.status for c in tried] == [403]
            # They unblock and write: the answer goes out, and alerts reach them again.
            tg.block_bot(blocker, blocked=False)
            await ask(bot, tg, blocker)
            await until(lambda: len(tg.sent("sendMessage", chat_id=blocker)) >= 2)
            assert await box.enqueue("alert", [OutgoingMessage(blocker, ALERT)]) == 1
            await until(lambda: any(c.ok for c in alerts(tg) if c.chat_id == blocker), 30)
        assert not [c for c in tg.rejected if c.status == 429]


async def until_outbox_empty(box: Outbox, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while await box.waiting():
        if time.monotonic() > deadline:
            raise AssertionError("the outbox was not drained in time")
        await asyncio.sleep(0.1)


async def ask(bot: BotProcess, tg: FakeTelegramServer, chat_id: int) -> float:
    """Post a question; the time it was posted."""
    update = tg.accept_update(tg.message_update(chat_id, QUESTION))
    assert bot.webhook is not None
    posted = time.monotonic()
    assert await post_update(bot.webhook, update) == 200
    return posted


async def answer_seconds(
    bot: BotProcess, tg: FakeTelegramServer, chat_id: int
) -> tuple[float, float]:
    """Seconds from a question to the first and to the last of its answer's five messages."""
    posted = await ask(bot, tg, chat_id)
    await until(lambda: len(answer_parts(tg, chat_id)) >= 5, 60)
    parts = answer_parts(tg, chat_id)
    return parts[0].at - posted, parts[4].at - posted


def answer_parts(tg: FakeTelegramServer, chat_id: int) -> list[SentCall]:
    return [c for c in tg.sent(chat_id=chat_id) if c.method in ("sendMessage", "sendPhoto")]


def most_in(calls: list[SentCall], seconds: float) -> int:
    """The most calls that arrived within any `seconds`."""
    times = sorted(c.at for c in calls)
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= seconds:
            start += 1
        most = max(most, end - start + 1)
    return most


@pytest.mark.slow
async def test_a_thousand_subscriber_alert_stays_under_the_limits_and_answers_go_first(
    seeded: Runtime,
) -> None:
    asker, before = 962_001, 962_002
    subscribers = [9_620_000 + n for n in range(1000)]
    for chat in (asker, before):
        await confirm_age(seeded, chat)
    box = outbox(seeded)
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        async with replicas(seeded, tg, model.env(llm), None, None) as (first, second):
            quiet = await answer_seconds(first, tg, before)  # the same answer, no alert
            await box.enqueue("alert", [OutgoingMessage(chat, ALERT) for chat in subscribers])
            await until(lambda: len(alerts(tg)) >= 100, 60)  # the alert is streaming
            busy = await answer_seconds(second, tg, asker)
            left_when_answered = 1000 - len([c for c in alerts(tg) if c.ok])
            await until_outbox_empty(box, 120)
    sent = [c for c in alerts(tg) if c.ok]
    assert sorted(c.chat_id for c in sent) == subscribers  # each once
    assert not tg.limits.refusals, tg.limits.refusals[:5]  # never one 429
    # The fake's count is Telegram's (a clump of 10 tolerated); beside it, the sustained rate:
    # what a pace of 30 a second with that clump lets through in any ten seconds, no more.
    assert most_in([c for c in tg.calls if c.ok and c.method == "sendMessage"], 10.0) <= 310
    assert left_when_answered > 300, "the answer waited behind the alert"
    # Behind a stream of alerts an answer waits for a slot or two (1/27 s each), no more.
    assert busy[0] < quiet[0] + 1.0, (quiet, busy)
    assert busy[1] < quiet[1] + 1.5, (quiet, busy)


@pytest.mark.slow
async def test_a_429_on_one_replica_holds_back_the_others(seeded: Runtime) -> None:
    """Two replicas stream an alert; Telegram answers one of them 429 with retry_after 2:
    past the messages already on their way when it came (their slots taken a moment
    before), no replica sends anything until those two seconds are over; then the rest goes
    out."""
    subscribers = [9_630_000 + n for n in range(240)]
    box = outbox(seeded)
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        tg.fail_next("sendMessage", 429, "Too Many Requests: retry after 2", 2, after=60)
        async with replicas(seeded, tg, model.env(llm), None, None):
            await box.enqueue("alert", [OutgoingMessage(chat, ALERT) for chat in subscribers])
            await until_outbox_empty(box, 120)
    refused = [c for c in alerts(tg) if c.status == 429]
    assert len(refused) == 1
    after_hold = [c.at - refused[0].at for c in alerts(tg) if c.ok and c.at > refused[0].at]
    during = [round(seconds, 2) for seconds in after_hold if 0.25 < seconds < 1.95]
    assert not during, f"a replica sent during the other's retry_after: {during}"
    assert len([s for s in after_hold if s <= 0.25]) <= 8  # one slot per sender at most
    assert sorted(c.chat_id for c in alerts(tg) if c.ok) == subscribers


def test_a_message_answered_late_pushes_its_chats_next_slot_back() -> None:
    """A stalled event loop sends a message later than it was counted: the chat's next slot
    follows Telegram's answer, so the next message never arrives less than a second after it
    (the small chaos soak met 429s this way on a loaded machine)."""
    pace = Pace(bot_seconds=1 / 30, private_seconds=1.0, group_seconds=3.0, chat_burst=1)
    local = LocalPace(pace)
    counted = time.monotonic()
    local.take(7, counted)
    assert local.chat_ready_in(7) == pytest.approx(1.0, abs=0.05)
    local.answered(7, counted + 0.8)  # the request left (and was answered) 0.8 s late
    assert local.chat_ready_in(7) == pytest.approx(1.8, abs=0.05)
    local.answered(7, counted + 0.1)  # an answer that came soon changes nothing
    assert local.chat_ready_in(7) == pytest.approx(1.8, abs=0.05)
    local.answered(-5, counted)  # a group's interval is its own
    assert local.chat_ready_in(-5) == pytest.approx(3.0, abs=0.05)


async def test_slots_reserved_ahead_wait_for_the_answers_of_a_stalled_burst() -> None:
    """The database away, six notices to one chat take their slots at once (five at the
    burst, the sixth a second later). A loaded loop sends the first five 0.4 s late: the sixth
    still goes only when their answers allow it, so Telegram's own count (the fake's) never
    refuses it (the small chaos soak met this 429 on a loaded machine)."""
    pace = Pace(bot_seconds=1 / 30, private_seconds=1.0, group_seconds=3.0, chat_burst=5)
    local = LocalPace(pace)
    telegram = TelegramLimits()
    started = time.monotonic()

    async def notice(index: int, wait: float) -> None:
        await asyncio.sleep(wait)
        await local.settle(7)
        local.sending(7)
        if index < 5:
            await asyncio.sleep(0.4)  # the stalled loop: the request leaves late
        assert telegram.check("sendMessage", 7) is None, f"notice {index} refused"
        local.answered(7, time.monotonic())

    await asyncio.gather(*(notice(i, local.reserve(7)) for i in range(6)))
    assert telegram.refusals == []
    assert time.monotonic() - started >= 1.3  # the sixth waited for the late answers


async def test_messages_woken_together_by_a_stalled_loop_leave_the_bots_slot_apart() -> None:
    """The database away, twelve notices to twelve chats take the bot's slots a thirtieth of a
    second apart; a stalled loop wakes them all at once. They leave spaced by the clock they
    actually go at, so Telegram's count of the bot (a clump of ten, then thirty a second)
    never refuses one (the small chaos soak met this 429 on a loaded machine)."""
    pace = Pace(bot_seconds=1 / 30, private_seconds=1.0, group_seconds=3.0, chat_burst=5)
    local = LocalPace(pace)
    telegram = TelegramLimits()
    for chat in range(1, 13):
        local.reserve(chat)
    time.sleep(0.5)  # noqa: ASYNC251 (the stalled loop: every slot passes before they wake)

    async def notice(chat: int) -> None:
        await local.settle(chat)
        local.sending(chat)
        assert telegram.check("sendMessage", chat) is None, f"notice to {chat} refused"
        local.answered(chat, time.monotonic())

    started = time.monotonic()
    await asyncio.gather(*(notice(chat) for chat in range(1, 13)))
    assert telegram.refusals == []
    assert time.monotonic() - started >= 7 / 30 - 0.02  # past the clump, a slot apart
