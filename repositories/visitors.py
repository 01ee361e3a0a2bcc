"""SQL for the web chat's visitors (table `visitors`, migration 0010): the token a visitor's
cookie carries (stored as its SHA-256), the user id it stands for, the one-time link code,
and moving a visitor's taste onto a Telegram user."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.ownership import forget_person
from repositories.users import UserRepository


class VisitorRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def user_of(self, token_hash: str) -> int | None:
        found = await self.session.scalar(
            text("SELECT user_id FROM visitors WHERE token_hash = :t"), {"t": token_hash}
        )
        return None if found is None else int(found)

    async def create(self, token_hash: str, user_id: int) -> int:
        """The token's user id: `user_id` (a new user row) unless the token is already known."""
        await UserRepository(self.session).upsert(user_id)
        created = await self.session.scalar(
            text(
                "INSERT INTO visitors (token_hash, user_id) VALUES (:t, :u) "
                "ON CONFLICT (token_hash) DO NOTHING RETURNING user_id"
            ),
            {"t": token_hash, "u": user_id},
        )
        if created is not None:
            return int(created)
        # Lost a race to another request carrying the same new cookie.
        await self.session.execute(text("DELETE FROM users WHERE id = :u"), {"u": user_id})
        known = await self.user_of(token_hash)
        assert known is not None
        return known

    async def set_code(self, token_hash: str, code: str, valid_for: timedelta) -> None:
        # Expired codes are dropped whenever a new one is made: nothing outlives its use.
        await self.session.execute(
            text(
                "UPDATE visitors SET link_code = NULL, link_expires_at = NULL "
                "WHERE link_expires_at < now()"
            )
        )
        await self.session.execute(
            text(
                "UPDATE visitors SET link_code = :c, "
                "link_expires_at = now() + make_interval(secs => :s) WHERE token_hash = :t"
            ),
            {"c": code, "s": valid_for.total_seconds(), "t": token_hash},
        )

    async def take_code(self, code: str) -> int | None:
        """The user id the code was made for, once: the code is gone afterwards."""
        found = await self.session.scalar(
            text(
                "UPDATE visitors SET link_code = NULL, link_expires_at = NULL "
                "WHERE link_code = :c AND link_expires_at > now() RETURNING user_id"
            ),
            {"c": code},
        )
        return None if found is None else int(found)


async def merge_person(session: AsyncSession, source: int, target: int) -> dict[str, int]:
    """Move what `source` (a visitor) has onto `target` (a Telegram user) and delete the rest
    of `source`: votes on wines the target has not voted on, favourites, conversations (ended),
    answer counts, what was shown and clicked, attributed purchases and the visitor's cookies
    (their tokens now stand for the target). The quiz is merged by the caller. Returns rows
    moved per table; the caller commits."""
    moved: dict[str, int] = {}
    statements = {
        "feedback": "UPDATE feedback SET user_id = :d WHERE user_id = :s AND wine_id NOT IN "
        "(SELECT wine_id FROM feedback WHERE user_id = :d)",
        "favourites": "INSERT INTO favourites (user_id, wine_id, created_at) "
        "SELECT :d, wine_id, created_at FROM favourites WHERE user_id = :s "
        "ON CONFLICT DO NOTHING",
        "conversations": "UPDATE conversations SET user_id = :d, "
        "ended_at = coalesce(ended_at, now()) WHERE user_id = :s",
        "answers": "UPDATE answers SET user_id = :d WHERE user_id = :s",
        # What the visitor was shown and clicked, and the purchases attributed to them: the
        # person's own from now on, so an order names them either way (issue 42).
        "answer_facts": "UPDATE answer_facts SET user_id = :d WHERE user_id = :s",
        "buy_clicks": "UPDATE buy_clicks SET user_id = :d WHERE user_id = :s",
        "order_lines": "UPDATE order_lines SET user_id = :d WHERE user_id = :s",
        "visitors": "UPDATE visitors SET user_id = :d, link_code = NULL, "
        "link_expires_at = NULL WHERE user_id = :s",
    }
    for table, sql in statements.items():
        result = await session.execute(text(sql), {"s": source, "d": target})
        if result.rowcount:
            moved[table] = int(result.rowcount)
    await forget_person(session, source)  # what was not moved (duplicate votes, the user row)
    return moved
