"""An answer's part is marked sent and its next message's permit taken in one statement
(`SendLimits.after_part`): the mark is stored at once, the next message goes out on that permit
without asking for another slot, and an update taken over meanwhile records nothing and takes
no slot from its chat."""

from __future__ import annotations

import time
from datetime import datetime

from sqlalchemy import text

from services.app.database import Database
from services.app.runtime import Runtime
from services.app.sending.limits import PartsSent, SendLimits
from tests.conftest import make_settings
from tests.test_crash_recovery import ledger_row

BOT, CHAT, UPDATE = 42, 501, 77


async def _leased_to(runtime: Runtime, owner: str) -> None:
    async with runtime.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO telegram_updates (update_id, chat_id, body, lease_owner, lease_until)"
                " VALUES (:u, :c, '{}'::jsonb, :o, now() + interval '1 minute')"
            ),
            {"u": UPDATE, "c": CHAT, "o": owner},
        )


async def _chat_slot(runtime: Runtime) -> datetime | None:
    async with runtime.engine.connect() as conn:
        return (
            await conn.execute(
                text("SELECT next_at FROM telegram_chat_pace WHERE bot_id = :b AND chat_id = :c"),
                {"b": BOT, "c": CHAT},
            )
        ).scalar()


def _limits(runtime: Runtime) -> SendLimits:
    return SendLimits(Database(runtime.sessions), make_settings(telegram_chat_burst=1))


async def test_the_mark_is_stored_and_the_next_message_goes_out_on_its_permit(
    clean_db: Runtime,
) -> None:
    await _leased_to(clean_db, "replica-a")
    limits = _limits(clean_db)
    assert await limits.after_part(BOT, CHAT, PartsSent(UPDATE, 2, "replica-a"))
    row = await ledger_row(clean_db, UPDATE)
    assert row is not None and row["sent_parts"] == 2
    slot = await _chat_slot(clean_db)
    assert slot is not None  # the chat's slot is taken
    started = time.monotonic()
    await limits.before_send(BOT, CHAT)
    # Sent on the slot taken with the mark: no second slot, no second of waiting for one.
    assert time.monotonic() - started < 0.5
    assert await _chat_slot(clean_db) == slot
    # The permit serves once: the message after it waits for the chat's next slot.
    started = time.monotonic()
    await limits.before_send(BOT, CHAT)
    assert time.monotonic() - started > 0.5
    assert await _chat_slot(clean_db) != slot


async def test_an_update_taken_over_records_nothing_and_takes_no_slot(clean_db: Runtime) -> None:
    await _leased_to(clean_db, "replica-b")
    limits = _limits(clean_db)
    assert not await limits.after_part(BOT, CHAT, PartsSent(UPDATE, 2, "replica-a"))
    row = await ledger_row(clean_db, UPDATE)
    assert row is not None and row["sent_parts"] == 0
    assert await _chat_slot(clean_db) is None
