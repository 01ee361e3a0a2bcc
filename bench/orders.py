"""`python -m bench.orders`: the shop's orders — an export of `--orders` orders (100,000 by
default; 1–4 lines each, 3 % cancelled, 10 % carrying a «Купить» click's referral token)
imported through the one import path, `sommelier orders` uses.

A bench database of the embedded server (`sommelier_bench_orders`, never the user's) holds the
demo catalog with the shop's SKUs, 20,000 people who were shown wines (answer facts) and a
click with a genuine referral token for each. Timed: the first import (every order new), the
same export again (every order unchanged: the schedule's re-read) and an export with 5 % of
the orders changed; each split into reading and checking the file, and the database's part.
The target: 100,000 orders in ≤ 60 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from bench.db import bench_location, drop_database
from bench.report import cpu_reference_ms
from core.settings import load_settings
from repositories.database import create_database_if_missing
from repositories.migrations import migrate
from services.app.catalog.admin import seed_catalog
from services.app.facts.referrals import Referrals
from services.app.orders.fields import OrderFields
from services.app.orders.reading import read_orders
from services.app.orders.service import Orders
from services.app.runtime import open_runtime

DATABASE = "sommelier_bench_orders"
PEOPLE = 20_000
KEY = "bench-orders-key"
NOW = datetime.now(UTC).replace(microsecond=0)


async def _fill(rt, referrals: Referrals) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """The catalog with SKUs, people shown wines, one genuine click each; (SKUs, tokens)."""
    async with rt.maintenance.begin() as conn:
        await conn.execute(text("TRUNCATE orders, order_syncs, answer_facts, buy_clicks CASCADE"))
    await seed_catalog(rt.sessions)
    tokens = [t for t in (referrals.new_token() for _ in range(PEOPLE)) if t]
    async with rt.maintenance.begin() as conn:
        await conn.execute(text("UPDATE wines SET external_id = 'SKU-' || slug"))
        await conn.execute(
            text(
                "WITH w AS (SELECT array_agg(id ORDER BY slug) AS a, count(*)::int AS n "
                "FROM wines) "
                "INSERT INTO answer_facts (id, created_at, user_id, path, match, wine_ids) "
                "SELECT gen_random_uuid(), now() - interval '2 days', g, 'agent', 'exact', "
                "ARRAY[w.a[1 + g % w.n], w.a[1 + (g * 7) % w.n], w.a[1 + (g * 13) % w.n]] "
                "FROM generate_series(1, :people) g, w"
            ),
            {"people": PEOPLE},
        )
        await conn.execute(
            text(
                "INSERT INTO buy_clicks (created_at, user_id, fact_id, wine_id, token) "
                "SELECT f.created_at + interval '1 minute', f.user_id, f.id, f.wine_ids[1], "
                "(CAST(:tokens AS text[]))[f.user_id] FROM answer_facts f"
            ),
            {"tokens": tokens},
        )
        skus = (await conn.scalars(text("SELECT external_id FROM wines ORDER BY slug"))).all()
    async with rt.maintenance.connect() as conn:
        await conn.execute(text("COMMIT"))
        await conn.execute(text("VACUUM ANALYZE answer_facts, buy_clicks, wines"))
    return [str(s) for s in skus], tokens


def export(orders: int, skus: list[str], tokens: list[str], changed: float, seed: int) -> bytes:
    """A shop's CSV export: one row per line, the order's id repeated."""
    rng = random.Random(seed)
    rows = ["Номер заказа;Дата заказа;Артикул;Количество;Цена;Статус;Метка"]
    for n in range(orders):
        local = random.Random(n)  # the same order each time, unless it is one of the changed
        placed = (NOW - timedelta(minutes=local.randrange(60 * 24 * 5))).strftime("%d.%m.%Y %H:%M")
        status = "Отменен" if local.random() < 0.03 else "Оплачен"
        token = tokens[local.randrange(len(tokens))] if local.random() < 0.10 else ""
        lines = local.randint(1, 4)
        bump = 1 if rng.random() < changed else 0
        for _ in range(lines):
            sku = skus[local.randrange(len(skus))]
            price = f"{local.randrange(500, 9000)},00"
            rows.append(
                f"Z-{n};{placed};{sku};{local.randint(1, 3) + bump};{price};{status};{token}"
            )
    return ("\n".join(rows) + "\n").encode("utf-8")


async def _timed(orders: Orders, label: str, data: bytes) -> float:
    started = time.perf_counter()
    checked = read_orders(data, OrderFields(), orders.zone, orders.referrals.read)
    read = time.perf_counter() - started
    started = time.perf_counter()
    report = await orders.import_source(label, data=data)
    total = time.perf_counter() - started
    print(
        f"{label:<22} {report.orders:>8,} orders {report.lines:>8,} lines  total {total:6.1f} s "
        f"(reading and checking {read:5.1f} s, the database ≈ {total - read:5.1f} s): "
        f"{report.inserted:,} new, {report.updated:,} updated, {report.unchanged:,} unchanged, "
        f"{report.cancelled:,} cancelled, {report.skipped} skipped; {len(checked.orders):,} read"
    )
    return total


async def run(count: int, keep: bool) -> int:
    base = load_settings()
    location = bench_location(base, DATABASE)
    settings = load_settings(
        database_url=location.url.render_as_string(hide_password=False),
        embedding_dim=base.embedding_dim,
    )
    await drop_database(location)
    await create_database_if_missing(location)
    referrals = Referrals(KEY, settings.referral_params, "sm")
    async with open_runtime(settings) as rt:
        await migrate(rt.maintenance, "head", settings.embedding_dim)
        skus, tokens = await _fill(rt, referrals)
        orders = Orders(rt.maintenance_sessions, referrals, "Europe/Moscow", 7)
        first = export(count, skus, tokens, 0.0, 1)
        again = export(count, skus, tokens, 0.05, 2)
        rows = first.count(b"\n") - 1
        print(f"CPU reference: {cpu_reference_ms():.0f} ms")
        print(f"export: {len(first) / 2**20:.1f} MB CSV, {rows:,} rows")
        worst = await _timed(orders, "first import", first)
        worst = max(worst, await _timed(orders, "the same again", first))
        worst = max(worst, await _timed(orders, "5 % of orders changed", again))
        async with rt.engine.connect() as conn:
            split = (
                await conn.execute(
                    text(
                        "SELECT attribution, count(*) FROM order_lines GROUP BY attribution "
                        "ORDER BY attribution"
                    )
                )
            ).all()
    print("lines by attribution: " + ", ".join(f"{a} {n:,}" for a, n in split))
    print(f"slowest import of {count:,} orders: {worst:.1f} s (target ≤ 60 s)")
    if not keep:
        await drop_database(location)
    return 0 if worst <= 60 else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.orders", description=__doc__)
    parser.add_argument("--orders", type=int, default=100_000)
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    return asyncio.run(run(args.orders, args.keep))


if __name__ == "__main__":
    sys.exit(main())
