"""Favourites («⭐ В избранное», /favorites) and the taste profile they feed.

A favourite counts in the taste profile like a 👍 (once per wine: a wine both liked and kept
is one like; the person's own 👎 on it wins). A favourite the shop no longer sells stays in the
list, marked, with the closest wine on sale (same type, then shared grapes, sweetness, country
and the nearest price).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal

from core.domain import WineFilters
from core.recommendation import RecommendedWine
from repositories.favourites import FavouriteRepository
from repositories.models import Wine
from repositories.users import UserRepository
from repositories.wines import WineRepository
from services.app.database import Database
from services.app.taste.profiles import rebuild_profile


@dataclass(frozen=True)
class FavouriteItem:
    wine: RecommendedWine
    available: bool
    closest: RecommendedWine | None = None  # on sale, when this one is not


class Favourites:
    def __init__(self, database: Database) -> None:
        self._sessions = database.sessions

    async def add(self, user_id: int, wine_id: uuid.UUID) -> bool | None:
        """True: added; False: it was already there; None: no such wine."""
        async with self._sessions() as s:
            if not await WineRepository(s).get_by_ids([wine_id]):
                return None
            users = UserRepository(s)
            if await users.get(user_id) is None:
                await users.upsert(user_id)
            added = await FavouriteRepository(s).add(user_id, wine_id)
            if added:
                await rebuild_profile(s, user_id)
            await s.commit()
            return added

    async def remove(self, user_id: int, wine_id: uuid.UUID) -> bool:
        async with self._sessions() as s:
            removed = await FavouriteRepository(s).remove(user_id, wine_id)
            if removed:
                await rebuild_profile(s, user_id)
            await s.commit()
            return removed

    async def contains(self, user_id: int, wine_id: uuid.UUID) -> bool:
        async with self._sessions() as s:
            return await FavouriteRepository(s).contains(user_id, wine_id)

    async def list(self, user_id: int) -> list[FavouriteItem]:
        async with self._sessions() as s:
            repo = WineRepository(s)
            items: list[FavouriteItem] = []
            for wine in await FavouriteRepository(s).wines(user_id):
                closest = None if wine.available else await _closest_on_sale(repo, wine)
                items.append(
                    FavouriteItem(
                        RecommendedWine.from_wine(wine, ""),
                        wine.available,
                        RecommendedWine.from_wine(closest, "") if closest else None,
                    )
                )
            return items


async def _closest_on_sale(repo: WineRepository, base: Wine) -> Wine | None:
    pool = await repo.search(
        WineFilters(
            wine_type=base.wine_type,
            price_min=(base.price_rub * Decimal("0.5")).quantize(Decimal(1)),
            price_max=(base.price_rub * Decimal("2")).quantize(Decimal(1)),
        ),
        limit=100,
    ) or await repo.search(WineFilters(wine_type=base.wine_type), limit=100)
    grapes = set(base.grape_varieties)
    ranked = sorted(
        (w for w in pool if w.id != base.id),
        key=lambda w: (
            -len(grapes & set(w.grape_varieties)),
            w.sweetness != base.sweetness,
            w.country != base.country,
            abs(w.price_rub - base.price_rub),
            w.slug,
        ),
    )
    return ranked[0] if ranked else None
