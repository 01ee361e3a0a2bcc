"""The person's taste: 👍/👎 on wines (and the favourites, which count as a 👍) make the
profile; merged with the quiz's answers (core.taste's one rule) it steers every path. The merge
is kept with the person (`users.taste`), written in the same transaction as whatever changed
it: a vote, a favourite, a quiz answer, a visitor's taste moved by /link. Every reader reads it
as it was kept."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from core.taste import ProfileSummary, VotedWine, build_profile, summarize, taste_profile
from repositories.favourites import FavouriteRepository
from repositories.quiz import QuizRepository
from repositories.users import FeedbackRepository, UserRepository
from repositories.wines import WineRepository
from services.app.database import Database


@dataclass(frozen=True)
class Vote:
    """A 👍/👎 stored: the person's vote before (None: none) and now, and whether the shop
    sells the wine now."""

    previous: int | None
    current: int
    on_sale: bool


async def rebuild_profile(session: AsyncSession, user_id: int) -> None:
    """The 👍/👎 profile recomputed from the votes and the favourites, and the taste merged
    from it and the quiz (the caller commits)."""
    votes = await FeedbackRepository(session).votes_with_wines(user_id)
    voted = {w.id for w, _ in votes}
    kept = [w for w in await FavouriteRepository(session).wines(user_id) if w.id not in voted]
    profile = build_profile(
        VotedWine(w.wine_type, w.sweetness, w.grape_varieties, w.country, w.price_rub, v)
        for w, v in [*votes, *((w, 1) for w in kept)]
    )
    await _keep_taste(session, user_id, profile)


async def remerge_quiz(session: AsyncSession, user_id: int) -> None:
    """The quiz's answers changed: the taste merged anew with the 👍/👎 profile as it stands
    (the caller commits)."""
    user = await UserRepository(session).get(user_id)
    if user is not None:
        await _keep_taste(session, user_id, dict(user.taste_profile or {}))


async def _keep_taste(session: AsyncSession, user_id: int, profile: dict[str, Any]) -> None:
    quiz = await QuizRepository(session).get(user_id)
    await UserRepository(session).set_taste(user_id, profile, taste_profile(profile, quiz))


class TasteProfiles:
    def __init__(self, database: Database) -> None:
        self._sessions = database.sessions

    async def merged(self, user_id: int) -> dict[str, Any]:
        """The profile every path uses: 👍/👎 merged with the quiz, as it was kept."""
        async with self._sessions() as s:
            user = await UserRepository(s).get(user_id)
            return dict(user.taste or {}) if user is not None else {}

    async def vote(self, user_id: int, wine_id: uuid.UUID, vote: int) -> Vote | None:
        """Store 👍/👎 and recompute the profile; None when the wine is not in the catalog."""
        async with self._sessions() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
            if not found:
                return None
            change = await FeedbackRepository(s).vote(user_id, wine_id, vote)
            await rebuild_profile(s, user_id)  # the votes and the favourites
            await s.commit()
            return Vote(change.previous, change.current, found[0].available)

    async def summary(self, user_id: int) -> ProfileSummary:
        """What the 👍/👎 taught, for /profile."""
        async with self._sessions() as s:
            user = await UserRepository(s).get(user_id)
            return summarize(dict(user.taste_profile or {}) if user else {})

    async def reset_votes(self, user_id: int) -> None:
        async with self._sessions() as s:
            await FeedbackRepository(s).clear(user_id)
            await rebuild_profile(s, user_id)  # what is left: the favourites
            await s.commit()
