"""The person's taste (quiz, 👍/👎, profile) and «Похожие»: part of the ChatService facade
(a mixin, so the adapters keep calling one object)."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.recommendation import Recommendation, RecommendedWine
from core.taste import ProfileSummary, describe_quiz, summarize, taste_profile, valid_quiz_answer
from core.text import joined
from repositories.models import Wine
from repositories.quiz import QuizRepository
from repositories.turns import Thread
from repositories.users import (
    ConversationRepository,
    FeedbackRepository,
    UserRepository,
    VoteChange,
)
from repositories.wines import WineRepository
from services.app.database import GuardedSessions
from services.app.taste.favourites import rebuild_profile


class TasteActions:
    """Quiz answers, votes, the profile, «Похожие»; storing a turn (`_store`) is ChatService's."""

    inactivity: timedelta
    _guarded: GuardedSessions
    _store: Callable[[int | None, Thread | None, Recommendation], Awaitable[None]]

    async def _taste(self, user_id: int) -> dict[str, Any]:
        """The profile every path uses: 👍/👎 merged with the quiz (core.taste's one rule)."""
        async with self._guarded() as s:
            user = await UserRepository(s).get(user_id)
            if user is None:
                return {}
            return taste_profile(user.taste_profile, await QuizRepository(s).get(user_id))

    async def quiz_answers(self, user_id: int) -> dict[str, Any]:
        async with self._guarded() as s:
            return await QuizRepository(s).get(user_id)

    async def answer_quiz(self, user_id: int, question: str, value: str | None) -> None:
        """Store one answer (None: the question was skipped, an earlier answer is dropped)."""
        if value is not None and not valid_quiz_answer(question, value):
            raise ValueError(f"not an answer to {question}: {value!r}")
        async with self._guarded() as s:
            quiz = QuizRepository(s)
            answers = await quiz.get(user_id)
            answers.pop(question, None)
            if value is not None:
                answers[question] = int(value) if question == "budget" else value
            await quiz.save(user_id, answers)
            await s.commit()

    async def reset_quiz(self, user_id: int) -> None:
        async with self._guarded() as s:
            await QuizRepository(s).clear(user_id)
            await s.commit()

    def quiz_words(self, answers: dict[str, Any]) -> list[str]:
        return describe_quiz(answers)

    async def vote(self, user_id: int, wine_id: uuid.UUID, vote: int) -> VoteChange | None:
        """Store 👍/👎 and recompute the taste profile; None when the wine is unknown."""
        async with self._guarded() as s:
            if not await WineRepository(s).get_by_ids([wine_id]):
                return None
            change = await FeedbackRepository(s).vote(user_id, wine_id, vote)
            await rebuild_profile(s, user_id)  # the votes and the favourites
            await s.commit()
            return change

    async def profile(self, user_id: int) -> ProfileSummary:
        async with self._guarded() as s:
            user = await UserRepository(s).get(user_id)
            return summarize(dict(user.taste_profile or {}) if user else {})

    async def reset_profile(self, user_id: int) -> None:
        async with self._guarded() as s:
            await FeedbackRepository(s).clear(user_id)
            await rebuild_profile(s, user_id)  # what is left: the favourites
            await s.commit()

    async def wine_on_sale(self, wine_id: uuid.UUID) -> bool | None:
        """Whether the shop sells this wine now; None when it is not in the catalog."""
        async with self._guarded() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
        return found[0].available if found else None

    async def similar(self, user_id: int, wine_id: uuid.UUID) -> Recommendation | None:
        """Wines like this one, excluding those already shown in the conversation."""
        async with self._guarded() as s:
            repo = WineRepository(s)
            found = await repo.get_by_ids([wine_id])
            if not found:
                return None
            base = found[0]
            convs = ConversationRepository(s)
            conv = await convs.current(user_id, self.inactivity)
            shown = await convs.shown_wine_ids(conv.id) | {base.id}
            await s.commit()
        picks = await self._similar_wines(base, shown)
        if picks:
            intro = f"Похожие на «{base.name}»:"
            closing = "Оцените их 👍/👎 — я запомню ваш вкус."
        else:
            intro = f"Больше похожих на «{base.name}» в каталоге нет — все уже показаны."
            closing = "Попробуйте описать, чего хочется, своими словами."
        rec = Recommendation(intro=intro, wines=picks, closing=closing, path="similar")
        rec.new_messages = [
            {
                "role": "assistant",
                "content": f"{intro}\n" + "\n".join(f"- {w.name} ({w.id})" for w in picks),
            }
        ]
        await self._store(user_id, Thread(conv.id), rec)
        return rec

    async def _similar_wines(self, base: Wine, shown: set[uuid.UUID]) -> list[RecommendedWine]:
        async with self._guarded() as s:
            repo = WineRepository(s)
            candidates: list[Wine] = []
            vector = await repo.embedding_of(base.id)
            if vector is not None:
                candidates = [w for w, _ in await repo.nearest(vector, {}, k=len(shown) + 3)]
            if not candidates:
                filters = WineFilters(
                    wine_type=base.wine_type,
                    price_min=(base.price_rub * Decimal("0.5")).quantize(Decimal(1)),
                    price_max=(base.price_rub * Decimal("1.8")).quantize(Decimal(1)),
                )
                pool = await repo.search(filters, limit=50)
                grapes = set(base.grape_varieties)
                candidates = sorted(
                    pool,
                    key=lambda w: (
                        -len(grapes & set(w.grape_varieties)),
                        w.sweetness != base.sweetness,
                        w.country != base.country,
                        abs(w.price_rub - base.price_rub),
                        w.slug,
                    ),
                )
        picks = [w for w in candidates if w.id not in shown][:3]
        return [RecommendedWine.from_wine(w, _similar_reason(base, w)) for w in picks]


def _similar_reason(base: Wine, wine: Wine) -> str:
    shared = [g for g in wine.grape_varieties if g in base.grape_varieties]
    if shared:
        return f"Тот же сорт ({', '.join(shared)}), {wine.country}."
    return f"Близкий стиль: {joined([wine.country, *wine.grape_varieties])}."
