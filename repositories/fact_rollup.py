"""Per-day rollups of `answer_facts`, what the console reads (SQL only).

`fact_days` (answers, unmet, tokens, people per day and path; path '*' is every path) and
`fact_day_values` (per day, path and dimension: demand values, wines shown, unmet request
groups, wines asked for by name, a latency histogram, and 256 HyperLogLog registers of the
people — so the people of any period are estimated from its days without reading a fact).

`refresh` recomputes, under one advisory lock (one replica at a time), every day without a
final rollup: on a running bot that is today (and yesterday, just after midnight), a few
thousand facts; after /forget, the person's days (it drops their rollups, so they are computed
again without them). A day is final once it ended 5 minutes before it was computed."""

from __future__ import annotations

from datetime import date

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

ROLLUP_LOCK = 72_6578_0027
DIMENSIONS = ("style", "food", "country", "grape", "price_band", "occasion")
UNMET_KEYS = ("style", "country", "region", "grape", "food", "price_band", "occasion")
SEPARATOR = "\x1f"
LATENCY_BASE_MS = 10.0
LATENCY_STEP = 1.15  # histogram bucket k holds latencies up to 10 ms × 1.15^k

_DAY = "date(f.created_at AT TIME ZONE 'UTC')"
_FINAL = f"(({_DAY} + 1)::timestamp AT TIME ZONE 'UTC') + interval '5 minutes' < now()"
_RANGE = (
    "f.created_at >= (CAST(:first AS date)::timestamp AT TIME ZONE 'UTC') "
    "AND f.created_at < ((CAST(:last AS date) + 1)::timestamp AT TIME ZONE 'UTC')"
)
CHUNK_DAYS = 7  # days computed per statement: each stays well inside the statement timeout

_DAYS = f"""
INSERT INTO fact_days (day, path, answers, unmet, tokens, people, final)
SELECT {_DAY}, coalesce(f.path, '*'), count(*),
       count(*) FILTER (WHERE f.match IN ('none', 'relaxed')), coalesce(sum(f.tokens), 0),
       count(DISTINCT f.person), {_FINAL}
FROM answer_facts f WHERE {_RANGE}
GROUP BY GROUPING SETS (({_DAY}, f.path), ({_DAY}))
"""

_EMPTY_DAYS = """
INSERT INTO fact_days (day, path, answers, unmet, tokens, people, final)
SELECT d::date, '*', 0, 0, 0, 0,
       ((d::date + 1)::timestamp AT TIME ZONE 'UTC') + interval '5 minutes' < now()
FROM generate_series(CAST(:first AS date), CAST(:last AS date), interval '1 day') AS d
ON CONFLICT DO NOTHING
"""

_demand = ", ".join(f"('{d}', f.{d})" for d in DIMENSIONS)
_unmet_key = ", ".join(f"coalesce(f.{k}, '')" for k in UNMET_KEYS)
_LATENCY_BUCKET = (
    f"CASE WHEN f.latency_ms <= {LATENCY_BASE_MS:g} THEN 0 "
    f"ELSE ceil(ln(f.latency_ms / {LATENCY_BASE_MS:g}) / ln({LATENCY_STEP}))::int END"
)
_HLL_RHO = (
    "40 - floor(log(2, greatest(('x' || substr(f.person, 3, 10))::bit(40)::bigint, 1)"
    "::numeric))::int"
)

# One SELECT per kind of value, each `(day, path, dim, value, n, extra, low)` with '*' rows.
_VALUE_SELECTS = (
    f"""SELECT {_DAY} AS day, coalesce(f.path, '*') AS path, v.dim, v.value, count(*),
      0::bigint, NULL::int
    FROM answer_facts f CROSS JOIN LATERAL (VALUES {_demand}) AS v(dim, value)
    WHERE {_RANGE} AND v.value IS NOT NULL
    GROUP BY GROUPING SETS (({_DAY}, f.path, v.dim, v.value), ({_DAY}, v.dim, v.value))""",
    f"""SELECT {_DAY}, coalesce(f.path, '*'), 'wine', w::text, count(*),
      0::bigint, NULL::int
    FROM answer_facts f CROSS JOIN LATERAL unnest(f.wine_ids) AS w
    WHERE {_RANGE} GROUP BY GROUPING SETS (({_DAY}, f.path, w), ({_DAY}, w))""",
    f"""SELECT {_DAY}, coalesce(f.path, '*'), 'unmet', concat_ws(E'{SEPARATOR}', {_unmet_key}),
      count(*), count(*) FILTER (WHERE f.match = 'none'), min(f.nearest_price)
    FROM answer_facts f
    WHERE {_RANGE} AND f.match IN ('none', 'relaxed')
      AND num_nonnulls({", ".join(f"f.{k}" for k in UNMET_KEYS)}) > 0
    GROUP BY GROUPING SETS (({_DAY}, f.path, {_unmet_key}), ({_DAY}, {_unmet_key}))""",
    f"""SELECT {_DAY}, coalesce(f.path, '*'), 'asked', f.asked_name, count(*),
      0::bigint, NULL::int
    FROM answer_facts f WHERE {_RANGE} AND f.asked_name IS NOT NULL
    GROUP BY GROUPING SETS (({_DAY}, f.path, f.asked_name), ({_DAY}, f.asked_name))""",
    f"""SELECT {_DAY}, coalesce(f.path, '*'), 'latency', ({_LATENCY_BUCKET})::text, count(*),
      0::bigint, NULL::int
    FROM answer_facts f WHERE {_RANGE}
    GROUP BY GROUPING SETS (({_DAY}, f.path, {_LATENCY_BUCKET}), ({_DAY}, {_LATENCY_BUCKET}))""",
    f"""SELECT {_DAY}, coalesce(f.path, '*'), 'hll', substr(f.person, 1, 2),
      max({_HLL_RHO})::bigint, 0::bigint, NULL::int
    FROM answer_facts f WHERE {_RANGE} AND f.person IS NOT NULL
    GROUP BY GROUPING SETS (({_DAY}, f.path, substr(f.person, 1, 2)),
                            ({_DAY}, substr(f.person, 1, 2)))""",
)


async def refresh(session: AsyncSession, today_fresh: bool = False) -> int:
    """Bring the rollups up to now: every day since the first fact without a final rollup
    (today, yesterday just after midnight, the days of a /forget), in runs of at most
    CHUNK_DAYS days; `today_fresh`: today's rollup, if there is one, is recent enough to be
    kept. Returns the days computed; the caller commits."""
    await session.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ROLLUP_LOCK})
    rows = (
        await session.execute(
            text(
                "SELECT d::date, EXISTS (SELECT 1 FROM fact_days WHERE day = d::date "
                "AND path = '*') FROM generate_series("
                "(SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM answer_facts), "
                "(now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d "
                "WHERE NOT EXISTS (SELECT 1 FROM fact_days "
                "WHERE day = d::date AND path = '*' AND final) ORDER BY 1"
            )
        )
    ).all()
    days = [day for day, _ in rows]
    if today_fresh and len(rows) == 1 and rows[0][1]:
        return 0  # only today is open, and its rollup was made a moment ago
    for first, last in _runs(list(days)):
        params = {"first": first, "last": last}
        await session.execute(
            text("DELETE FROM fact_days WHERE day BETWEEN :first AND :last"), params
        )
        await session.execute(
            text("DELETE FROM fact_day_values WHERE day BETWEEN :first AND :last"), params
        )
        await session.execute(text(_DAYS), params)
        await session.execute(text(_EMPTY_DAYS), params)
        await session.execute(
            text(
                "INSERT INTO fact_day_values (day, path, dim, value, n, extra, low) "
                + " UNION ALL ".join(f"({s})" for s in _VALUE_SELECTS)
            ),
            params,
        )
    return len(days)


def _runs(days: list[date]) -> list[tuple[date, date]]:
    """Consecutive days as (first, last) runs of at most CHUNK_DAYS."""
    runs: list[tuple[date, date]] = []
    for day in days:
        if runs and (day - runs[-1][1]).days == 1 and (day - runs[-1][0]).days < CHUNK_DAYS:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


async def forget_days(session: AsyncSession, user_id: int) -> None:
    """Before a person's facts go: their days' rollups go too (computed again without them)."""
    days = (
        "SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM answer_facts WHERE user_id = :u"
    )
    await session.execute(text(f"DELETE FROM fact_days WHERE day IN ({days})"), {"u": user_id})
    await session.execute(
        text(f"DELETE FROM fact_day_values WHERE day IN ({days})"), {"u": user_id}
    )
