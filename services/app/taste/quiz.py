"""The taste quiz's answers: stored one tap at a time, so a quiz left halfway still counts."""

from __future__ import annotations

from typing import Any

from core.taste import describe_quiz, valid_quiz_answer
from repositories.quiz import QuizRepository
from services.app.database import Database
from services.app.taste.profiles import remerge_quiz


class Quiz:
    def __init__(self, database: Database) -> None:
        self._sessions = database.sessions

    async def answers(self, user_id: int) -> dict[str, Any]:
        async with self._sessions() as s:
            return await QuizRepository(s).get(user_id)

    async def answer(self, user_id: int, question: str, value: str | None) -> None:
        """Store one answer (None: the question was skipped, an earlier answer is dropped)."""
        if value is not None and not valid_quiz_answer(question, value):
            raise ValueError(f"not an answer to {question}: {value!r}")
        async with self._sessions() as s:
            quiz = QuizRepository(s)
            answers = await quiz.get(user_id)
            answers.pop(question, None)
            if value is not None:
                answers[question] = int(value) if question == "budget" else value
            await quiz.save(user_id, answers)
            await remerge_quiz(s, user_id)
            await s.commit()

    async def reset(self, user_id: int) -> None:
        async with self._sessions() as s:
            await QuizRepository(s).clear(user_id)
            await remerge_quiz(s, user_id)
            await s.commit()

    @staticmethod
    def words(answers: dict[str, Any]) -> list[str]:
        """The answers as the person reads them («красное», «сухое», «до 2 000 ₽»…)."""
        return describe_quiz(answers)
