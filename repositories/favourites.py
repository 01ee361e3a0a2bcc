"""Favourites: the wines a person keeps, oldest first."""

from __future__ import annotations

import uuid

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import Favourite, Wine


class FavouriteRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, user_id: int, wine_id: uuid.UUID) -> bool:
        """True when the wine was added now, False when it was already there."""
        result = await self.session.execute(
            insert(Favourite)
            .values(user_id=user_id, wine_id=wine_id)
            .on_conflict_do_nothing(index_elements=[Favourite.user_id, Favourite.wine_id])
        )
        return bool(result.rowcount)

    async def remove(self, user_id: int, wine_id: uuid.UUID) -> bool:
        result = await self.session.execute(
            delete(Favourite).where(Favourite.user_id == user_id, Favourite.wine_id == wine_id)
        )
        return bool(result.rowcount)

    async def wines(self, user_id: int) -> list[Wine]:
        rows = await self.session.scalars(
            select(Wine)
            .join(Favourite, Favourite.wine_id == Wine.id)
            .where(Favourite.user_id == user_id)
            .order_by(Favourite.created_at, Wine.name)
        )
        return list(rows.all())

    async def contains(self, user_id: int, wine_id: uuid.UUID) -> bool:
        found = await self.session.scalar(
            select(Favourite.wine_id).where(
                Favourite.user_id == user_id, Favourite.wine_id == wine_id
            )
        )
        return found is not None
