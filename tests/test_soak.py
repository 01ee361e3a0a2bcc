"""A small chaos soak in the suite: the invariants of `python -m bench.soak` at a small scale.

The full run (5,000 messages from 200 chats) is `sommelier bench --soak`; see BENCHMARKS.md.
"""

from __future__ import annotations

import pytest

from bench.soak import run_soak
from services.app.runtime import Runtime
from tests.bot_harness import running_bot


@pytest.mark.slow
async def test_small_chaos_soak_keeps_every_promise() -> None:
    report = await run_soak(
        150, 15, rate=40, llm_fault_rate=0.2, telegram_fault_rate=0.04, db_down_seconds=1.5
    )
    summary = report.summary()
    assert report.db_restarts == 1, summary
    assert sum(report.llm_faults.values()) > 0, summary
    assert sum(report.telegram_faults.values()) > 0, summary
    # Every message answered or explicitly refused, once — judged per update id from what
    # the fake Bot API accepted: none lost, none shown a message twice; nothing went unhandled.
    # (An apology follows an answer whose delivery Telegram failed: it is one of the answered.
    # When Telegram refuses an answer's first part for good (an injected 400 «Invalid
    # request»), the apology is all the chat shows: explicit, never a silent loss.)
    assert report.lost == [], summary
    assert report.duplicated == [], summary
    assert report.answered + report.refused + report.apologised_only == 150, summary
    assert report.apologised_only <= report.telegram_faults.get("sendMessage 400", 0), summary
    assert sum(report.apologies.values()) <= report.answered, summary
    assert report.unhandled == {}, summary
    # Served again after the restart: no message sent once the database was back is refused
    # (messages in flight while it was away may be).
    assert report.answered_after_restart > 0, summary
    assert report.refused_sent_after_back == 0, summary
    assert report.sent_after_back > 0, summary
    # Strictly valid requests, accepted markup, consistent stored histories.
    assert report.llm_invalid_requests == 0, summary
    assert report.telegram_unexpected_rejections == [], summary
    assert report.history_problems == [], summary
    assert report.stored_messages > 0, summary
    assert report.ok, summary


async def test_no_memory_is_kept_per_user(seeded: Runtime) -> None:
    """Every user who ever wrote must not cost the process memory (aiogram's FSM storage
    kept one record per user forever); what the bot knows of a user lives in the database."""
    async with running_bot(seeded) as h:
        for user in range(996_000, 996_020):
            await h.say(user, "/help")
        await h.idle()
        assert len(h.tg.sent("sendMessage")) == 20
        assert len(h.dp.fsm.storage.storage) == 0  # type: ignore[attr-defined]
