"""The taste quiz's stored answers: one JSON row per person."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import QuizAnswers


class QuizRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def get(self, user_id: int) -> dict[str, Any]:
        answers = await self.session.scalar(
            select(QuizAnswers.answers).where(QuizAnswers.user_id == user_id)
        )
        return dict(answers or {})

    async def save(self, user_id: int, answers: dict[str, Any]) -> None:
        stmt = insert(QuizAnswers).values(user_id=user_id, answers=answers)
        await self.session.execute(
            stmt.on_conflict_do_update(
                index_elements=[QuizAnswers.user_id],
                set_={"answers": stmt.excluded.answers, "updated_at": func.now()},
            )
        )

    async def clear(self, user_id: int) -> None:
        await self.session.execute(delete(QuizAnswers).where(QuizAnswers.user_id == user_id))
