"""Benchmark databases on the embedded server: one per catalog size, never the user's catalog."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bench.catalog import GENERATOR_VERSION, Basis, SyntheticWine, generate
from core.settings import Settings
from repositories.database import (
    DatabaseLocation,
    create_database_if_missing,
    make_engine,
    make_session_factory,
    start_embedded_server,
)
from repositories.migrations import migrate, newest_vector_extension

DB_PREFIX = "sommelier_bench"
HNSW_INDEX = "ix_wines_embedding_half"  # the migrations' name for it
INSERT_CHUNK = 10_000
INDEX_MAINTENANCE_WORK_MEM = "2GB"

Progress = Callable[[str], None]

_STAGE_COLUMNS = (
    "n",
    "slug",
    "name",
    "producer",
    "vintage_year",
    "country",
    "region",
    "grape_varieties",
    "wine_type",
    "sweetness",
    "acidity",
    "tannins",
    "body",
    "description",
    "tasting_notes",
    "food_pairings",
    "price_rub",
    "parts",
)


@dataclass
class BenchDatabase:
    name: str
    location: DatabaseLocation
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    size: int
    dim: int
    load_seconds: float
    index_seconds: float | None
    index_bytes: int | None
    table_bytes: int
    index_notices: list[str]
    reused: bool

    @property
    def dsn(self) -> str:
        """A libpq URI (for asyncpg and for a child process's DATABASE_URL)."""
        return self.location.url.set(drivername="postgresql").render_as_string(hide_password=False)

    async def close(self) -> None:
        await self.engine.dispose()


def database_name(size: int, dim: int) -> str:
    return f"{DB_PREFIX}_{size}_d{dim}"


def bench_location(settings: Settings, name: str) -> DatabaseLocation:
    """Always the embedded server in DATA_DIR, even when DATABASE_URL points elsewhere."""
    base = make_url(start_embedded_server(settings.data_dir))
    return DatabaseLocation(base.set(drivername="postgresql+asyncpg", database=name), True)


def _dsn(location: DatabaseLocation) -> str:
    return location.url.set(drivername="postgresql").render_as_string(hide_password=False)


async def drop_database(location: DatabaseLocation) -> None:
    admin = create_async_engine(location.url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(
                text(f'DROP DATABASE IF EXISTS "{location.url.database}" WITH (FORCE)')
            )
    finally:
        await admin.dispose()


async def _read_meta(dsn: str) -> dict[str, Any] | None:
    conn = await asyncpg.connect(dsn)
    try:
        exists = await conn.fetchval("SELECT to_regclass('bench_meta') IS NOT NULL")
        if not exists:
            return None
        raw = await conn.fetchval("SELECT value FROM bench_meta WHERE key = 'catalog'")
        return json.loads(raw) if raw else None
    finally:
        await conn.close()


async def _write_meta(dsn: str, meta: dict[str, Any]) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_meta (key text PRIMARY KEY, value text)"
        )
        await conn.execute(
            "INSERT INTO bench_meta VALUES ('catalog', $1) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            json.dumps(meta),
        )
    finally:
        await conn.close()


def _stage_rows(wines: Sequence[SyntheticWine]) -> Iterator[tuple[Any, ...]]:
    for n, w in enumerate(wines):
        yield (
            n,
            w.slug,
            w.name,
            w.producer,
            w.vintage_year,
            w.country,
            w.region,
            w.grape_varieties,
            w.wine_type.value,
            w.sweetness.value,
            w.acidity,
            w.tannins,
            w.body,
            w.description,
            w.tasting_notes,
            w.food_pairings,
            w.price_rub,
            list(w.parts),
        )


async def load_wines(
    dsn: str,
    wines: Sequence[SyntheticWine],
    basis: Basis,
    model: str,
    progress: Progress | None = None,
) -> str | None:
    """COPY the wines in; PostgreSQL sums each wine's embedding from the basis table.

    The HNSW index is dropped first (building it once afterwards is far faster than keeping
    it up to date row by row); its definition, as the migrations made it, is returned.
    """
    conn = await asyncpg.connect(dsn)
    try:
        definition = await conn.fetchval("SELECT pg_get_indexdef(to_regclass($1))", HNSW_INDEX)
        await conn.execute(f"DROP INDEX IF EXISTS {HNSW_INDEX}")
        await conn.execute("CREATE TEMP TABLE bench_basis_raw (id int, v real[])")
        await conn.copy_records_to_table(
            "bench_basis_raw",
            records=[(i, v) for i, v in enumerate(basis.vectors)],
            columns=["id", "v"],
        )
        await conn.execute(
            "CREATE TEMP TABLE bench_basis AS SELECT id, v::vector AS v FROM bench_basis_raw; "
            "CREATE UNIQUE INDEX ON bench_basis (id); ANALYZE bench_basis"
        )
        await conn.execute(
            "CREATE TEMP TABLE bench_stage (n int, slug text, name text, producer text, "
            "vintage_year int, country text, region text, grape_varieties text[], "
            "wine_type text, sweetness text, acidity smallint, tannins smallint, body smallint, "
            "description text, tasting_notes text, food_pairings text[], price_rub numeric, "
            "parts int[])"
        )
        await conn.copy_records_to_table(
            "bench_stage", records=_stage_rows(wines), columns=list(_STAGE_COLUMNS)
        )
        await conn.execute("CREATE INDEX ON bench_stage (n); ANALYZE bench_stage")
        for start in range(0, len(wines), INSERT_CHUNK):
            await conn.execute(
                "INSERT INTO wines (slug, name, producer, vintage_year, country, region, "
                "grape_varieties, wine_type, sweetness, acidity, tannins, body, description, "
                "tasting_notes, food_pairings, price_rub, embedding, embedding_model) "
                "SELECT s.slug, s.name, s.producer, s.vintage_year, s.country, s.region, "
                "s.grape_varieties, s.wine_type::wine_type, s.sweetness::sweetness, s.acidity, "
                "s.tannins, s.body, s.description, s.tasting_notes, s.food_pairings, s.price_rub, "
                "(SELECT sum(b.v) FROM bench_basis b WHERE b.id = ANY (s.parts)), $3 "
                "FROM bench_stage s WHERE s.n >= $1 AND s.n < $2 ORDER BY s.n",
                start,
                start + INSERT_CHUNK,
                model,
            )
            if progress is not None:
                progress(f"loaded {min(start + INSERT_CHUNK, len(wines))}/{len(wines)} wines")
        await conn.execute("VACUUM ANALYZE wines")
    finally:
        await conn.close()
    return definition


async def build_index(
    dsn: str, definition: str | None
) -> tuple[float | None, int | None, list[str]]:
    """Build the HNSW index from the definition the migrations gave it; (seconds, bytes,
    notices). No definition: the migrations declare no index for this dimension."""
    if definition is None:
        return None, None, ["no HNSW index: the migrations declare none for this dimension"]
    notices: list[str] = []
    conn = await asyncpg.connect(dsn)

    def listen(_conn: object, message: Any) -> None:
        notices.append(str(getattr(message, "message", message)))

    try:
        conn.add_log_listener(listen)
        await conn.execute(f"SET maintenance_work_mem = '{INDEX_MAINTENANCE_WORK_MEM}'")
        await conn.execute("SET max_parallel_maintenance_workers = 2")
        started = time.perf_counter()
        await conn.execute(definition)
        seconds = time.perf_counter() - started
        size = int(await conn.fetchval(f"SELECT pg_relation_size('{HNSW_INDEX}')"))
        await conn.execute("ANALYZE wines")
    finally:
        await conn.close()
    return seconds, size, notices


async def add_users(dsn: str, user_ids: Sequence[int]) -> None:
    """Age-confirmed users with no history; conversation state of earlier runs is cleared."""
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(
            "TRUNCATE conversations, messages, feedback, answers, telegram_updates, "
            "rate_counters CASCADE"
        )
        await conn.execute(
            "INSERT INTO users (id, first_name, language_code, age_confirmed, age_confirmed_at) "
            "SELECT u, 'Bench', 'ru', true, now() FROM unnest($1::bigint[]) AS u "
            "ON CONFLICT (id) DO UPDATE SET age_confirmed = true, is_active = true, "
            "taste_profile = '{}', taste = '{}'",
            list(user_ids),
        )
    finally:
        await conn.close()


async def prepare(
    settings: Settings,
    size: int,
    dim: int,
    basis: Basis,
    *,
    reuse: bool = False,
    seed: int = 42,
    progress: Progress | None = None,
) -> BenchDatabase:
    """A migrated bench database holding `size` synthetic wines and the HNSW index."""
    say = progress or (lambda _msg: None)
    name = database_name(size, dim)
    location = bench_location(settings, name)
    dsn = _dsn(location)
    meta: dict[str, Any] | None = None
    wanted = {"generator": GENERATOR_VERSION, "size": size, "dim": dim, "seed": seed}
    if reuse:
        await create_database_if_missing(location)
        meta = await _read_meta(dsn)
        if meta is not None and any(meta.get(k) != v for k, v in wanted.items()):
            meta = None
    reused = meta is not None
    if meta is None:
        await drop_database(location)
        await create_database_if_missing(location)
    engine = make_engine(location, settings)
    try:
        # A reused database built by older code still gets the newer migrations (which may
        # rebuild an index: no statement time limit).
        maintenance = make_engine(location, settings, maintenance=True)
        try:
            await newest_vector_extension(maintenance)
            await migrate(maintenance, "head", dim)
        finally:
            await maintenance.dispose()
        if meta is None:
            say(f"generating {size} wines (dim {dim})")
            wines = generate(size, basis, seed)
            started = time.perf_counter()
            definition = await load_wines(dsn, wines, basis, settings.embedding_model, say)
            load_seconds = time.perf_counter() - started
            say(f"loaded {size} wines in {load_seconds:.1f} s; building the HNSW index")
            index_seconds, index_bytes, notices = await build_index(dsn, definition)
            meta = {
                **wanted,
                "load_seconds": load_seconds,
                "index_seconds": index_seconds,
                "index_bytes": index_bytes,
                "index_notices": notices,
                "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            }
            await _write_meta(dsn, meta)
        async with engine.connect() as conn:
            table_bytes = int(
                await conn.scalar(text("SELECT pg_total_relation_size('wines')")) or 0
            )
            if reused:  # a migration since may have rebuilt the index: report what is there
                index_bytes = await conn.scalar(
                    text("SELECT pg_relation_size(to_regclass(:i))"), {"i": HNSW_INDEX}
                )
                if index_bytes != meta.get("index_bytes"):
                    meta = {**meta, "index_bytes": index_bytes, "index_seconds": None}
    except BaseException:
        await engine.dispose()
        raise
    return BenchDatabase(
        name=name,
        location=location,
        engine=engine,
        sessions=make_session_factory(engine),
        size=size,
        dim=dim,
        load_seconds=float(meta["load_seconds"]),
        index_seconds=meta.get("index_seconds"),
        index_bytes=meta.get("index_bytes"),
        table_bytes=table_bytes,
        index_notices=list(meta.get("index_notices") or []),
        reused=reused,
    )
