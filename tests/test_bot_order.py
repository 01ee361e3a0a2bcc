"""A burst from one chat is answered in order; different chats do not wait for each other."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from aiogram.types import Chat, Message, TelegramObject, Update

from bot.coordination import Coordinator, Delivery, Intake
from bot.intake import body_of
from bot.middlewares import DELIVERY_KEY, ChatOrderMiddleware
from core.domain import WINE_TYPE_RU, WineType
from core.errors import DatabaseUnavailableError
from fakes.openai_server import Step, responder
from services.app.database import Database
from services.app.ops.ledger import Ledger
from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.bot_helpers import (
    JSONDict,
    adult,
    agent_model,
    card_wine_id,
    fake_llm,
    is_card,
    last_user_text,
    llm_settings,
    messages,
    wines_by_id,
)

CHAT_A = 919001
CHAT_B = 919002
BURST = [WineType.red, WineType.white, WineType.rose, WineType.sparkling, WineType.dessert]


def _question(wine_type: WineType) -> str:
    return f"Посоветуйте {WINE_TYPE_RU[wine_type]} вино"


def _search(question: str) -> JSONDict:
    wine_type = next(t for t in WineType if _question(t) == question)
    return {"wine_type": wine_type.value}


async def _until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "condition not met in time"
        await asyncio.sleep(0.02)


async def test_burst_from_one_chat_is_answered_in_order(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        llm.latency = 0.1  # every model call takes a while, so answers would overtake
        llm.script(*[responder(agent_model(_search))] * (2 * len(BURST)))
        await adult(h, CHAT_A)
        for wine_type in BURST:
            await h.say(CHAT_A, _question(wine_type))
        await h.wait_messages(CHAT_A, 5 * len(BURST), timeout=30)
        await h.idle(timeout=30)

        sent = messages(h.tg.sent(chat_id=CHAT_A))
        intros = [c.visible_text for c in sent if not is_card(c) and "Подборка" in (c.text or "")]
        assert intros == [f"Подборка по запросу «{_question(t)}»" for t in BURST]
        # Each answer is intro, its three cards, closing — never interleaved with another.
        wines = await wines_by_id(seeded, [card_wine_id(c) for c in sent if is_card(c)])
        shown_types: list[list[WineType]] = []
        for call in sent:
            if not is_card(call) and "Подборка" in (call.text or ""):
                shown_types.append([])
            elif is_card(call):
                shown_types[-1].append(wines[card_wine_id(call)].wine_type)
        assert shown_types == [[t] * 3 for t in BURST]
        assert not h.tg.rejected
        assert llm.errors == []


async def test_two_chats_are_served_concurrently(seeded: Runtime) -> None:
    release_a = asyncio.Event()
    slow_question = _question(WineType.red)
    quick_question = _question(WineType.white)

    answer = agent_model(_search)

    async def model(body: JSONDict) -> Step:
        if last_user_text(body) == slow_question:
            await release_a.wait()  # chat A's model hangs until chat B has been answered
        return answer(body)

    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        llm.script(*[responder(model)] * 4)
        await adult(h, CHAT_A)
        await adult(h, CHAT_B)
        await h.say(CHAT_A, slow_question)
        await _until(lambda: any(last_user_text(r) == slow_question for r in llm.requests))

        # While chat A waits for its model, chat B gets a complete answer.
        await h.say(CHAT_B, quick_question)
        b_answer = await h.wait_messages(CHAT_B, 5)
        assert messages(h.tg.sent(chat_id=CHAT_A)) == []

        release_a.set()
        a_answer = await h.wait_messages(CHAT_A, 5)
        await h.idle()
        assert max(c.at for c in b_answer) < min(c.at for c in a_answer)
        types = await wines_by_id(
            seeded, [card_wine_id(c) for c in a_answer + b_answer if is_card(c)]
        )
        assert {types[card_wine_id(c)].wine_type for c in a_answer if is_card(c)} == {WineType.red}
        assert {types[card_wine_id(c)].wine_type for c in b_answer if is_card(c)} == {
            WineType.white
        }
        assert not h.tg.rejected
        assert llm.errors == []


async def test_order_holds_when_the_first_claim_is_slow(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database stores the first update late (a cold connection, a busy server): the
    updates behind it in the same chat still wait for it."""
    original = Coordinator.intake  # updates are stored with the look at their chat's turn
    slowed: list[int] = []

    async def slow_first_intake(
        self: Coordinator, updates: Sequence[Intake]
    ) -> tuple[set[int], set[int]]:
        if not slowed:
            slowed.append(updates[0].update_id)
            await asyncio.sleep(0.3)  # injected latency; the outcome must not depend on it
        return await original(self, updates)

    monkeypatch.setattr(Coordinator, "intake", slow_first_intake)
    burst = BURST[:3]
    async with running_bot(seeded) as h:  # no LLM: the offline path answers
        await adult(h, CHAT_A)
        for wine_type in burst:
            await h.say(CHAT_A, _question(wine_type))
        await h.wait_messages(CHAT_A, 5 * len(burst))
        await h.idle()

        shown = [c for c in messages(h.tg.sent(chat_id=CHAT_A)) if is_card(c)]
        wines = await wines_by_id(seeded, [card_wine_id(c) for c in shown])
        assert [wines[card_wine_id(c)].wine_type for c in shown] == [
            t for t in burst for _ in range(3)
        ]
        assert slowed
        assert not h.tg.rejected


class _DatabaseAwayForFinishes(Coordinator):
    """The ledger's "finished" marks fail `failures` times, as while the database restarts."""

    def __init__(self, coordinator: Coordinator, failures: int) -> None:
        super().__init__(coordinator.ledger, coordinator.lease)
        self.failures = failures

    async def finish(self, update_id: int) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise DatabaseUnavailableError("the database is unavailable")
        await super().finish(update_id)


async def test_an_update_left_unfinished_by_an_outage_does_not_hold_its_chat_back(
    clean_db: Runtime,
) -> None:
    """Update 1 is handled while the database is away, so it cannot be marked finished; the
    first retry fails too. Update 2 of the same chat must still be answered once the database
    is back — not after its lease runs out and another process takes it over."""
    coordinator = _DatabaseAwayForFinishes(Coordinator(Ledger(Database(clean_db.sessions))), 2)
    order = ChatOrderMiddleware(coordinator)
    handled: list[int] = []
    first, second = _text_update(9_100_001), _text_update(9_100_002)
    stored, _ = await coordinator.intake([_intake(first), _intake(second)])
    assert stored == {9_100_001, 9_100_002}

    await order(_recorder(handled), first, _delivered(first, coordinator))
    assert coordinator.unfinished == {9_100_001}
    await asyncio.wait_for(
        order(_recorder(handled), second, _delivered(second, coordinator)), timeout=10
    )
    assert handled == [9_100_001, 9_100_002]
    assert coordinator.unfinished == set()


async def test_an_update_stored_late_by_a_database_that_hung_does_not_hold_its_chat_back(
    clean_db: Runtime,
) -> None:
    """A database that hung still reads the intake it was sent once it wakes, perhaps only
    after the bot (which told the person «unavailable») has marked that update finished. The
    person's next question must be answered at once — not after the late row's lease runs out,
    and without the old question answered a second time."""
    coordinator = Coordinator(Ledger(Database(clean_db.sessions)))
    order = ChatOrderMiddleware(coordinator)
    handled: list[int] = []
    answered_while_away, next_question = _text_update(9_200_001), _text_update(9_200_002)
    coordinator.unfinished.add(answered_while_away.update_id)  # answered, not stored
    await coordinator.finish_unfinished()  # the database answers again
    assert coordinator.unfinished == set()
    # The server reads the intake it was sent only now.
    late, _ = await coordinator.intake([_intake(answered_while_away)])
    assert late == set(), "an update already answered was stored to be answered again"
    stored, behind = await coordinator.intake([_intake(next_question)])
    assert (stored, behind) == ({9_200_002}, set())
    await asyncio.wait_for(
        order(_recorder(handled), next_question, _delivered(next_question, coordinator)),
        timeout=5,
    )
    assert handled == [9_200_002]
    assert await coordinator.take_expired() == []


def _text_update(update_id: int) -> Update:
    chat = Chat(id=CHAT_A, type="private")
    message = Message(message_id=update_id, date=0, chat=chat, text="красное")
    return Update(update_id=update_id, message=message)


def _intake(update: Update) -> Intake:
    return Intake(update.update_id, CHAT_A, CHAT_A, body_of(update))


def _delivered(update: Update, coordinator: Coordinator) -> dict[str, Any]:
    """The handler data the worker passes with a stored update."""
    return {DELIVERY_KEY: Delivery(update.update_id, coordinator=coordinator)}


def _recorder(handled: list[int]) -> Callable[[TelegramObject, dict[str, Any]], Awaitable[None]]:
    """A handler that notes which updates reached it, in order."""

    async def handler(update: TelegramObject, data: dict[str, Any]) -> None:
        assert isinstance(update, Update)
        handled.append(update.update_id)

    return handler


async def test_no_more_updates_in_flight_than_the_cap(seeded: Runtime) -> None:
    """MAX_CONCURRENT_UPDATES bounds one process: with 2, four chats asking at once get two
    answers under way; the other two wait, stored, and are answered as those finish."""
    chats = [CHAT_A + 100 + i for i in range(4)]
    release = asyncio.Event()
    thinking: list[str] = []
    answer = agent_model(_search)

    async def held(body: JSONDict) -> Step:
        thinking.append(last_user_text(body))
        await release.wait()
        return answer(body)

    async with fake_llm() as llm:
        llm.script(*[responder(held)] * 20)
        async with running_bot(seeded, max_concurrent_updates=2, **llm_settings(llm)) as h:
            for chat in chats:
                await adult(h, chat)
            for chat in chats:
                await h.say(chat, _question(WineType.red))
            await _until(lambda: len(thinking) >= 2, 30)
            # Every update was taken in at once; two are answered, two wait for a slot.
            assert h.order.in_flight == 4 and h.order.answering == 2
            assert len(thinking) == 2
            release.set()
            for chat in chats:
                await h.wait_messages(chat, 5, timeout=30)
        assert llm.errors == []
