"""WineRepository: every query over the catalog. Values reach SQL only as bound parameters."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from pgvector.sqlalchemy import HALFVEC, VECTOR
from pydantic import ValidationError
from sqlalchemy import (
    ARRAY,
    ColumnElement,
    Select,
    any_,
    bindparam,
    cast,
    func,
    literal,
    literal_column,
    select,
    text,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import load_only

from core.domain import UpsertReport, WineFilters, WineRecord
from core.errors import CatalogFilterError
from core.language.catalog_terms import CatalogEntry
from core.language.folding import fold, search_roots
from core.language.foods import FOOD_CATEGORIES, FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.places import REGION_ALIASES
from repositories.explain import estimated_rows
from repositories.matching import canonical_country, matching_values
from repositories.models import Wine

SearchOrder = Literal["price_asc", "price_desc", "name", "newest"]
VOCABULARY_TTL_SECONDS = 60.0
# The HNSW beam, filtered or not. On the half-precision index 100 keeps recall@10 ≥ 0.99 at 100k
# wines (300 was needed on the full-precision one); a wider beam only costs time.
HNSW_EF_SEARCH = 100
# Filters the planner expects to leave fewer wines than this are scored exactly: cheap for so
# few, and a walk through the graph would meet them too rarely to find the true nearest.
EXACT_SCAN_BELOW = 150
# A walk gives up after visiting this many index tuples; the matching wines are then scored
# exactly. At 100k wines a 2,000-tuple walk costs about what that exact scan costs, so a filter
# the planner overestimated (it leaves under ~0.5 % of the catalog) pays at most twice.
HNSW_MAX_SCAN_TUPLES = 2_000
CATALOG_WRITE_LOCK_KEY = 72_6578_0003
NAME_BATCH = 5_000
_TS_ROOT = re.compile(r"[a-zа-я0-9]{2,}")
_NAME_WORD = re.compile(r"[a-zа-я0-9]+")
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
# Changing any of these makes a stored embedding stale.
_EMBEDDED_FIELDS = frozenset(
    {
        "name",
        "producer",
        "country",
        "region",
        "grape_varieties",
        "wine_type",
        "sweetness",
        "description",
        "tasting_notes",
        "food_pairings",
    }
)


@dataclass(frozen=True)
class _Vocabulary:
    grapes: frozenset[str]
    foods: frozenset[str]
    regions: frozenset[str]
    loaded_at: float


# Distinct array values per database, so tolerant matching can expand a term into exact values
# that the GIN indexes serve. Refreshed after a TTL and whenever this process writes the catalog.
_vocabularies: dict[str, _Vocabulary] = {}
# The catalog's version (count, last update) as last read per database, with when it was read:
# reading it scans the table, so it is rechecked after the same TTL, and at once after this
# process writes the catalog.
_versions: dict[str, tuple[tuple[int, str], float]] = {}


def forget_catalog_caches() -> None:
    """Drop every cached vocabulary and catalog version (the catalog was changed outside)."""
    _vocabularies.clear()
    _versions.clear()


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


class WineRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    # ---- vocabulary for tolerant matching -------------------------------------------------

    def _vocabulary_key(self) -> str:
        bind = self.session.bind
        return str(bind.url) if bind is not None else "default"

    async def _vocabulary(self) -> _Vocabulary:
        key = self._vocabulary_key()
        cached = _vocabularies.get(key)
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
        vocab = _Vocabulary(
            frozenset(buckets["g"]),
            frozenset(buckets["f"]),
            frozenset(buckets["r"]),
            time.monotonic(),
        )
        _vocabularies[key] = vocab
        return vocab

    def forget_vocabulary(self) -> None:
        _vocabularies.pop(self._vocabulary_key(), None)
        _versions.pop(self._vocabulary_key(), None)

    # ---- filters ---------------------------------------------------------------------------

    async def _conditions(self, filters: WineFilters) -> list[ColumnElement[bool]] | None:
        """SQL conditions for the filters, or None when a text filter matches nothing."""
        f = validate_filters(filters)
        conds: list[ColumnElement[bool]] = []
        if f.wine_type is not None:
            conds.append(Wine.wine_type == f.wine_type)
        if f.sweetness is not None:
            conds.append(Wine.sweetness == f.sweetness)
        if f.price_min is not None:
            conds.append(Wine.price_rub >= f.price_min)
        if f.price_max is not None:
            conds.append(Wine.price_rub <= f.price_max)
        if f.body_min is not None:
            conds.append(Wine.body >= f.body_min)
        if f.body_max is not None:
            conds.append(Wine.body <= f.body_max)
        if f.country:
            conds.append(func.lower(Wine.country) == canonical_country(f.country).lower())
        if f.grape_variety or f.food_pairing or f.region:
            vocab = await self._vocabulary()
            for term, column, values, aliases, categories in (
                (f.grape_variety, Wine.grape_varieties, vocab.grapes, GRAPE_ALIASES, None),
                (f.food_pairing, Wine.food_pairings, vocab.foods, FOOD_WORDS, FOOD_CATEGORIES),
            ):
                if term:
                    matched = matching_values(term, values, aliases, categories)
                    if not matched:
                        return None
                    conds.append(column.overlap(matched))
            if f.region:
                regions = matching_values(f.region, vocab.regions, REGION_ALIASES)
                if not regions:
                    return None
                conds.append(func.lower(Wine.region).in_(regions))
        return conds

    @staticmethod
    def _order(stmt: Select[Any], order: SearchOrder) -> Select[Any]:
        if order not in ORDERS:
            raise CatalogFilterError(f"order must be one of {', '.join(ORDERS)} (got {order!r})")
        return stmt.order_by(*ORDERS[order])

    # ---- queries -----------------------------------------------------------------------------

    async def search(
        self,
        filters: WineFilters | Mapping[str, Any] | None = None,
        limit: int = 10,
        offset: int = 0,
        order: SearchOrder = "price_desc",
        columns: Sequence[Any] | None = None,
    ) -> list[Wine]:
        """Wines matching `filters`; `columns` loads only those attributes (the rest must not
        be touched: there is no lazy loading under asyncio)."""
        _check_limit(limit, offset)
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        stmt = self._order(select(Wine).where(ON_SALE, *conds), order).limit(limit).offset(offset)
        if columns:
            stmt = stmt.options(load_only(*columns))
        return list((await self.session.scalars(stmt)).all())

    async def count_matching(self, filters: WineFilters | Mapping[str, Any] | None = None) -> int:
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return 0
        return int(
            await self.session.scalar(select(func.count()).where(ON_SALE, *conds).select_from(Wine))
            or 0
        )

    async def nearest(
        self,
        vector: Sequence[float],
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
        exact: bool = False,
    ) -> list[tuple[Wine, float]]:
        """Wines by cosine distance, nearest first, with the distance.

        The filters run inside the HNSW index scan (pgvector ≥ 0.8 iterative scans): the walk
        goes on until k matching wines are found or HNSW_MAX_SCAN_TUPLES were visited. Filters
        the planner expects to leave fewer than EXACT_SCAN_BELOW wines are scored exactly
        instead, and so are the filters of a walk that stops short. Either way the answer has k
        rows whenever k wines match. `exact` forces the scan.
        """
        _check_limit(k, 0)
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        if exact or (conds and await self._few_match(conds)):
            return await self._nearest_exact(vector, conds, k)
        previous = await self._begin_walk(max(HNSW_EF_SEARCH, k), planner=bool(conds))
        found = await self._walk(vector, conds, k)
        if previous:
            await self._set_local(previous)
        if len(found) < k:
            return await self._nearest_exact(vector, conds, k)
        return found

    async def _few_match(self, conds: list[ColumnElement[bool]]) -> bool:
        matching = select(Wine.id).where(Wine.embedding.is_not(None), ON_SALE, *conds)
        return await estimated_rows(self.session, matching) < EXACT_SCAN_BELOW

    async def _walk(
        self, vector: Sequence[float], conds: list[ColumnElement[bool]], k: int
    ) -> list[tuple[Wine, float]]:
        distance = self.distance(vector).label("distance")
        walked = (
            select(Wine.id, distance)
            .where(Wine.embedding.is_not(None), ON_SALE, *conds)
            .order_by(distance)
            .limit(k)
            .cte("walked")
            .prefix_with("MATERIALIZED")
        )
        rows = await self.session.execute(
            select(Wine, walked.c.distance).join(walked, walked.c.id == Wine.id)
        )
        # Sorting the k rows here keeps the database from planning a sort, which a filtered
        # walk discourages.
        return sorted(
            ((wine, float(dist)) for wine, dist in rows.all()), key=lambda r: (r[1], r[0].slug)
        )

    def distance(self, vector: Sequence[float]) -> ColumnElement[float]:
        """Cosine distance from `vector` in half precision: the expression the HNSW index
        (`embedding::halfvec(dim)`, migration 0004) serves."""
        half = HALFVEC(len(vector))
        query = cast(literal(list(vector), type_=VECTOR(len(vector))), half)
        return cast(Wine.embedding, half).cosine_distance(query)

    async def _begin_walk(self, ef: int, *, planner: bool) -> dict[str, str]:
        """In one round trip, SET LOCAL the walk's settings; returns the planner settings it
        changed with their previous values (to put back once the walk is done).

        A filtered walk also needs custom plans (after five runs asyncpg's prepared statement
        gets a generic plan that no longer sees the query vector and scans 10× slower) and no
        sort (for filters matching a few thousand wines the planner otherwise prefers sorting
        every matching vector to walking the index).
        """
        walk = {
            "hnsw.ef_search": str(ef),
            "hnsw.iterative_scan": "strict_order",
            "hnsw.max_scan_tuples": str(HNSW_MAX_SCAN_TUPLES),
        }
        if not planner:
            await self._set_local(walk)
            return {}
        changed = {"plan_cache_mode": "force_custom_plan", "enable_sort": "off"}
        # The old values come from a subquery that cannot be flattened (OFFSET 0), so they are
        # read before anything is set.
        before = (
            select(*(func.current_setting(n).label(f"old{i}") for i, n in enumerate(changed)))
            .offset(0)
            .subquery()
        )
        stmt = select(
            *before.c, *(func.set_config(n, v, True) for n, v in (walk | changed).items())
        ).select_from(before)
        row = (await self.session.execute(stmt)).one()
        return {name: str(old) for name, old in zip(changed, row, strict=False)}

    async def _set_local(self, settings: Mapping[str, str]) -> None:
        """SET LOCAL several settings in one round trip."""
        await self.session.execute(
            select(*(func.set_config(n, v, True) for n, v in settings.items()))
        )

    async def _nearest_exact(
        self, vector: Sequence[float], conds: list[ColumnElement[bool]], k: int
    ) -> list[tuple[Wine, float]]:
        """Score every matching row, keep the k best, and only then fetch those wines."""
        distance = self.distance(vector).label("distance")
        scored = (
            select(Wine.id, Wine.slug, distance)
            .where(Wine.embedding.is_not(None), ON_SALE, *conds)
            .cte("scored")
            .prefix_with("MATERIALIZED")
        )
        top = select(scored).order_by(scored.c.distance, scored.c.slug).limit(k).subquery("top")
        stmt = (
            select(Wine, top.c.distance)
            .join(top, top.c.id == Wine.id)
            .order_by(top.c.distance, top.c.slug)
        )
        rows = await self.session.execute(stmt)
        return [(wine, float(dist)) for wine, dist in rows.all()]

    async def text_search(
        self,
        query: str,
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
    ) -> list[Wine]:
        """Russian full-text search, better matches first.

        Wines matching every word are tried first; only when they are fewer than k does any
        word suffice (an OR of common words like «красное» would rank half the catalog).
        """
        _check_limit(k, 0)
        roots = search_roots(query)
        if not roots:
            return []
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        # Each meaningful word becomes a prefix query on its Snowball root (the same algorithm
        # as the `russian` configuration's stems), so «ягодными» finds «ягоды» too. Roots are
        # letters and digits only, so no character of user text is parsed as tsquery syntax.
        parts = [
            func.to_tsquery(literal_column("'simple'::regconfig"), f"{root}:*")
            for root in roots[:12]
            if _TS_ROOT.fullmatch(root)
        ]
        if not parts:
            return []
        every_word, any_word = parts[0], parts[0]
        for part in parts[1:]:
            every_word = every_word.op("&&")(part)
            any_word = any_word.op("||")(part)
        found: list[Wine] = []
        for tsq in (every_word, any_word) if len(parts) > 1 else (any_word,):
            stmt = (
                select(Wine)
                .where(Wine.search_vector.op("@@")(tsq), ON_SALE, *conds)
                .order_by(func.ts_rank_cd(Wine.search_vector, tsq).desc(), Wine.slug)
                .limit(k)
            )
            found = list((await self.session.scalars(stmt)).all())
            if len(found) >= k:
                break
        return found

    async def random(
        self, n: int, filters: WineFilters | Mapping[str, Any] | None = None
    ) -> list[Wine]:
        _check_limit(n, 0, maximum=200)
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

    async def find_by_name(self, name: str) -> Wine | None:
        """The wine on sale this text names: its name up to case, accents and punctuation, or a text
        holding one catalog name whole ("Catena Malbec 2021"). Never a guess: a made-up name
        that merely shares a word with a catalog wine finds nothing.
        """
        wanted = _name_key(name)
        if not wanted:
            return None
        stmt = select(Wine).where(ON_SALE, func.lower(Wine.name) == name.strip().lower()).limit(1)
        wine = await self.session.scalar(stmt)
        if wine is not None:
            return wine
        padded = f" {wanted} "
        fits: list[tuple[int, uuid.UUID]] = []
        for wine_id, wine_name in await self.session.execute(
            select(Wine.id, Wine.name).where(ON_SALE)
        ):
            key = _name_key(wine_name)
            if key and f" {key} " in padded:
                fits.append((len(key), wine_id))
        if not fits:
            return None
        fits.sort(key=lambda fit: fit[0], reverse=True)
        if len(fits) > 1 and fits[0][0] == fits[1][0]:
            return None  # two wines fit equally well: do not pick one at random
        return await self.session.get(Wine, fits[0][1])

    async def catalog_version(self) -> tuple[int, str]:
        """(count, last update): changes whenever the catalog does (seen by other processes
        within VOCABULARY_TTL_SECONDS)."""
        key = self._vocabulary_key()
        cached = _versions.get(key)
        if cached is not None and time.monotonic() - cached[1] < VOCABULARY_TTL_SECONDS:
            return cached[0]
        row = (await self.session.execute(select(func.count(), func.max(Wine.updated_at)))).one()
        version = (int(row[0]), str(row[1]))
        _versions[key] = (version, time.monotonic())
        return version

    async def name_entries(self) -> list[CatalogEntry]:
        """Every wine's id with what names it (name, region, appellation, grapes) as one string.
        Read in pages by id (no server-side cursor, so it needs no transaction), so a 100k-wine
        catalog is never held twice."""
        naming = func.concat_ws(
            " ",
            Wine.name,
            Wine.region,
            Wine.appellation,
            func.array_to_string(Wine.grape_varieties, " "),
        )
        after = bindparam("after", type_=Wine.__table__.c.id.type)
        page = select(Wine.id, naming).where(Wine.id > after).order_by(Wine.id).limit(NAME_BATCH)
        entries: list[CatalogEntry] = []
        last = uuid.UUID(int=0)
        while True:
            rows = (await self.session.execute(page, {"after": last})).all()
            entries.extend(CatalogEntry(wine_id, words) for wine_id, words in rows)
            if len(rows) < NAME_BATCH:
                return entries
            last = rows[-1][0]

    async def count(self) -> int:
        return int(await self.session.scalar(select(func.count()).select_from(Wine)) or 0)

    async def count_embedded(self, model: str | None = None) -> int:
        stmt = select(func.count()).select_from(Wine).where(Wine.embedding.is_not(None))
        if model is not None:
            stmt = stmt.where(Wine.embedding_model == model)
        return int(await self.session.scalar(stmt) or 0)

    async def without_embedding(self, model: str, limit: int) -> list[Wine]:
        """Wines whose vector is missing or was made by another model."""
        stmt = (
            select(Wine)
            .where((Wine.embedding.is_(None)) | (Wine.embedding_model.is_distinct_from(model)))
            .order_by(Wine.slug)
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def set_embedding(self, wine_id: uuid.UUID, vector: Sequence[float], model: str) -> None:
        await self.session.execute(
            update(Wine)
            .where(Wine.id == wine_id)
            .values(embedding=list(vector), embedding_model=model)
        )

    async def embedding_of(self, wine_id: uuid.UUID) -> list[float] | None:
        vector = await self.session.scalar(select(Wine.embedding).where(Wine.id == wine_id))
        return None if vector is None else [float(x) for x in vector]

    async def embedding_dimension(self) -> int | None:
        """The dimension of the embedding column as declared in the schema."""
        value = await self.session.scalar(
            text(
                "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'wines'::regclass "
                "AND attname = 'embedding'"
            )
        )
        return int(value) if value is not None and value > 0 else None

    async def upsert_many(
        self, records: Sequence[WineRecord], *, sync: bool = False
    ) -> UpsertReport:
        """Insert new wines, update changed ones, leave identical ones alone.

        A record's natural key is its external id (a feed's offer id / SKU) when it has one,
        else its slug. With `sync`, every wine on sale that the records do not name becomes
        unavailable (never deleted: feedback and history point at it).
        Concurrent loads take turns for the rest of the transaction, so two processes seeding
        at once cannot both insert the same wine.
        """
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(:k)"), {"k": CATALOG_WRITE_LOCK_KEY}
        )
        by_key = {(r.external_id or f"slug:{r.slug}"): r for r in records}
        ext_ids = [r.external_id for r in by_key.values() if r.external_id]
        slugs = [r.slug for r in by_key.values()]
        rows = await self.session.scalars(
            select(Wine).where(Wine.external_id.in_(ext_ids) | Wine.slug.in_(slugs))
        )
        by_ext: dict[str, Wine] = {}
        by_slug: dict[str, Wine] = {}
        for wine in rows:
            by_slug[wine.slug] = wine
            if wine.external_id:
                by_ext[wine.external_id] = wine
        inserted = updated = unchanged = 0
        for record in by_key.values():
            values = record.model_dump()
            current = by_ext.get(record.external_id) if record.external_id else None
            if current is not None:
                values.pop("slug")  # a wine keeps its slug when the feed renames it
            else:
                candidate = by_slug.get(record.slug)
                if candidate is not None and candidate.external_id in (None, record.external_id):
                    current = candidate
            if current is None:
                if record.slug in by_slug:
                    values["slug"] = f"{record.slug}-{uuid.uuid4().hex[:6]}"
                self.session.add(Wine(**values))
                inserted += 1
                continue
            # Where a row came from is bookkeeping: the same wine from another URL is unchanged.
            changed = {
                k: v
                for k, v in values.items()
                if k != "source" and _differs(getattr(current, k), v)
            }
            if not changed:
                unchanged += 1
                continue
            changed["source"] = values["source"]
            if _EMBEDDED_FIELDS & changed.keys():
                changed.update(embedding=None, embedding_model=None)
            await self.session.execute(update(Wine).where(Wine.id == current.id).values(**changed))
            updated += 1
        await self.session.flush()
        marked = 0
        if sync:
            result = await self.session.execute(
                update(Wine)
                .where(
                    ON_SALE,
                    func.coalesce(Wine.external_id, "").not_in(ext_ids or [""]),
                    Wine.slug.not_in(slugs or [""]),
                )
                .values(available=False)
            )
            marked = int(getattr(result, "rowcount", 0) or 0)
        self.forget_vocabulary()
        return UpsertReport(
            inserted=inserted, updated=updated, unchanged=unchanged, marked_unavailable=marked
        )


def _name_key(text: str) -> str:
    """A wine name compared loosely: folded, no punctuation, single spaces."""
    return " ".join(_NAME_WORD.findall(fold(text)))


def _differs(current: Any, new: Any) -> bool:
    if current is None or new is None:
        return current is not new
    if isinstance(current, Decimal) or isinstance(new, Decimal):
        return Decimal(str(current)) != Decimal(str(new))
    return current != new


def _check_limit(limit: int, offset: int, maximum: int = 1000) -> None:
    if not 1 <= limit <= maximum:
        raise CatalogFilterError(f"limit must be between 1 and {maximum} (got {limit})")
    if offset < 0:
        raise CatalogFilterError(f"offset must not be negative (got {offset})")
