"""Telegram failing in the middle of an answer: 429, 5xx, timeouts, rejected markup, 403.

The answer (intro, three cards, closing) comes from the offline recommender, so it is the same
every time: the first ask without faults is the reference the faulty ask is compared with.
A fault is aimed at the first card, after the intro has gone out.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable

import pytest

from bot.callbacks import AgeCallback
from fakes.telegram_server import FakeTelegramServer, SentCall
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import adult, ask, cards, feedback_rows, messages, user_row

QUESTION = "белое сухое к рыбе до 3000"
PARSE_ERROR = 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 0'


async def _fault_on_first_card(
    h: BotHarness, chat_id: int, inject: Callable[[int], object]
) -> list[SentCall]:
    """Ask, and hit the first card with the fault `inject(after)` arms: the second sendMessage
    of the answer (the intro, `after` = 1, passes untouched)."""
    before = len(h.tg.calls)
    inject(1)
    await h.say(chat_id, QUESTION)
    await h.idle(timeout=30)
    return h.tg.calls[before:]


def _texts(calls: list[SentCall]) -> list[str]:
    return [c.visible_text or "" for c in messages(calls) if c.ok]


FAULTS: dict[str, Callable[[FakeTelegramServer, int], object]] = {
    "429": lambda tg, after: tg.fail_next(
        "sendMessage", 429, "Too Many Requests: retry after 1", 1, after=after
    ),
    "502": lambda tg, after: tg.fail_next("sendMessage", 502, "Bad Gateway", after=after),
    "500": lambda tg, after: tg.fail_next("sendMessage", 500, "Internal Server Error", after=after),
    "timeout": lambda tg, after: tg.delay_next("sendMessage", 1.5, after=after),
    "cant-parse-entities": lambda tg, after: tg.fail_next(
        "sendMessage", 400, PARSE_ERROR, after=after
    ),
}


@pytest.mark.parametrize("kind", list(FAULTS))
async def test_a_fault_on_a_card_still_delivers_the_whole_answer(
    seeded: Runtime, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    chat_id = 951_000 + list(FAULTS).index(kind)
    async with running_bot(seeded) as h:
        h.bot.session.timeout = 1  # aiogram waits 60 s by default; keep the test short
        await adult(h, chat_id)
        reference = _texts(await ask(h, chat_id, QUESTION))
        # A conversation does not show a wine twice: each repeat starts a new conversation.
        await h.services.people.new_conversation(chat_id)
        assert len(reference) == 5 and len(cards(await ask(h, chat_id, QUESTION))) == 3

        await h.services.people.new_conversation(chat_id)
        calls = await _fault_on_first_card(h, chat_id, lambda after: FAULTS[kind](h.tg, after))
        got = _texts(calls)
        if kind == "timeout":
            # A timed-out send may still have been delivered: the retry can repeat it, but
            # nothing is lost and the rest keeps its order.
            assert [t for i, t in enumerate(got) if t not in got[:i]] == reference
            assert set(got) == set(reference)
        else:
            assert got == reference
        delivered_cards = cards([c for c in calls if c.ok])
        assert len({c.visible_text for c in delivered_cards}) == 3
        assert all(len(c.inline_buttons) == 5 for c in delivered_cards)  # «Поделиться», «⭐»
        rejected = [c for c in calls if not c.ok]
        sends = [c for c in messages(calls) if c.chat_id == chat_id]
        if kind == "timeout":  # the first card was held past the client's timeout: sent again
            assert [c.visible_text for c in sends].count(reference[1]) == 2
        else:  # the fault met the first card, and only it
            first_wine = reference[1].split("\n")[0].rsplit(",", 1)[0]  # its name
            assert len(rejected) == 1 and first_wine in str(rejected[0].params.get("text")), [
                c.params.get("text") for c in rejected
            ]
        if kind == "429":
            (limited,) = rejected
            retried = next(
                c for c in calls if c.ok and c.at > limited.at and c.method == "sendMessage"
            )
            assert retried.at - limited.at >= 0.9  # waited retry_after
        if kind == "cant-parse-entities":
            (plain,) = [c for c in delivered_cards if "parse_mode" not in c.params]
            assert "<b>" not in (plain.text or "")
        assert T.apology not in got
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_blocked_mid_answer_stops_sending_and_marks_the_user_inactive(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    chat_id = 952_001
    async with running_bot(seeded) as h:
        await adult(h, chat_id)
        calls = await _fault_on_first_card(
            h,
            chat_id,
            lambda after: h.tg.fail_next(
                "sendMessage", 403, "Forbidden: bot was blocked by the user", times=5, after=after
            ),
        )
        attempts = [(c.method, c.status) for c in messages(calls)]
        assert attempts == [("sendMessage", 200), ("sendMessage", 403)]  # intro; no retry
        user = await user_row(seeded, chat_id)
        assert user is not None and not user.is_active
        gc.collect()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_typing_and_drafts_failing_never_break_an_answer(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """The typing indicator and drafts are extras: Telegram refusing them costs nothing."""
    chat_id = 953_001
    async with running_bot(seeded) as h:
        await adult(h, chat_id)
        reference = _texts(await ask(h, chat_id, QUESTION))
        h.tg.fail_next("sendChatAction", 403, "Forbidden: bot was blocked by the user")
        h.tg.fail_next("sendMessageDraft", 400, "Bad Request: TEXTDRAFT_PEER_INVALID")
        # The same answer again, not the next wines.
        await h.services.people.new_conversation(chat_id)
        assert _texts(await ask(h, chat_id, QUESTION)) == reference
        gc.collect()  # a failed background task reports its exception when it is collected
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_polling_survives_getupdates_failures(seeded: Runtime) -> None:
    chat_id = 954_001
    async with running_bot(seeded) as h:
        await adult(h, chat_id)
        h.tg.fail_next("getUpdates", 502, "Bad Gateway", times=2)
        h.tg.fail_next("getUpdates", 429, "Too Many Requests: retry after 1", 1)
        await h.tg.wait_for(lambda _: len(h.tg.rejected) == 3, timeout=15)
        await h.say(chat_id, QUESTION)
        await h.wait_messages(chat_id, 5, timeout=30)
        assert len(cards(h.tg.sent(chat_id=chat_id))) == 3
        assert [c.status for c in h.tg.rejected] == [502, 502, 429]


async def test_a_busy_stream_of_messages_comes_in_fewer_long_polls_than_messages(
    seeded: Runtime,
) -> None:
    """Twelve people write 20 ms apart: after a batch the bot lets the next ones arrive for a
    moment, so they come several to a long poll (and to an intake statement) — and every one
    of them is answered."""
    async with running_bot(seeded) as h:
        people = range(954_101, 954_113)
        for person in people:
            await h.say(person, "/help")
            await asyncio.sleep(0.02)
        await h.idle(timeout=30)
        assert sorted({c.chat_id for c in messages(h.tg.sent())}) == list(people)
        polls = [c for c in h.tg.sent("getUpdates") if c.result]
        assert sum(len(c.result) for c in polls) == len(people)
        assert len(polls) <= len(people) // 2, [len(c.result) for c in polls]


EXPIRED = "Bad Request: query is too old and response timeout expired or query ID is invalid"


async def test_a_button_pressed_long_ago_still_works(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram refuses to answer a callback query that is too old (a press handled late, e.g.
    after an outage); the press itself must still take effect, without an apology."""
    chat_id = 955_001
    async with running_bot(seeded) as h:
        (gate,) = await ask(h, chat_id, "/start")
        h.tg.fail_next("answerCallbackQuery", 400, EXPIRED)
        h.tg.push_update(
            h.tg.callback_update(
                chat_id, AgeCallback(adult=True).pack(), message_id=gate.message_id
            )
        )
        await h.idle()
        welcome = [c for c in messages(h.tg.sent(chat_id=chat_id)) if c is not gate]
        assert len(cards(welcome)) == 3  # confirmed and welcomed
        user = await user_row(seeded, chat_id)
        assert user is not None and user.age_confirmed

        card = cards(welcome)[0]
        h.tg.fail_next("answerCallbackQuery", 400, EXPIRED)
        like = next(b for b in card.inline_buttons if b["text"] == "👍")["callback_data"]
        h.tg.push_update(h.tg.callback_update(chat_id, like, message_id=card.message_id))
        await h.idle()
        assert await feedback_rows(seeded, chat_id)  # the vote is stored
        assert h.tg.sent("editMessageReplyMarkup", chat_id=chat_id)  # and the card shows it
        assert T.apology not in h.texts(chat_id)
        assert [c.status for c in h.tg.rejected] == [400, 400]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_slow_typing_indicator_does_not_hold_the_answer_back(seeded: Runtime) -> None:
    chat_id = 956_001
    async with running_bot(seeded) as h:
        await adult(h, chat_id)
        # Telegram holds the indicator for a minute: the whole answer arrives meanwhile.
        h.tg.delay_next("sendChatAction", 60.0)
        await h.say(chat_id, QUESTION)
        await h.wait_messages(chat_id, 5, timeout=30)
        assert not h.tg.sent("sendChatAction", chat_id=chat_id)  # still held when it arrived
        assert len(cards(h.tg.sent(chat_id=chat_id))) == 3
