"""Users, conversations with their stored agent history, feedback and answer statistics."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import Answer, Conversation, Feedback, Message, User, Wine
from repositories.statements import Executor, driver_fetchrow


async def read_access(executor: Executor, user_id: int) -> tuple[bool, bool] | None:
    """The gate in front of every message: (age confirmed, active), or None for someone the
    bot has not met. Two columns, the driver's own SQL: this runs for every update."""
    row = await driver_fetchrow(
        executor, "SELECT age_confirmed, is_active FROM users WHERE id = $1", user_id
    )
    return (bool(row[0]), bool(row[1])) if row is not None else None


class UserRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, user_id: int) -> User | None:
        return await self.session.get(User, user_id)

    async def upsert(
        self,
        user_id: int,
        first_name: str | None = None,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
    ) -> User:
        """Create the user or refresh their names; a returning user is active again."""
        values = {
            "first_name": first_name,
            "last_name": last_name,
            "username": username,
            "language_code": language_code,
        }
        stmt = (
            insert(User)
            .values(id=user_id, is_active=True, **values)
            .on_conflict_do_update(
                index_elements=[User.id],
                set_={**values, "is_active": True, "updated_at": func.now()},
            )
            .returning(User)
        )
        user = (
            await self.session.scalars(stmt, execution_options={"populate_existing": True})
        ).one()
        return user

    async def confirm_age(self, user_id: int) -> None:
        await self.session.execute(
            update(User)
            .where(User.id == user_id)
            .values(age_confirmed=True, age_confirmed_at=func.now())
        )

    async def set_taste(
        self, user_id: int, profile: dict[str, Any], merged: dict[str, Any]
    ) -> None:
        """The 👍/👎 profile and the taste merged from it and the quiz."""
        await self.session.execute(
            update(User).where(User.id == user_id).values(taste_profile=profile, taste=merged)
        )

    async def set_active(self, user_id: int, active: bool) -> None:
        await self.session.execute(update(User).where(User.id == user_id).values(is_active=active))


class ConversationRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def current(self, user_id: int, inactivity: timedelta) -> Conversation:
        """The open conversation, or a new one when the last went quiet for too long."""
        open_conv = await self.session.scalar(
            select(Conversation)
            .where(Conversation.user_id == user_id, Conversation.ended_at.is_(None))
            .order_by(Conversation.started_at.desc())
            .limit(1)
            .with_for_update()
        )
        now = await self.session.scalar(select(func.now()))
        if open_conv is not None and now - open_conv.last_activity_at <= inactivity:
            return open_conv
        if open_conv is not None:
            open_conv.ended_at = now
        conv = Conversation(user_id=user_id)
        self.session.add(conv)
        await self.session.flush()
        return conv

    async def end_open(self, user_id: int) -> int:
        result = await self.session.execute(
            update(Conversation)
            .where(Conversation.user_id == user_id, Conversation.ended_at.is_(None))
            .values(ended_at=func.now())
        )
        return result.rowcount or 0

    async def history(self, conversation_id: uuid.UUID, limit: int = 200) -> list[dict[str, Any]]:
        """Stored messages in OpenAI chat format, oldest first."""
        rows = (
            await self.session.scalars(
                select(Message)
                .where(Message.conversation_id == conversation_id)
                .order_by(Message.id.desc())
                .limit(limit)
            )
        ).all()
        history: list[dict[str, Any]] = []
        for m in reversed(rows):
            item: dict[str, Any] = {"role": m.role, "content": m.content}
            if m.tool_calls:
                item["tool_calls"] = m.tool_calls
            if m.tool_call_id:
                item["tool_call_id"] = m.tool_call_id
            history.append(item)
        return history

    async def append_turn(
        self,
        conversation_id: uuid.UUID,
        messages: list[dict[str, Any]],
        wine_ids: list[uuid.UUID] | None = None,
    ) -> None:
        """Store a whole turn; the caller commits it in one transaction."""
        for index, m in enumerate(messages):
            last = index == len(messages) - 1
            self.session.add(
                Message(
                    conversation_id=conversation_id,
                    role=m["role"],
                    content=m.get("content"),
                    tool_calls=m.get("tool_calls"),
                    tool_call_id=m.get("tool_call_id"),
                    wine_ids=wine_ids if last and wine_ids else None,
                )
            )
        await self.session.execute(
            update(Conversation)
            .where(Conversation.id == conversation_id)
            .values(last_activity_at=func.now())
        )

    async def shown_wine_ids(self, conversation_id: uuid.UUID) -> set[uuid.UUID]:
        rows = await self.session.scalars(
            select(func.unnest(Message.wine_ids)).where(
                Message.conversation_id == conversation_id, Message.wine_ids.is_not(None)
            )
        )
        return set(rows.all())


@dataclass(frozen=True)
class VoteChange:
    previous: int | None
    current: int


class FeedbackRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def vote(self, user_id: int, wine_id: uuid.UUID, vote: int) -> VoteChange:
        if vote not in (-1, 1):
            raise ValueError("vote must be +1 or -1")
        previous = await self.session.scalar(
            select(Feedback.vote).where(Feedback.user_id == user_id, Feedback.wine_id == wine_id)
        )
        stmt = (
            insert(Feedback)
            .values(user_id=user_id, wine_id=wine_id, vote=vote)
            .on_conflict_do_update(
                constraint="feedback_one_per_user_wine",
                set_={"vote": vote, "updated_at": func.now()},
            )
        )
        await self.session.execute(stmt)
        return VoteChange(previous, vote)

    async def votes_with_wines(self, user_id: int) -> list[tuple[Wine, int]]:
        rows = await self.session.execute(
            select(Wine, Feedback.vote)
            .join(Feedback, Feedback.wine_id == Wine.id)
            .where(Feedback.user_id == user_id)
            .order_by(Feedback.id)
        )
        return [(wine, vote) for wine, vote in rows.all()]

    async def clear(self, user_id: int) -> None:
        await self.session.execute(delete(Feedback).where(Feedback.user_id == user_id))


@dataclass(frozen=True)
class Stats:
    users: int
    active_today: int
    messages_today: int
    answers_by_path: dict[str, int]
    median_ms: float | None
    p95_ms: float | None


class AnswerRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def stats(self, since: datetime | None = None) -> Stats:
        day_start = since or (await self.session.scalar(select(func.date_trunc("day", func.now()))))
        users = int(await self.session.scalar(select(func.count()).select_from(User)) or 0)
        today = (
            await self.session.execute(
                select(func.count(func.distinct(Answer.user_id)), func.count()).where(
                    Answer.created_at >= day_start
                )
            )
        ).one()
        by_path = dict(
            (
                await self.session.execute(select(Answer.path, func.count()).group_by(Answer.path))
            ).all()
        )
        pct = (
            await self.session.execute(
                text(
                    "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY duration_ms), "
                    "percentile_cont(0.95) WITHIN GROUP (ORDER BY duration_ms) FROM answers"
                )
            )
        ).one()
        return Stats(
            users=users,
            active_today=int(today[0]),
            messages_today=int(today[1]),
            answers_by_path={str(k): int(v) for k, v in by_path.items()},
            median_ms=float(pct[0]) if pct[0] is not None else None,
            p95_ms=float(pct[1]) if pct[1] is not None else None,
        )
