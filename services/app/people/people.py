"""The people the bot talks to: who they are, whether they confirmed being 18+, whether they
still receive messages, their conversations and everything stored about them (/forget)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from repositories.fact_rollup import forget_days
from repositories.ownership import forget_person
from repositories.users import ConversationRepository, UserRepository, read_access
from services.app.database import Database


@dataclass(frozen=True)
class UserDetails:
    """What an adapter knows of a person when they first write (Telegram sends all of it)."""

    id: int
    first_name: str | None = None
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True)
class UserState:
    id: int
    age_confirmed: bool
    is_active: bool

    @classmethod
    def read(cls, user_id: int, access: tuple[bool, bool] | None) -> UserState | None:
        """From the gate's read (`read_access`): None for someone the bot has not met."""
        return cls(user_id, *access) if access is not None else None


class People:
    def __init__(self, database: Database, inactivity: timedelta) -> None:
        self._database = database
        self._inactivity = inactivity

    async def register(self, details: UserDetails) -> UserState:
        async with self._database.sessions() as s:
            user = await UserRepository(s).upsert(
                details.id,
                details.first_name,
                details.last_name,
                details.username,
                details.language_code,
            )
            await s.commit()
            return UserState(user.id, user.age_confirmed, user.is_active)

    async def confirm_age(self, user_id: int) -> None:
        async with self._database.sessions() as s:
            await UserRepository(s).confirm_age(user_id)
            await s.commit()

    async def set_active(self, user_id: int, active: bool) -> None:
        async with self._database.sessions() as s:
            await UserRepository(s).set_active(user_id, active)
            await s.commit()

    async def state(self, user_id: int) -> UserState | None:
        async with self._database.statements() as conn:
            access = await read_access(conn, user_id)
        return UserState.read(user_id, access)

    async def new_conversation(self, user_id: int) -> None:
        async with self._database.sessions() as s:
            await ConversationRepository(s).end_open(user_id)
            await s.commit()

    async def forget(self, user_id: int) -> dict[str, int]:
        """Delete everything stored about the person (answers keep their anonymous count);
        returns rows removed per table. One transaction: all of it or nothing."""
        async with self._database.sessions() as s:
            await forget_days(s, user_id)  # the console's rollups of their days, recomputed
            removed = await forget_person(s, user_id)
            await s.commit()
        return removed
