"""The person's taste: 👍/👎 on wines (and the favourites, which count as a 👍) make the
profile; merged with the quiz's answers (core.taste's one rule) it steers every path."""

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
    """The 👍/👎 profile recomputed from the votes and the favourites (the caller commits)."""
    votes = await FeedbackRepository(session).votes_with_wines(user_id)
    voted = {w.id for w, _ in votes}
    kept = [w for w in await FavouriteRepository(session).wines(user_id) if w.id not in voted]
    profile = build_profile(
        VotedWine(w.wine_type, w.sweetness, w.grape_varieties, w.country, w.price_rub, v)
        for w, v in [*votes, *((w, 1) for w in kept)]
    )
    await UserRepository(session).set_profile(user_id, profile)


class TasteProfiles:
    def __init__(self, database: Database) -> None:
        self._sessions = database.sessions

    async def merged(self, user_id: int) -> dict[str, Any]:
        """The profile every path uses: 👍/👎 merged with the quiz."""
        async with self._sessions() as s:
            user = await UserRepository(s).get(user_id)
            if user is None:
                return {}
            return taste_profile(user.taste_profile, await QuizRepository(s).get(user_id))

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
