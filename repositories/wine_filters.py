"""What a WineFilters means in SQL: validation, tolerant conditions and search orders."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy import ColumnElement, Select, func, text
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from core.domain import WineFilters
from core.errors import CatalogFilterError
from core.language.foods import FOOD_CATEGORIES, FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.places import REGION_ALIASES
from repositories.catalog_cache import (
    VOCABULARY_TTL_SECONDS,
    Vocabulary,
    database_key,
    shop_picks_cache,
    versions,
    vocabularies,
)
from repositories.matching import canonical_country, matching_values
from repositories.models import Wine

SearchOrder = Literal["price_asc", "price_desc", "name", "newest"]
# Wines the shop no longer sells are never recommended by any query that picks wines; lookups by
# id (rendering a card shown earlier) stay unfiltered.
ON_SALE = Wine.available.is_(True)
#: Search orders, each ending on the slug so that equal prices keep one order.
ORDERS: dict[str, tuple[Any, ...]] = {
    "price_asc": (Wine.price_rub.asc(), Wine.slug),
    "price_desc": (Wine.price_rub.desc(), Wine.slug),
    "name": (Wine.name, Wine.slug),
    "newest": (Wine.vintage_year.desc().nulls_last(), Wine.slug),
}
#: «On sale» written for the driver, from the one condition above.
ON_SALE_SQL = str(
    ON_SALE.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True})
)
#: The same orders written for the driver (a statement on `wines`).
ORDER_SQL: dict[str, str] = {
    name: ", ".join(str(clause.compile(dialect=postgresql.dialect())) for clause in clauses)
    for name, clauses in ORDERS.items()
}


def validate_filters(filters: WineFilters | Mapping[str, Any] | None) -> WineFilters:
    if filters is None:
        return WineFilters()
    if not isinstance(filters, WineFilters):
        try:
            filters = WineFilters.model_validate(dict(filters))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "filters"
            raise CatalogFilterError(f"{field}: {err['msg']}") from None
    for name in ("price_min", "price_max"):
        value = getattr(filters, name)
        if value is not None and value < 0:
            raise CatalogFilterError(f"{name} must not be negative (got {value})")
    for name in ("body_min", "body_max"):
        value = getattr(filters, name)
        if value is not None and not 1 <= value <= 5:
            raise CatalogFilterError(f"{name} must be between 1 and 5 (got {value})")
    for low, high in (("price_min", "price_max"), ("body_min", "body_max")):
        low_value, high_value = getattr(filters, low), getattr(filters, high)
        if low_value is not None and high_value is not None and low_value > high_value:
            raise CatalogFilterError(f"{low} ({low_value}) is greater than {high} ({high_value})")
    return filters


def check_limit(limit: int, offset: int, maximum: int = 1000) -> None:
    if not 1 <= limit <= maximum:
        raise CatalogFilterError(f"limit must be between 1 and {maximum} (got {limit})")
    if offset < 0:
        raise CatalogFilterError(f"offset must not be negative (got {offset})")


#: The column each bounded filter compares.
_FILTER_COLUMNS = {
    "wine_type": "wine_type",
    "sweetness": "sweetness",
    "price_min": "price_rub",
    "price_max": "price_rub",
    "body_min": "body",
    "body_max": "body",
}


@dataclass(frozen=True, slots=True)
class FilterTerm:
    """One filter as a condition on a column of `wines`: `column op value`, where op is a
    comparison, "lower =" (the column in lower case equals), "&&" (the arrays share an
    element) or "lower in" (the column in lower case is one of)."""

    column: str
    op: str
    value: Any

    def expression(self) -> ColumnElement[bool]:
        column = getattr(Wine, self.column)
        if self.op == "=":
            return column == self.value
        if self.op == ">=":
            return column >= self.value
        if self.op == "<=":
            return column <= self.value
        if self.op == "lower =":
            return func.lower(column) == self.value
        if self.op == "&&":
            return column.overlap(self.value)
        if self.op == "lower in":
            return func.lower(column).in_(self.value)
        raise ValueError(f"unknown filter operator {self.op!r}")

    def sql(self, placeholder: str) -> str:
        """The condition written for the driver, its value at `placeholder` ($1 …)."""
        if self.op in ("=", ">=", "<=", "&&"):
            return f"{self.column} {self.op} {placeholder}"
        if self.op == "lower =":
            return f"lower({self.column}) = {placeholder}"
        if self.op == "lower in":
            return f"lower({self.column}) = ANY({placeholder})"
        raise ValueError(f"unknown filter operator {self.op!r}")


def check_order(order: str) -> None:
    if order not in ORDERS:
        raise CatalogFilterError(f"order must be one of {', '.join(ORDERS)} (got {order!r})")


class FilteredWines:
    """The session and the filter conditions every part of WineRepository builds on."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- vocabulary for tolerant matching -------------------------------------------------

    def _vocabulary_key(self) -> str:
        return database_key(self.session.bind)

    async def _vocabulary(self) -> Vocabulary:
        key = self._vocabulary_key()
        cached = vocabularies.get(key)
        if cached is not None and time.monotonic() - cached.loaded_at < VOCABULARY_TTL_SECONDS:
            return cached
        rows = await self.session.execute(
            text(
                "SELECT 'g', g FROM (SELECT DISTINCT unnest(grape_varieties) AS g FROM wines) a "
                "UNION ALL SELECT 'f', f FROM (SELECT DISTINCT unnest(food_pairings) AS f "
                "FROM wines) b "
                "UNION ALL SELECT 'r', r FROM (SELECT DISTINCT lower(region) AS r FROM wines "
                "WHERE region IS NOT NULL) c"
            )
        )
        buckets: dict[str, set[str]] = {"g": set(), "f": set(), "r": set()}
        for kind, value in rows:
            buckets[kind].add(value)
        vocab = Vocabulary(
            frozenset(buckets["g"]),
            frozenset(buckets["f"]),
            frozenset(buckets["r"]),
            time.monotonic(),
        )
        vocabularies[key] = vocab
        return vocab

    def forget_vocabulary(self) -> None:
        vocabularies.pop(self._vocabulary_key(), None)
        versions.pop(self._vocabulary_key(), None)
        shop_picks_cache.pop(self._vocabulary_key(), None)  # the rules name wines anew

    # ---- filters ---------------------------------------------------------------------------

    async def _conditions(self, filters: WineFilters) -> list[ColumnElement[bool]] | None:
        """SQL conditions for the filters, or None when a text filter matches nothing."""
        terms = await self._terms(filters)
        return None if terms is None else [term.expression() for term in terms]

    async def _terms(self, filters: WineFilters) -> list[FilterTerm] | None:
        """What each filter asks of a wine's columns, or None when a text filter matches
        nothing: the one reading of the filters that both SQLAlchemy's statements and the
        driver's (`FilterTerm.sql`) are written from."""
        f = validate_filters(filters)
        terms: list[FilterTerm] = []
        for name, op in (
            ("wine_type", "="),
            ("sweetness", "="),
            ("price_min", ">="),
            ("price_max", "<="),
            ("body_min", ">="),
            ("body_max", "<="),
        ):
            value = getattr(f, name)
            if value is not None:
                terms.append(FilterTerm(_FILTER_COLUMNS[name], op, value))
        if f.country:
            terms.append(FilterTerm("country", "lower =", canonical_country(f.country).lower()))
        if f.grape_variety or f.food_pairing or f.region:
            vocab = await self._vocabulary()
            for term, column, values, aliases, categories in (
                (f.grape_variety, "grape_varieties", vocab.grapes, GRAPE_ALIASES, None),
                (f.food_pairing, "food_pairings", vocab.foods, FOOD_WORDS, FOOD_CATEGORIES),
            ):
                if term:
                    matched = matching_values(term, values, aliases, categories)
                    if not matched:
                        return None
                    terms.append(FilterTerm(column, "&&", matched))
            if f.region:
                regions = matching_values(f.region, vocab.regions, REGION_ALIASES)
                if not regions:
                    return None
                terms.append(FilterTerm("region", "lower in", regions))
        return terms

    @staticmethod
    def _order(stmt: Select[Any], order: SearchOrder) -> Select[Any]:
        check_order(order)
        return stmt.order_by(*ORDERS[order])
