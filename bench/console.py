"""`python -m bench.console`: the shop's console on 1,000,000 recorded answers and 100,000
orders.

Fills a bench database of the embedded server (`sommelier_bench_console`, never the user's)
with the demo catalog and `--facts` request facts spread over a year (30,000 people, ~2 %
«Купить» clicks, 20,000 votes) and `--orders` orders over the same year (1–4 lines each, 10 %
of the lines led by the sommelier, 20 % assisted, 5 % of the orders cancelled), then

- opens every console view through the real HTTP server (API_TOKEN), `--repeat` times each,
  for the 30-day period (the default) and the whole year, and prints p50 / p95 / max;
- scrapes `/metrics` (its sales gauges read the last 30 days' orders) as often;
- measures what recording adds to an answer: building the fact row (CPU) and its INSERT in
  the answer's transaction, on the full table (index upkeep included), `--answers` times.

`--reuse` keeps a database filled by an earlier run with the same `--facts` (and orders
with the same `--orders`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from decimal import Decimal

import aiohttp
from aiohttp import web
from sqlalchemy import text

from bench.db import bench_location, drop_database
from bench.stats import Summary
from core.domain import Sweetness, WineType
from core.recommendation import Recommendation, RecommendedWine, Usage
from core.settings import load_settings
from repositories.database import create_database_if_missing
from repositories.fact_rollup import refresh
from repositories.facts import record_fact
from repositories.migrations import migrate
from repositories.sales import refresh_sales
from services.app.catalog.admin import seed_catalog
from services.app.console.reports import TODAY_SECONDS, ConsoleService
from services.app.container import build_services
from services.app.database import Database
from services.app.facts.recorder import FactRecorder, new_fact_id
from services.app.runtime import open_runtime
from sommelier.serve import build_served_app

DATABASE = "sommelier_bench_console"
VIEWS = ("overview", "demand", "unmet", "wines", "catalog")
TOKEN = "bench-console"
CHUNK = 100_000

_FILL = """
WITH ids AS (SELECT array_agg(id ORDER BY slug) AS a, count(*)::int AS n FROM wines),
rows AS (
  SELECT g, 1 + floor(random() * 30000)::bigint AS u, random() AS r1, random() AS r2,
         random() AS r3, random() AS r4, random() AS r5, random() AS r6
  FROM generate_series(1, :chunk) AS g
)
INSERT INTO answer_facts (id, created_at, user_id, person, path, kind, style, body, country,
  region, grape, food, occasion, price_band, price_max, match, asked_name, wine_ids,
  nearest_price, latency_ms, tokens, llm_calls, tools, wording)
SELECT gen_random_uuid(),
  now() - interval '365 days' * (1 - (:offset + g)::float8 / :total), u,
  substr(md5(u::text), 1, 12),
  (ARRAY['agent','agent','agent','agent','offline','catalog_prompt','welcome','similar',
         'inline','group','photo'])[1 + floor(r2 * 11)::int],
  'request',
  CASE WHEN r3 < 0.6 THEN (ARRAY['красное сухое','белое сухое','розовое сухое','игристое',
       'красное полусладкое','белое полусухое','десертное'])[1 + floor(r4 * 7)::int] END,
  CASE WHEN r5 < 0.1 THEN 'полнотелое' END,
  CASE WHEN r4 < 0.35 THEN (ARRAY['Италия','Франция','Испания','Грузия','Россия','Чили',
       'Германия','Португалия','Аргентина','Новая Зеландия'])[1 + floor(r6 * 10)::int] END,
  CASE WHEN r4 < 0.05 THEN 'Тоскана' END,
  CASE WHEN r5 < 0.3 THEN (ARRAY['пино нуар','каберне совиньон','мерло','рислинг',
       'шардоне','саперави','темпранильо','совиньон блан'])[1 + floor(r3 * 8)::int] END,
  CASE WHEN r6 < 0.45 THEN (ARRAY['стейк','рыба','суши','сыр','паста','курица','утка',
       'морепродукты','шашлык','десерт'])[1 + floor(r5 * 10)::int] END,
  CASE WHEN r2 < 0.12 THEN (ARRAY['подарок','свидание','пикник','праздник',
       'ужин'])[1 + floor(r1 * 5)::int] END,
  CASE WHEN r1 < 0.5 THEN (ARRAY['до 1 000 ₽','до 2 000 ₽','до 3 000 ₽','до 5 000 ₽',
       'дороже 5 000 ₽'])[1 + floor(r3 * 5)::int] END,
  CASE WHEN r1 < 0.5 THEN (ARRAY[1000, 2000, 3000, 5000, 9000])[1 + floor(r3 * 5)::int] END,
  CASE WHEN r6 < 0.06 THEN 'none' WHEN r6 < 0.18 THEN 'relaxed'
       WHEN r3 < 0.6 OR r1 < 0.5 THEN 'exact' ELSE 'free' END,
  CASE WHEN r6 < 0.004 THEN (ARRAY['Sassicaia 2019','Opus One','Cloudy Bay',
       'Tignanello'])[1 + floor(r5 * 4)::int] END,
  CASE WHEN r6 < 0.06 THEN NULL ELSE ARRAY[ids.a[1 + floor(r2 * ids.n)::int],
       ids.a[1 + floor(r4 * ids.n)::int], ids.a[1 + floor(r5 * ids.n)::int]] END,
  CASE WHEN r6 >= 0.06 AND r6 < 0.18 THEN 800 + floor(r2 * 4000)::int END,
  (200 + r5 * r5 * 9000)::int, (r2 * 4000)::int, (r3 * 3)::int, (r4 * 3)::int,
  CASE WHEN r1 > 0.5 THEN 'вино к ужину, запрос номер ' || g END
FROM rows, ids ORDER BY g
"""

_ORDERS = """
INSERT INTO orders (order_id, placed_at, status, source, total_rub)
SELECT 'B-' || g, now() - interval '365 days' * (1 - g::float8 / :total),
  CASE WHEN random() < 0.05 THEN 'cancelled' ELSE 'placed' END, 'bench', 0
FROM generate_series(1, :total) AS g
"""
_ORDER_LINES = """
WITH ids AS (SELECT array_agg(id ORDER BY slug) AS a, array_agg(price_rub ORDER BY slug) AS p,
                    count(*)::int AS n FROM wines),
picks AS (
  SELECT g, k, 1 + floor(random() * (SELECT n FROM ids))::int AS w, random() AS x,
         1 + floor(random() * 3)::int AS q, 1 + floor(random() * 30000)::bigint AS u
  FROM generate_series(1, :total) AS g CROSS JOIN LATERAL generate_series(1, 1 + g % 4) AS k
)
INSERT INTO order_lines (order_id, line_no, product, wine_id, quantity, price_rub, attribution,
  user_id)
SELECT 'B-' || g, k, 'SKU-' || w, ids.a[w], q, ids.p[w],
  CASE WHEN x < 0.1 THEN 'led' WHEN x < 0.3 THEN 'assisted' ELSE 'none' END,
  CASE WHEN x < 0.3 THEN u END
FROM picks, ids ORDER BY g, k
"""
_STALE_DAYS = (
    "INSERT INTO sales_stale_days SELECT DISTINCT (placed_at AT TIME ZONE 'UTC')::date "
    "FROM orders ON CONFLICT DO NOTHING"
)
# As the import leaves them: a cancelled order's lines are attributed to nobody.
_ORDER_TOTALS = (
    "UPDATE order_lines l SET attribution = 'none', user_id = NULL FROM orders o "
    "WHERE o.order_id = l.order_id AND o.status = 'cancelled'",
    "UPDATE orders o SET total_rub = t.total FROM (SELECT order_id, "
    "sum(quantity * price_rub) AS total FROM order_lines GROUP BY order_id) t "
    "WHERE t.order_id = o.order_id",
)


def _answer() -> Recommendation:
    wine = RecommendedWine(
        id=uuid.uuid4(),
        name="Bench Pinot",
        producer="Bench",
        country="Франция",
        region=None,
        grape_varieties=["пино нуар"],
        wine_type=WineType.red,
        sweetness=Sweetness.dry,
        price_rub=Decimal("1600"),
        vintage_year=None,
        image_url=None,
        why="",
    )
    rec = Recommendation(intro="", wines=[wine] * 3, closing="", path="agent")
    rec.new_messages = [{"role": "user", "content": "пино нуар до 1000 к утке на ужин"}]
    rec.usage = Usage(900, 150)
    rec.timings_ms = {"total": 2400.0}
    return rec


async def run(facts: int, orders: int, repeat: int, answers: int, reuse: bool) -> int:
    base = load_settings()
    location = bench_location(base, DATABASE)
    settings = load_settings(
        database_url=location.url.render_as_string(hide_password=False),
        api_token=TOKEN,
        embedding_dim=base.embedding_dim,
    )
    if not reuse:
        await drop_database(location)
    await create_database_if_missing(location)
    async with open_runtime(settings) as rt:
        await migrate(rt.maintenance, "head", settings.embedding_dim)
        async with rt.engine.connect() as conn:
            have = int(await conn.scalar(text("SELECT count(*) FROM answer_facts")) or 0)
        if have != facts:
            await _fill(rt, facts)
        async with rt.engine.connect() as conn:
            have = int(await conn.scalar(text("SELECT count(*) FROM orders")) or 0)
        if have != orders:
            await _fill_orders(rt, orders)
        async with rt.maintenance.begin() as conn:  # built afresh: their build is measured
            await conn.execute(text("TRUNCATE fact_days, fact_day_values"))
            await conn.execute(text("DELETE FROM sales_days"))
            await conn.execute(text(_STALE_DAYS))
        every_day = await _recompute_ms(rt, refresh_sales)
        print(f"sales of every day computed in {every_day / 1000:.1f} s")
        await _sales_today(rt, orders, repeat)
        started = time.perf_counter()
        console = ConsoleService(Database(rt.maintenance_sessions), settings)
        await console.refresh()  # the rollups, once for the whole year (later: today only)
        print(f"rollups of every day computed in {time.perf_counter() - started:.1f} s")
        # What the first view of a visit adds: today's rollup again.
        t = Summary.of([await _recompute_ms(rt, refresh) for _ in range(repeat)])
        print(
            f"today's rollup ({facts // 365:,} facts) recomputed: p50 {t.p50:.1f} ms, "
            f"p95 {t.p95:.1f} ms (once per {TODAY_SECONDS:g} s; views in between skip it)"
        )
        services = build_services(rt)
        app, _ = build_served_app(settings, services, api=False)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        host, port = runner.addresses[0][:2]
        print(f"console views on {facts:,} answers, {orders:,} orders ({repeat} renders each, ms):")
        print(f"{'view':<10} {'period':>7} {'p50':>7} {'p95':>7} {'max':>7}")
        worst = 0.0
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
            for days in (30, 365):
                for view in VIEWS:
                    url = f"http://{host}:{port}/console/{view}?days={days}"
                    s = Summary.of(await _timed(http, url, repeat))
                    worst = max(worst, s.p95)
                    print(f"{view:<10} {days:>5} d {s.p50:>7.1f} {s.p95:>7.1f} {s.max:>7.1f}")
            s = Summary.of(await _timed(http, f"http://{host}:{port}/metrics", repeat))
            print(f"{'/metrics':<10} {30:>5} d {s.p50:>7.1f} {s.p95:>7.1f} {s.max:>7.1f}")
        await runner.cleanup()
        build, insert = await _recording(rt, answers)
        await services.close()
    print(
        f"recording per answer ({answers} answers, ms): build p50 {build.p50:.3f} "
        f"p95 {build.p95:.3f}; INSERT in the answer's transaction p50 {insert.p50:.3f} "
        f"p95 {insert.p95:.3f}"
    )
    print(f"slowest view p95 (either period): {worst:.1f} ms")
    return 0


async def _fill(rt, facts: int) -> None:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    async with rt.maintenance.begin() as conn:
        await conn.execute(
            text("TRUNCATE answer_facts, buy_clicks, feedback, users, catalog_syncs CASCADE")
        )
    await seed_catalog(rt.sessions)
    async with rt.maintenance.begin() as conn:
        for offset in range(0, facts, CHUNK):
            # In time order, as answers arrive: a period's rows sit together on disk.
            chunk = {"chunk": min(CHUNK, facts - offset), "offset": offset, "total": facts}
            await conn.execute(text(_FILL), chunk)
            print(f"  {offset + CHUNK:,} facts", file=sys.stderr)
        await conn.execute(
            text(
                "INSERT INTO buy_clicks (created_at, user_id, fact_id, wine_id) "
                "SELECT created_at + interval '1 minute', user_id, id, wine_ids[1] "
                "FROM answer_facts WHERE wine_ids IS NOT NULL AND random() < 0.02"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO users (id, age_confirmed) SELECT g, true "
                "FROM generate_series(1, 30000) g ON CONFLICT DO NOTHING"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO feedback (user_id, wine_id, vote, created_at, updated_at) "
                "SELECT DISTINCT ON (f.user_id, f.wine_ids[2]) f.user_id, f.wine_ids[2], "
                "CASE WHEN random() < 0.7 THEN 1 ELSE -1 END, f.created_at, f.created_at "
                "FROM answer_facts f WHERE f.wine_ids IS NOT NULL AND random() < 0.02 "
                "LIMIT 20000"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO catalog_syncs (source, format, rows, inserted, updated, unchanged) "
                "VALUES ('https://shop.example/feed.yml', 'yml', 82, 0, 3, 79)"
            )
        )
    async with rt.maintenance.connect() as conn:
        await conn.execute(text("COMMIT"))
        await conn.execute(text("VACUUM ANALYZE answer_facts"))
        await conn.execute(text("VACUUM ANALYZE buy_clicks"))
        await conn.execute(text("VACUUM ANALYZE feedback"))
    print(f"  filled in {time.perf_counter() - started:.0f} s", file=sys.stderr)


async def _recompute_ms(rt, recompute) -> float:  # type: ignore[no-untyped-def]
    """One rollup recomputed and committed, in ms."""
    started = time.perf_counter()
    async with rt.sessions() as s:
        await recompute(s)
        await s.commit()
    return (time.perf_counter() - started) * 1000


async def _timed(http: aiohttp.ClientSession, url: str, repeat: int) -> list[float]:
    """`repeat` timed GETs of `url` in ms, after one to warm it (plans, template compilation)."""
    times = []
    for i in range(repeat + 1):
        started = time.perf_counter()
        async with http.get(url) as r:
            assert r.status == 200, (url, r.status)
            await r.read()
        if i:  # the first: warm-up
            times.append((time.perf_counter() - started) * 1000)
    return times


async def _sales_today(rt, orders: int, repeat: int) -> None:  # type: ignore[no-untyped-def]
    """What a view pays after an import touched today's orders: that day's sales again."""
    times = []
    for _ in range(repeat):
        async with rt.maintenance.begin() as conn:
            await conn.execute(
                text("INSERT INTO sales_stale_days VALUES ((now() AT TIME ZONE 'UTC')::date)")
            )
        times.append(await _recompute_ms(rt, refresh_sales))
    t = Summary.of(times)
    print(
        f"today's sales ({orders // 365:,} orders) recomputed: p50 {t.p50:.1f} ms, "
        f"p95 {t.p95:.1f} ms (after an import changed them)"
    )


async def _fill_orders(rt, orders: int) -> None:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    async with rt.maintenance.begin() as conn:
        await conn.execute(text("TRUNCATE orders, order_syncs CASCADE"))
        await conn.execute(text(_ORDERS), {"total": orders})
        await conn.execute(text(_ORDER_LINES), {"total": orders})
        for statement in _ORDER_TOTALS:
            await conn.execute(text(statement))
    async with rt.maintenance.connect() as conn:
        await conn.execute(text("COMMIT"))
        await conn.execute(text("VACUUM ANALYZE orders"))
        await conn.execute(text("VACUUM ANALYZE order_lines"))
    print(f"  {orders:,} orders filled in {time.perf_counter() - started:.0f} s", file=sys.stderr)


async def _recording(rt, answers: int) -> tuple[Summary, Summary]:  # type: ignore[no-untyped-def]
    recorder = FactRecorder("bench-key")
    rec = _answer()
    build: list[float] = []
    insert: list[float] = []
    for i in range(answers + 50):
        started = time.perf_counter()
        values = recorder.values(new_fact_id(), 10_000_000 + i, rec)
        built = time.perf_counter()
        async with rt.sessions() as s:
            await s.execute(text("SELECT 1"))  # the answer's transaction is already open
            before = time.perf_counter()
            await record_fact(s, values)
            after = time.perf_counter()
            await s.rollback()  # the bench table keeps exactly --facts rows
        if i >= 50:  # warm-up: the first statements are prepared
            build.append((built - started) * 1000)
            insert.append((after - before) * 1000)
    return Summary.of(build), Summary.of(insert)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.console", description=__doc__)
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--orders", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    return asyncio.run(run(args.facts, args.orders, args.repeat, args.answers, args.reuse))


if __name__ == "__main__":
    sys.exit(main())
