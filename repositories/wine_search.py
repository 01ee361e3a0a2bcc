"""Structured catalog queries: wines by filters in an order, counted, at random, or by id."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import ARRAY, Select, any_, bindparam, func, inspect, select
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import instance_state
from sqlalchemy.orm.instrumentation import manager_of_class

from core.domain import Sweetness, WineFilters, WineType
from repositories.models import Wine
from repositories.statements import Executor, driver_fetchall
from repositories.wine_filters import (
    ON_SALE,
    ON_SALE_SQL,
    ORDER_SQL,
    FilteredWines,
    SearchOrder,
    check_limit,
    check_order,
    validate_filters,
)


class WineBrief(NamedTuple):
    """A wine as the catalog tools list it: the columns their briefs and in-memory conditions
    read, under the model's attribute names."""

    id: uuid.UUID
    slug: str
    name: str
    producer: str
    country: str
    region: str | None
    grape_varieties: list[str]
    wine_type: WineType
    sweetness: Sweetness
    price_rub: Decimal
    description: str
    food_pairings: list[str]


_BRIEF_SELECT = f"SELECT {', '.join(WineBrief._fields)} FROM wines WHERE {ON_SALE_SQL}"
#: A wine's columns as a query loads them (the deferred ones, vectors, left out).
_WINE_FIELDS = tuple(c.key for c in inspect(Wine).column_attrs if not c.deferred)
_WINES_BY_IDS = f"SELECT {', '.join(_WINE_FIELDS)} FROM wines WHERE id = ANY($1::uuid[])"
_WINE_TYPES = {t.value: t for t in WineType}
_NEW_WINE = manager_of_class(Wine).new_instance  # an instance with its ORM state, nothing set
_SWEETNESS = {s.value: s for s in Sweetness}


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

    async def search_briefs(
        self,
        filters: WineFilters | Mapping[str, Any] | None,
        limit: int = 10,
        order: SearchOrder = "price_desc",
        executor: Executor | None = None,
    ) -> list[WineBrief]:
        """`search` as briefs, written for the driver: on a pooled `executor` the rows go from
        asyncpg straight into briefs (a pool of hundreds of rows as SQLAlchemy rows cost more
        CPU than the rest of the search). On this repository's session without one."""
        check_limit(limit, 0)
        check_order(order)
        terms = await self._terms(validate_filters(filters))
        if terms is None:
            return []
        where = "".join(f" AND {term.sql(f'${n}')}" for n, term in enumerate(terms, 1))
        sql = f"{_BRIEF_SELECT}{where} ORDER BY {ORDER_SQL[order]} LIMIT ${len(terms) + 1}"
        rows = await driver_fetchall(
            executor or self.session, sql, *(term.value for term in terms), limit
        )
        return [
            WineBrief(*row[:7], _WINE_TYPES[row[7]], _SWEETNESS[row[8]], row[9], row[10], row[11])
            for row in rows
        ]

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
        wanted = _as_ids(ids)
        if not wanted:
            return []
        # One array parameter, not an IN list: the same statement text for any number of ids,
        # so each pooled connection prepares it once.
        ids = bindparam("ids", wanted, type_=ARRAY(Wine.__table__.c.id.type))
        found = {
            w.id: w for w in await self.session.scalars(select(Wine).where(Wine.id == any_(ids)))
        }
        return [found[i] for i in dict.fromkeys(wanted) if i in found]

    async def read_by_ids(
        self, ids: Iterable[uuid.UUID | str], executor: Executor | None = None
    ) -> list[Wine]:
        """`get_by_ids` for reading only, written for the driver: the wines as a session
        leaves them when it closes (detached, the deferred columns not loaded), made straight
        from asyncpg's rows on a pooled `executor` without a session's query around them (on
        this repository's session without one)."""
        wanted = _as_ids(ids)
        if not wanted:
            return []
        found: dict[uuid.UUID, Wine] = {}
        for row in await driver_fetchall(executor or self.session, _WINES_BY_IDS, wanted):
            values = dict(zip(_WINE_FIELDS, row, strict=True))
            values["wine_type"] = _WINE_TYPES[values["wine_type"]]
            values["sweetness"] = _SWEETNESS[values["sweetness"]]
            # Filled as a query fills what it loads, not set attribute by attribute through
            # the constructor's change events (a fifth of the CPU, for the same detached wine).
            wine = _NEW_WINE()
            instance_state(wine).dict.update(values)
            make_transient_to_detached(wine)
            found[wine.id] = wine
        return [found[i] for i in dict.fromkeys(wanted) if i in found]


def _as_ids(ids: Iterable[uuid.UUID | str]) -> list[uuid.UUID]:
    wanted: list[uuid.UUID] = []
    for raw in ids:
        try:
            wanted.append(raw if isinstance(raw, uuid.UUID) else uuid.UUID(str(raw)))
        except ValueError:
            continue
    return wanted
