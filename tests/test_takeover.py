"""How an update moves from one bot process to another, and only when it must (issue 39).

- An answer longer than several leases stays with its process: it renews its leases, no other
  replica takes it over, and a renewal that comes late (a blocked event loop, a slow database)
  does not make the process take over its own update.
- A SIGKILLed process is noticed by its heartbeat: its update is answered well before the
  lease ends. One merely frozen that long is taken for dead as well; woken, it finds the
  update taken over and says nothing more.
- «The answer is late» is said once, however many takeovers it takes.
- The one window no ledger can close: a process killed after Telegram accepted a part and
  before the ledger recorded it. The person gets that part (and only that one) twice.

The real-process cases reuse tests/test_crash_recovery.py's `sommelier bot` processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from fakes.openai_server import FakeOpenAIServer, responder
from fakes.telegram_server import FakeTelegramServer, SentCall
from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.bot_helpers import API_KEY, JSONDict, cards, fake_llm, llm_settings, messages
from tests.fault_helpers import good_agent
from tests.test_crash_recovery import (
    QUESTION,
    BotProcess,
    assert_one_complete_answer,
    bot_process,
    confirm_age,
    ledger_row,
    post_update,
    until_finished,
)

pytestmark = pytest.mark.slow  # real processes: `make test-fast` skips them

GOOD = good_agent({"wine_type": "red", "sweetness": "dry"})


class Model:
    """The fake model behind the bot processes: `GOOD`, `seconds` per call, counting the
    agent's steps (its calls: two per answer, the search and the answer, whether or not the
    second still offers tools); `hold_next` makes the next call wait
    until released (a process killed meanwhile never gets its reply)."""

    def __init__(self, llm: FakeOpenAIServer, seconds: float = 0.0) -> None:
        self.seconds = seconds
        self.steps = 0
        self.called = asyncio.Event()
        self.hold_next = False
        self.release = asyncio.Event()
        llm.script(*[responder(self._respond)] * 20)

    async def _respond(self, body: JSONDict) -> object:
        self.steps += 1
        self.called.set()
        if self.hold_next:
            self.hold_next = False
            await self.release.wait()
        await asyncio.sleep(self.seconds)
        return GOOD(body)

    def env(self, llm: FakeOpenAIServer) -> dict[str, str]:
        return {"LLM_API_KEY": API_KEY, "LLM_BASE_URL": llm.base_url, "LLM_TIMEOUT_SECONDS": "60"}


@contextlib.asynccontextmanager
async def replicas(
    runtime: Runtime, tg: FakeTelegramServer, extra: dict[str, str], *failpoints: str | None
) -> AsyncIterator[list[BotProcess]]:
    """Webhook replicas, one per failpoint (None: not armed), all running at once."""
    async with contextlib.AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(
                bot_process(runtime, tg, webhook=True, failpoint=point, extra=extra)
            )
            for point in failpoints
        ]


async def ask(replica: BotProcess, tg: FakeTelegramServer, chat_id: int) -> int:
    update = tg.accept_update(tg.message_update(chat_id, QUESTION))
    assert replica.webhook is not None
    assert await post_update(replica.webhook, update) == 200
    return int(update["update_id"])


@pytest.mark.parametrize("count", [1, 2])
async def test_an_answer_longer_than_several_leases_is_answered_once(
    seeded: Runtime, count: int
) -> None:
    """3 s leases, a model that takes 5 s a step (an answer of three leases and more): the
    process answering renews its leases, and neither it nor a second replica checking every
    second takes the update over."""
    chat_id = 981_001 + count
    await confirm_age(seeded, chat_id)
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm, seconds=5.0)
        env = model.env(llm) | {"UPDATE_LEASE_SECONDS": "3"}
        async with replicas(seeded, tg, env, *[None] * count) as running:
            update_id = await ask(running[0], tg, chat_id)
            row = await until_finished(seeded, update_id)
        assert row["finished"] and row["attempts"] == 1
        assert model.steps == 2, "the model was asked again: the update was taken over"
        assert_one_complete_answer(tg.sent(chat_id=chat_id), resent_notice=False)


async def test_a_late_renewal_does_not_make_a_process_take_over_its_own_update(
    seeded: Runtime,
) -> None:
    """The lease of an update still being answered runs out (its renewal is late: a blocked
    event loop, a slow database), and the process's recovery round comes first. The update is
    this process's own, alive: it is left alone, and the person gets one answer."""
    chat_id = 981_010
    await confirm_age(seeded, chat_id)
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        model = Model(llm)
        model.hold_next = True
        await h.say(chat_id, QUESTION)
        await asyncio.wait_for(model.called.wait(), 30)
        async with seeded.engine.begin() as conn:
            await conn.execute(
                text("UPDATE telegram_updates SET lease_until = now() - interval '1 second'")
            )
        await h.order.recover()
        model.release.set()
        await h.tg.wait_for(lambda calls: len(cards(calls)) >= 3, 30)
        await h.idle()
        (update_id,) = await _ledger_ids(seeded)
        row = await ledger_row(seeded, update_id)
    assert row is not None and row["finished"] and row["attempts"] == 1
    assert model.steps == 2
    assert_one_complete_answer(h.tg.sent(chat_id=chat_id), resent_notice=False)


async def test_a_killed_process_is_noticed_by_its_heartbeat_well_before_its_lease_ends(
    seeded: Runtime,
) -> None:
    """60 s leases, a 2 s process timeout: the replica that died holding the update stops
    beating, and the other replica answers within seconds, not after the lease."""
    chat_id = 981_020
    await confirm_age(seeded, chat_id)
    extra = {"UPDATE_LEASE_SECONDS": "60", "PROCESS_TIMEOUT_SECONDS": "2"}
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        async with replicas(seeded, tg, model.env(llm) | extra, "stored", None) as (doomed, _):
            update_id = await ask(doomed, tg, chat_id)
            assert await doomed.killed()
            loop = asyncio.get_running_loop()
            killed_at = loop.time()
            row = await until_finished(seeded, update_id, timeout=30)  # half the lease
            answered_after = loop.time() - killed_at
        assert row["finished"] and row["attempts"] == 2, answered_after
        assert_one_complete_answer(tg.sent(chat_id=chat_id), resent_notice=True)


async def test_a_frozen_process_whose_update_was_taken_over_sends_nothing_when_it_wakes(
    seeded: Runtime,
) -> None:
    """A replica frozen (SIGSTOP: a paused VM, a blocked event loop) while the model thinks,
    for longer than the 2 s process timeout: the other replica takes the update over and
    answers. Woken, the frozen one gets its model's reply, finds the update no longer its own
    when it would store the answer, and sends nothing: one answer, not two."""
    chat_id = 981_025
    await confirm_age(seeded, chat_id)
    extra = {"UPDATE_LEASE_SECONDS": "60", "PROCESS_TIMEOUT_SECONDS": "2"}
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        model.hold_next = True
        async with replicas(seeded, tg, model.env(llm) | extra, None, None) as (frozen, _):
            update_id = await ask(frozen, tg, chat_id)
            await asyncio.wait_for(model.called.wait(), 60)
            pid = await _holder_pid(seeded, update_id)
            os.kill(pid, signal.SIGSTOP)
            try:
                row = await until_finished(seeded, update_id, timeout=30)
            finally:
                os.kill(pid, signal.SIGCONT)
            model.release.set()  # the frozen replica's model call returns
            await frozen.stop()  # and it exits once that answer is done with
            assert frozen.process.returncode == 0
        assert row["finished"] and row["attempts"] == 2
        assert model.steps == 4, "the frozen replica did not go on with its answer"
        assert_one_complete_answer(tg.sent(chat_id=chat_id), resent_notice=True)


async def test_the_late_answer_notice_is_sent_once_when_the_takeover_dies_too(
    seeded: Runtime,
) -> None:
    """The first process dies with the update stored; the second takes it over, tells the
    person the answer is late, and is killed while the model thinks; the third answers. The
    person is told once."""
    chat_id = 981_030
    await confirm_age(seeded, chat_id)
    async with fake_llm() as llm, FakeTelegramServer() as tg:
        model = Model(llm)
        env = model.env(llm)
        update = tg.message_update(chat_id, QUESTION)
        update_id = int(update["update_id"])
        tg.push_update(update)
        async with bot_process(seeded, tg, webhook=False, failpoint="stored", extra=env) as first:
            assert await first.killed()
        model.hold_next = True
        async with bot_process(seeded, tg, webhook=False, extra=env) as second:
            await asyncio.wait_for(model.called.wait(), 60)  # after the notice
            second.process.kill()
            await second.process.wait()
        model.release.set()
        async with bot_process(seeded, tg, webhook=False, extra=env) as third:
            row = await until_finished(seeded, update_id)
            await third.stop()
        assert row["finished"] and row["attempts"] == 3
        assert_one_complete_answer(tg.sent(chat_id=chat_id), resent_notice=True)


async def test_a_kill_between_sending_a_card_and_recording_it_repeats_that_card_only(
    seeded: Runtime,
) -> None:
    """Telegram accepted the first card and the process died before the ledger recorded it.
    Telegram's sendMessage has no idempotency key, so the process taking over cannot know the
    card arrived and sends it again: the one part in flight, twice, and nothing else."""
    chat_id = 981_040
    await confirm_age(seeded, chat_id)
    async with FakeTelegramServer() as tg:
        async with replicas(seeded, tg, {}, "card_sent_unrecorded", None) as (doomed, _):
            update_id = await ask(doomed, tg, chat_id)
            assert await doomed.killed(), "the process did not die after the first card"
            row = await until_finished(seeded, update_id)
        assert row["finished"] and row["attempts"] == 2
        sent = messages(tg.sent(chat_id=chat_id))
        texts = [c.visible_text or "" for c in sent]
        shown = [c.visible_text for c in cards(sent)]
        assert len(shown) == 4 and len(set(shown)) == 3, texts
        assert shown[0] == shown[1], f"not the card in flight was repeated: {texts}"
        assert _prose(sent) == [texts[0], texts[-1]], texts
        assert texts[1] == texts[2] == shown[0], texts


def _prose(sent: list[SentCall]) -> list[str]:
    shown = {c.visible_text for c in cards(sent)}
    return [c.visible_text or "" for c in sent if c.visible_text not in shown]


async def _holder_pid(runtime: Runtime, update_id: int) -> int:
    """The process holding the update: its lease owner is `host:pid:suffix`."""
    async with runtime.engine.connect() as conn:
        owner = await conn.scalar(
            text("SELECT lease_owner FROM telegram_updates WHERE update_id = :u"), {"u": update_id}
        )
    return int(str(owner).rsplit(":", 2)[1])


async def _ledger_ids(runtime: Runtime) -> list[int]:
    async with runtime.engine.connect() as conn:
        return list((await conn.execute(text("SELECT update_id FROM telegram_updates"))).scalars())
