"""Sending within Telegram's limits, shared by every replica: the bot's pace (the next free
slot of its ~30 messages a second, and a "hold until" set by a 429's `retry_after`), each
chat's pace (one a second in private, twenty a minute in groups, with a short burst), one
function that takes a permit in one statement, and the outbox of alerts (a durable queue sent
once across replicas and restarts).

`users.is_active` already says whether a person can be written to: a 403 («bot was blocked
by the user») sets it false, and an answer to a message they write sets it true again.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The verdicts: 'send' (sleep `wait` seconds, then send: the slot is taken), 'hold' (a 429's
# retry_after is running: ask again in `wait`), 'pace' (an alert finds the bot's next slot
# taken by others: ask again in `wait`), 'chat' (the chat's own pace: ask again in `wait`),
# 'blocked' (an alert to a person who blocked the bot: never send it). `p_chat_not_before`,
# `p_bot_not_before`: seconds from now before which the asking process will not send to this
# chat, or at all, by its own count (what it sent while the database was away, a 429's hold it
# could not store): no slot is given earlier, so that the shared pace counts each message where
# it really goes.
PERMIT_FUNCTION = """
CREATE FUNCTION telegram_send_permit(
    p_bot bigint, p_chat bigint, p_alert boolean, p_interval double precision,
    p_chat_interval double precision, p_chat_burst integer,
    p_chat_not_before double precision, p_bot_not_before double precision,
    OUT verdict text, OUT wait double precision
) LANGUAGE plpgsql AS $$
DECLARE
    at timestamptz;
    pace telegram_send_pace%ROWTYPE;
    bot_next timestamptz;
    chat_next timestamptz;
    chat_ready timestamptz;
    horizon timestamptz;
    slot timestamptz;
BEGIN
    IF p_alert THEN
        IF EXISTS (SELECT 1 FROM users WHERE id = p_chat AND NOT is_active) THEN
            verdict := 'blocked'; wait := 0; RETURN;
        END IF;
    ELSE
        -- An answer goes to someone who wrote: whoever blocked the bot has unblocked it.
        UPDATE users SET is_active = true WHERE id = p_chat AND NOT is_active;
    END IF;
    INSERT INTO telegram_send_pace (bot_id) VALUES (p_bot) ON CONFLICT DO NOTHING;
    SELECT * INTO pace FROM telegram_send_pace WHERE bot_id = p_bot FOR UPDATE;
    at := clock_timestamp();  -- after the lock: the wait for it must not age the clock
    IF pace.hold_until > at THEN
        verdict := 'hold'; wait := extract(epoch FROM pace.hold_until - at); RETURN;
    END IF;
    horizon := at + make_interval(secs => p_interval);
    bot_next := greatest(pace.next_at, at + make_interval(secs => p_bot_not_before));
    SELECT next_at INTO chat_next FROM telegram_chat_pace
        WHERE bot_id = p_bot AND chat_id = p_chat;
    chat_ready := greatest(
        coalesce(chat_next - make_interval(secs => p_chat_interval * (p_chat_burst - 1)), at),
        at + make_interval(secs => p_chat_not_before));
    IF chat_ready > horizon THEN
        verdict := 'chat'; wait := extract(epoch FROM chat_ready - at); RETURN;
    END IF;
    -- Answers take the next slot, however far; an alert only one slot ahead at most, so an
    -- answer arriving behind a stream of alerts waits one slot, never behind the stream.
    IF p_alert AND bot_next > horizon THEN
        verdict := 'pace'; wait := extract(epoch FROM bot_next - horizon); RETURN;
    END IF;
    slot := greatest(at, chat_ready, bot_next);
    UPDATE telegram_send_pace SET next_at = slot + make_interval(secs => p_interval)
        WHERE bot_id = p_bot;
    INSERT INTO telegram_chat_pace AS c (bot_id, chat_id, next_at)
        VALUES (p_bot, p_chat, slot + make_interval(secs => p_chat_interval))
        ON CONFLICT (bot_id, chat_id) DO UPDATE
        SET next_at = greatest(c.next_at, slot) + make_interval(secs => p_chat_interval);
    verdict := 'send'; wait := greatest(0, extract(epoch FROM slot - at));
END $$
"""


def _at(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(
        name, sa.DateTime(timezone=True), nullable=nullable, server_default=sa.func.now()
    )


def upgrade() -> None:
    op.create_table(
        "telegram_send_pace",
        sa.Column("bot_id", sa.BigInteger, primary_key=True),
        _at("next_at"),
        _at("hold_until"),
    )
    op.create_table(
        "telegram_chat_pace",
        sa.Column("bot_id", sa.BigInteger, primary_key=True),
        sa.Column("chat_id", sa.BigInteger, primary_key=True),
        _at("next_at"),
    )
    op.create_index("telegram_chat_pace_next_at", "telegram_chat_pace", ["next_at"])
    op.execute(PERMIT_FUNCTION)
    op.create_table(
        "outbox_messages",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("chat_id", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),  # what sent it: «alert», …
        sa.Column("text", sa.Text, nullable=False),  # Telegram HTML
        sa.Column("reply_markup", postgresql.JSONB),
        _at("created_at"),
        _at("not_before"),  # a claim's lease, or a chat's pace, pushes it later
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("outbox_messages_due", "outbox_messages", ["not_before", "id"])
    op.create_index("outbox_messages_chat", "outbox_messages", ["chat_id"])


def downgrade() -> None:
    op.drop_table("outbox_messages")
    op.execute("DROP FUNCTION telegram_send_permit")
    op.drop_table("telegram_chat_pace")
    op.drop_table("telegram_send_pace")
