"""What the shop's console reads (SQL only): answers per day, demand, unmet demand, wines,
catalog imports. Every query takes a period [start, end) and an optional path filter and
reads `answer_facts` through its `created_at` index: a month of a busy shop is a few
hundred thousand rows, aggregated in one scan per view."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

DIMENSIONS = ("style", "food", "country", "grape", "price_band", "occasion")
UNMET_KEYS = ("style", "country", "region", "grape", "food", "price_band", "occasion")


@dataclass(frozen=True)
class Period:
    start: datetime
    end: datetime
    path: str | None = None  # only the answers of this path

    def params(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "path": self.path}


_IN_PERIOD = (
    "created_at >= :start AND created_at < :end AND (CAST(:path AS text) IS NULL OR path = :path)"
)


def _rows(result: Any) -> list[dict[str, Any]]:
    return [dict(row) for row in result.mappings().all()]


async def daily(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Per day: answers, people, tokens, unmet (nothing matched or a condition relaxed)."""
    result = await session.execute(
        text(
            "SELECT date_trunc('day', created_at, 'UTC') AS day, count(*) AS answers, "
            "count(DISTINCT person) AS people, coalesce(sum(tokens), 0) AS tokens, "
            "count(*) FILTER (WHERE match IN ('none', 'relaxed')) AS unmet "
            f"FROM answer_facts WHERE {_IN_PERIOD} GROUP BY 1 ORDER BY 1"
        ),
        p.params(),
    )
    return _rows(result)


async def totals(session: AsyncSession, p: Period) -> dict[str, Any]:
    row = (
        (
            await session.execute(
                text(
                    "SELECT count(*) AS answers, count(DISTINCT person) AS people, "
                    "coalesce(sum(tokens), 0) AS tokens, "
                    "percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, "
                    "percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 "
                    f"FROM answer_facts WHERE {_IN_PERIOD}"
                ),
                p.params(),
            )
        )
        .mappings()
        .one()
    )
    return dict(row)


async def path_mix(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    result = await session.execute(
        text(
            "SELECT path, count(*) AS answers, "
            "percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, "
            "percentile_disc(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 "
            f"FROM answer_facts WHERE {_IN_PERIOD} GROUP BY path ORDER BY 2 DESC"
        ),
        p.params(),
    )
    return _rows(result)


async def votes(session: AsyncSession, p: Period) -> dict[str, int]:
    row = (
        await session.execute(
            text(
                "SELECT count(*) FILTER (WHERE vote > 0) AS up, "
                "count(*) FILTER (WHERE vote < 0) AS down FROM feedback "
                "WHERE updated_at >= :start AND updated_at < :end"
            ),
            {"start": p.start, "end": p.end},
        )
    ).one()
    return {"up": int(row[0]), "down": int(row[1])}


async def clicks(session: AsyncSession, p: Period) -> int:
    return int(
        await session.scalar(
            text(
                "SELECT count(*) FROM buy_clicks WHERE created_at >= :start AND created_at < :end"
            ),
            {"start": p.start, "end": p.end},
        )
        or 0
    )


async def demand(session: AsyncSession, p: Period, previous: Period) -> list[dict[str, Any]]:
    """(dimension, value, day) counts over this period and the one before it, in one scan:
    the caller ranks the values and draws each one's trend."""
    values = ", ".join(f"('{d}', {d})" for d in DIMENSIONS)
    result = await session.execute(
        text(
            "SELECT v.dim, v.value, date_trunc('day', f.created_at, 'UTC') AS day, count(*) AS n "
            f"FROM answer_facts f CROSS JOIN LATERAL (VALUES {values}) AS v(dim, value) "
            "WHERE f.created_at >= :prev AND f.created_at < :end "
            "AND (CAST(:path AS text) IS NULL OR f.path = :path) AND v.value IS NOT NULL "
            "GROUP BY 1, 2, 3"
        ),
        p.params() | {"prev": previous.start},
    )
    return _rows(result)


async def unmet(session: AsyncSession, p: Period, limit: int = 50) -> list[dict[str, Any]]:
    """Requests the catalog could not satisfy, grouped by what was asked, most frequent
    first: how many, nothing at all or only something relaxed, the nearest price shown, and
    the latest wordings still kept."""
    keys = ", ".join(UNMET_KEYS)
    any_key = " OR ".join(f"{k} IS NOT NULL" for k in UNMET_KEYS)
    result = await session.execute(
        text(
            f"SELECT {keys}, count(*) AS n, "
            "count(*) FILTER (WHERE match = 'none') AS nothing, "
            "min(price_max) AS price_max, min(nearest_price) AS nearest_price, "
            "(array_agg(wording ORDER BY created_at DESC) "
            "FILTER (WHERE wording IS NOT NULL))[1:3] AS examples "
            f"FROM answer_facts WHERE {_IN_PERIOD} AND match IN ('none', 'relaxed') "
            f"AND ({any_key}) GROUP BY {keys} ORDER BY n DESC, nothing DESC LIMIT :limit"
        ),
        p.params() | {"limit": limit},
    )
    return _rows(result)


async def unmet_names(session: AsyncSession, p: Period, limit: int = 30) -> list[dict[str, Any]]:
    """Wines asked for by name (a label photo) that the shop does not have."""
    result = await session.execute(
        text(
            "SELECT asked_name AS name, count(*) AS n, max(created_at) AS last "
            f"FROM answer_facts WHERE {_IN_PERIOD} AND asked_name IS NOT NULL "
            "GROUP BY asked_name ORDER BY n DESC, last DESC LIMIT :limit"
        ),
        p.params() | {"limit": limit},
    )
    return _rows(result)


async def wines(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Per wine shown, voted on or clicked in the period: shows, 👍, 👎, clicks."""
    result = await session.execute(
        text(
            "WITH shown AS ("
            "  SELECT w AS wine_id, count(*) AS shown FROM answer_facts, unnest(wine_ids) AS w "
            f"  WHERE {_IN_PERIOD} GROUP BY w), "
            "voted AS ("
            "  SELECT wine_id, count(*) FILTER (WHERE vote > 0) AS up, "
            "  count(*) FILTER (WHERE vote < 0) AS down FROM feedback "
            "  WHERE updated_at >= :start AND updated_at < :end GROUP BY wine_id), "
            "clicked AS ("
            "  SELECT wine_id, count(*) AS clicks FROM buy_clicks "
            "  WHERE created_at >= :start AND created_at < :end GROUP BY wine_id) "
            "SELECT w.id, w.name, w.producer, w.price_rub, w.available, "
            "coalesce(s.shown, 0) AS shown, coalesce(v.up, 0) AS up, "
            "coalesce(v.down, 0) AS down, coalesce(c.clicks, 0) AS clicks "
            "FROM shown s FULL JOIN voted v ON v.wine_id = s.wine_id "
            "FULL JOIN clicked c ON c.wine_id = coalesce(s.wine_id, v.wine_id) "
            "JOIN wines w ON w.id = coalesce(s.wine_id, v.wine_id, c.wine_id) "
            "ORDER BY shown DESC, clicks DESC, w.name"
        ),
        p.params(),
    )
    return _rows(result)


async def never_shown(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Wines on sale that no answer of the period showed."""
    result = await session.execute(
        text(
            "SELECT w.id, w.name, w.producer, w.price_rub FROM wines w "
            "WHERE w.available AND NOT EXISTS ("
            "  SELECT 1 FROM answer_facts f WHERE f.wine_ids @> ARRAY[w.id] "
            "  AND f.created_at >= :start AND f.created_at < :end "
            "  AND (CAST(:path AS text) IS NULL OR f.path = :path)"
            ") ORDER BY w.name"
        ),
        p.params(),
    )
    return _rows(result)


async def catalog_syncs(session: AsyncSession, limit: int = 20) -> list[dict[str, Any]]:
    result = await session.execute(
        text(
            "SELECT created_at, source, format, rows, inserted, updated, unchanged, "
            "marked_unavailable, skipped, reasons, error FROM catalog_syncs "
            "ORDER BY created_at DESC, id DESC LIMIT :limit"
        ),
        {"limit": limit},
    )
    return _rows(result)


async def catalog_state(session: AsyncSession, embedding_model: str) -> dict[str, int]:
    row = (
        (
            await session.execute(
                text(
                    "SELECT count(*) AS wines, "
                    "count(*) FILTER (WHERE NOT available) AS unavailable, "
                    "count(*) FILTER (WHERE embedding IS NULL "
                    "OR embedding_model IS DISTINCT FROM :m) AS without_embedding FROM wines"
                ),
                {"m": embedding_model},
            )
        )
        .mappings()
        .one()
    )
    return {k: int(v) for k, v in row.items()}
