"""SQL for the owner's data: row counts per table, forgetting one user everywhere, purging old
conversations. Tables that hold a person's id are found in the catalog of the database itself
(a column named user_id or chat_id, the users table, rate-limit keys), so a table added later
cannot be forgotten silently."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

# Columns that carry a Telegram user's id (in a private chat the chat id is the user id).
PERSON_COLUMNS = ("user_id", "chat_id")
# Rows kept after /forget, with the id removed: anonymous answer counts.
# The count, the sale or the alert sent stays.
ANONYMIZED = {"answers": "user_id", "order_lines": "user_id", "alerts_sent": "user_id"}
# Rate-limit keys that name a person: private messages and group mentions, inline queries,
# and the web chat's visitors.
RATE_KEY_PREFIXES = ("tg:", "tg-inline:", "web:")


async def table_counts(session: AsyncSession) -> dict[str, int]:
    return await table_counts_on(await session.connection())


async def table_counts_on(conn: AsyncConnection) -> dict[str, int]:
    """Rows per table, as the connection's transaction sees them."""
    names = (
        await conn.scalars(
            text(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
                "ORDER BY table_name"
            )
        )
    ).all()
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = int(await conn.scalar(text(f'SELECT count(*) FROM "{name}"')) or 0)
    return counts


async def person_columns(session: AsyncSession) -> list[tuple[str, str]]:
    """(table, column) pairs that hold a person's id, from the database's own catalog."""
    rows = await session.execute(
        text(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_name = ANY(:names) "
            "ORDER BY table_name, column_name"
        ),
        {"names": list(PERSON_COLUMNS)},
    )
    return [(str(t), str(c)) for t, c in rows.all()]


async def forget_person(session: AsyncSession, user_id: int) -> dict[str, int]:
    """Delete every row that carries `user_id` (answers keep their count, without the id);
    returns rows removed per table. The caller commits."""
    removed: dict[str, int] = {}
    # Messages go with their conversations (ON DELETE CASCADE): count them first.
    removed["messages"] = int(
        await session.scalar(
            text(
                "SELECT count(*) FROM messages m JOIN conversations c "
                "ON c.id = m.conversation_id WHERE c.user_id = :u"
            ),
            {"u": user_id},
        )
        or 0
    )
    for table, column in await person_columns(session):
        if ANONYMIZED.get(table) == column:
            result = await session.execute(
                text(f'UPDATE "{table}" SET "{column}" = NULL WHERE "{column}" = :u'),
                {"u": user_id},
            )
        else:
            result = await session.execute(
                text(f'DELETE FROM "{table}" WHERE "{column}" = :u'), {"u": user_id}
            )
        if result.rowcount:
            removed[table] = removed.get(table, 0) + int(result.rowcount)
    result = await session.execute(
        text("DELETE FROM rate_counters WHERE key = ANY(:k)"),
        {"k": [prefix + str(user_id) for prefix in RATE_KEY_PREFIXES]},
    )
    if result.rowcount:
        removed["rate_counters"] = int(result.rowcount)
    result = await session.execute(text("DELETE FROM users WHERE id = :u"), {"u": user_id})
    if result.rowcount:
        removed["users"] = int(result.rowcount)
    return {table: n for table, n in removed.items() if n}


async def purge_conversations(session: AsyncSession, older_than: timedelta) -> tuple[int, int]:
    """Delete conversations (with their messages) whose last message is older than the limit;
    returns (conversations, messages). Feedback and taste profiles are not touched."""
    stale = (
        "SELECT id FROM conversations WHERE last_activity_at < now() - make_interval(secs => :s)"
    )
    seconds = {"s": older_than.total_seconds()}
    messages = int(
        await session.scalar(
            text(f"SELECT count(*) FROM messages WHERE conversation_id IN ({stale})"), seconds
        )
        or 0
    )
    result = await session.execute(
        text(f"DELETE FROM conversations WHERE id IN ({stale})"), seconds
    )
    return int(result.rowcount or 0), messages
