"""What the shop's console reads (SQL only), from the per-day rollups (`fact_rollup.py`) for
whole days [first, last] and one path (or '*', every path); votes and «Купить» clicks from
their own small tables; the catalog's state and imports. No query reads `answer_facts` but
the unmet requests' example wordings, from the last days only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.database import row_dicts
from repositories.fact_rollup import DIMENSIONS, SEPARATOR, UNMET_KEYS
from repositories.sales import WINE_SALES

__all__ = ["DIMENSIONS", "UNMET_KEYS", "Period"]


@dataclass(frozen=True)
class Period:
    first: date  # inclusive, UTC days
    last: date
    path: str | None = None  # only the answers of this path

    def params(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last, "path": self.path or "*"}


_DAYS = "day BETWEEN :first AND :last AND path = :path"
_STAMPS = (
    "created_at >= (CAST(:first AS date)::timestamp AT TIME ZONE 'UTC') "
    "AND created_at < ((CAST(:last AS date) + 1)::timestamp AT TIME ZONE 'UTC')"
)


async def daily(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Per day: answers, people, tokens, unmet (nothing matched or a condition relaxed)."""
    result = await session.execute(
        text(f"SELECT day, answers, people, tokens, unmet FROM fact_days WHERE {_DAYS}"),
        p.params(),
    )
    return row_dicts(result)


async def values(
    session: AsyncSession, p: Period, dims: tuple[str, ...], points: int = 0
) -> list[tuple[Any, ...]]:
    """(dim, value, n, extra, low[, point]) summed over the period — n: count (HLL: the
    register's maximum), extra: unmet requests that found nothing, low: the nearest price
    shown; with `points`, per equal part of the period (0 … points - 1): a trend."""
    point = (
        ", ((day - CAST(:first AS date)) * :points / (CAST(:last AS date) - :first + 1))"
        if points
        else ""
    )
    result = await session.execute(
        text(
            "SELECT dim, value, CASE WHEN dim = 'hll' THEN max(n) ELSE sum(n) END, "
            f"sum(extra), min(low){point} FROM fact_day_values "
            f"WHERE dim = ANY(:dims) AND {_DAYS} GROUP BY dim, value{point}"
        ),
        p.params() | {"dims": list(dims), "points": points},
    )
    return [tuple(row) for row in result.all()]


async def top_values(
    session: AsyncSession, p: Period, dim: str, limit: int
) -> list[tuple[Any, ...]]:
    """(value, n, extra, low) of one dimension's most frequent values in the period."""
    result = await session.execute(
        text(
            "SELECT value, sum(n) AS n, sum(extra) AS extra, min(low) FROM fact_day_values "
            f"WHERE dim = :dim AND {_DAYS} GROUP BY value "
            "ORDER BY n DESC, extra DESC, value LIMIT :limit"
        ),
        p.params() | {"dim": dim, "limit": limit},
    )
    return [tuple(row) for row in result.all()]


async def path_mix(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Answers per path, and each path's latency histogram (bucket → count)."""
    params = p.params()
    result = await session.execute(
        text(
            "SELECT path, sum(answers) AS answers FROM fact_days "
            "WHERE day BETWEEN :first AND :last AND path <> '*' "
            "AND (:path = '*' OR path = :path) GROUP BY path ORDER BY 2 DESC"
        ),
        params,
    )
    mix = row_dicts(result)
    histograms = await session.execute(
        text(
            "SELECT path, value, sum(n) AS n FROM fact_day_values "
            "WHERE dim = 'latency' AND day BETWEEN :first AND :last AND path <> '*' "
            "AND (:path = '*' OR path = :path) GROUP BY path, value"
        ),
        params,
    )
    per_path: dict[str, dict[int, int]] = {}
    for path, value, n in histograms.all():
        per_path.setdefault(path, {})[int(value)] = int(n)
    return [m | {"histogram": per_path.get(m["path"], {})} for m in mix]


async def votes(session: AsyncSession, p: Period) -> dict[str, int]:
    row = (
        await session.execute(
            text(
                "SELECT count(*) FILTER (WHERE vote > 0), count(*) FILTER (WHERE vote < 0) "
                f"FROM feedback WHERE {_STAMPS.replace('created_at', 'updated_at')}"
            ),
            p.params(),
        )
    ).one()
    return {"up": int(row[0]), "down": int(row[1])}


async def clicks(session: AsyncSession, p: Period) -> int:
    return int(
        await session.scalar(text(f"SELECT count(*) FROM buy_clicks WHERE {_STAMPS}"), p.params())
        or 0
    )


async def shown(session: AsyncSession, p: Period) -> int:
    """Wines shown in the period (an answer of three wines shows three)."""
    return int(
        await session.scalar(
            text(f"SELECT sum(n) FROM fact_day_values WHERE dim = 'wine' AND {_DAYS}"),
            p.params(),
        )
        or 0
    )


async def wine_rows(session: AsyncSession, p: Period) -> list[dict[str, Any]]:
    """Every wine with its shows (rollups), 👍/👎, clicks, and its orders and revenue
    attributed led or assisted, in the period."""
    result = await session.execute(
        text(
            "WITH shown AS (SELECT value::uuid AS wine_id, sum(n) AS shown FROM fact_day_values "
            f"  WHERE dim = 'wine' AND {_DAYS} GROUP BY value), "
            "voted AS (SELECT wine_id, count(*) FILTER (WHERE vote > 0) AS up, "
            "  count(*) FILTER (WHERE vote < 0) AS down FROM feedback "
            f"  WHERE {_STAMPS.replace('created_at', 'updated_at')} GROUP BY wine_id), "
            "clicked AS (SELECT wine_id, count(*) AS clicks FROM buy_clicks "
            f"  WHERE {_STAMPS} GROUP BY wine_id), "
            f"sold AS ({WINE_SALES}) "
            "SELECT w.id, w.name, w.producer, w.price_rub, w.available, "
            "coalesce(s.shown, 0) AS shown, coalesce(v.up, 0) AS up, "
            "coalesce(v.down, 0) AS down, coalesce(c.clicks, 0) AS clicks, "
            "coalesce(o.orders, 0) AS orders, coalesce(o.led, 0) AS led, "
            "coalesce(o.assisted, 0) AS assisted FROM wines w "
            "LEFT JOIN shown s ON s.wine_id = w.id LEFT JOIN voted v ON v.wine_id = w.id "
            "LEFT JOIN clicked c ON c.wine_id = w.id LEFT JOIN sold o ON o.wine_id = w.id "
            "ORDER BY shown DESC, clicks DESC, orders DESC, w.name"
        ),
        p.params(),
    )
    return row_dicts(result)


async def unmet_examples(
    session: AsyncSession, p: Period, keys: list[str], per_key: int = 3
) -> dict[str, list[str]]:
    """The latest wordings still kept for these unmet request groups, in [first, last]."""
    if not keys:
        return {}
    key = f"concat_ws(E'{SEPARATOR}', " + ", ".join(f"coalesce({k}, '')" for k in UNMET_KEYS) + ")"
    result = await session.execute(
        text(
            f"SELECT k, (array_agg(wording ORDER BY created_at DESC))[1:{per_key}] FROM ("
            f"  SELECT {key} AS k, wording, created_at FROM answer_facts "
            f"  WHERE {_STAMPS} AND match IN ('none', 'relaxed') AND wording IS NOT NULL "
            "  AND (:path = '*' OR path = :path)) AS u "
            "WHERE k = ANY(:keys) GROUP BY k"
        ),
        p.params() | {"keys": keys},
    )
    return {k: list(words) for k, words in result.all()}


async def catalog_syncs(session: AsyncSession, limit: int = 20) -> list[dict[str, Any]]:
    result = await session.execute(
        text(
            "SELECT created_at, source, format, rows, inserted, updated, unchanged, "
            "marked_unavailable, skipped, reasons, error FROM catalog_syncs "
            "ORDER BY created_at DESC, id DESC LIMIT :limit"
        ),
        {"limit": limit},
    )
    return row_dicts(result)


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
