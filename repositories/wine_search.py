"""Structured catalog queries: wines by filters in an order, counted, at random, or by id."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import ARRAY, Row, Select, any_, bindparam, func, select

from core.domain import WineFilters
from repositories.models import Wine
from repositories.wine_filters import (
    ON_SALE,
    FilteredWines,
    SearchOrder,
    check_limit,
    validate_filters,
)


class WineSearch(FilteredWines):
    async def search(
        self,
        filters: WineFilters | Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        order: SearchOrder = "price_desc",
    ) -> list[Wine]:
        """Wines matching `filters`, in `order`."""
        stmt = await self._matching(select(Wine), filters, limit, offset, order)
        return [] if stmt is None else list((await self.session.scalars(stmt)).all())

    async def search_columns(
        self,
        filters: WineFilters | Mapping[str, Any] | None,
        columns: Sequence[Any],
        limit: int = 10,
        order: SearchOrder = "price_desc",
    ) -> list[Row[Any]]:
        """`search` as rows of these model attributes only, each under the attribute's name. A
        wide pool read as ORM objects cost more CPU than the rest of the turn's statements
        together (the objects, and a loader for every column left out)."""
        stmt = await self._matching(select(*columns), filters, limit, 0, order)
        return [] if stmt is None else list((await self.session.execute(stmt)).all())

    async def _matching(
        self,
        what: Select[Any],
        filters: WineFilters | Mapping[str, Any] | None,
        limit: int,
        offset: int,
        order: SearchOrder,
    ) -> Select[Any] | None:
        """`what` of the wines on sale matching `filters`, one page in `order`; None when a
        text filter matches nothing."""
        check_limit(limit, offset)
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return None
        return self._order(what.where(ON_SALE, *conds), order).limit(limit).offset(offset)

    async def count_matching(self, filters: WineFilters | Mapping[str, Any] | None = None) -> int:
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return 0
        return int(
            await self.session.scalar(select(func.count()).where(ON_SALE, *conds).select_from(Wine))
            or 0
        )

    async def random(
        self, n: int, filters: WineFilters | Mapping[str, Any] | None = None
    ) -> list[Wine]:
        check_limit(n, 0, maximum=200)
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        stmt = select(Wine).where(ON_SALE, *conds).order_by(func.random()).limit(n)
        return list((await self.session.scalars(stmt)).all())

    async def get_by_ids(self, ids: Iterable[uuid.UUID | str]) -> list[Wine]:
        """Wines in the order asked for; unknown or malformed ids are skipped."""
        wanted: list[uuid.UUID] = []
        for raw in ids:
            try:
                wanted.append(raw if isinstance(raw, uuid.UUID) else uuid.UUID(str(raw)))
            except ValueError:
                continue
        if not wanted:
            return []
        # One array parameter, not an IN list: the same statement text for any number of ids,
        # so each pooled connection prepares it once.
        ids = bindparam("ids", wanted, type_=ARRAY(Wine.__table__.c.id.type))
        found = {
            w.id: w for w in await self.session.scalars(select(Wine).where(Wine.id == any_(ids)))
        }
        return [found[i] for i in dict.fromkeys(wanted) if i in found]
