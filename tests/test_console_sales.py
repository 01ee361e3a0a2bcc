"""The console's sales on the real database: revenue the sommelier led and assisted per day (a
cancelled order and an unattributed line count nothing), the funnel from a wine shown to a
wine ordered, revenue per conversation, the model's cost per sale; the Wines view's orders and
revenue; the pages, their CSV, /metrics and the weekly digest through the bot's HTTP server."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from sqlalchemy import text

from services.app.console.reports import ConsoleService, window
from services.app.database import Database
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.console_harness import console_stack, csv_rows, http_get
from tests.sales_fixtures import Line, place_order

PEOPLE = (727101, 727102)


async def _two_wines(runtime: Runtime) -> tuple[uuid.UUID, uuid.UUID]:
    async with runtime.engine.connect() as conn:
        rows = await conn.execute(text("SELECT id FROM wines ORDER BY slug LIMIT 2"))
        first, second = (r[0] for r in rows)
    return first, second


async def shop_week(runtime: Runtime) -> tuple[uuid.UUID, uuid.UUID]:
    """Today: two people asked twice each and were shown wines A and B (8 shows, 1,000 tokens
    an answer); one liked A and clicked «Купить» on it. Orders: today A×2 led and B×1
    assisted in one order, yesterday B×3 assisted, a cancelled and an unattributed order of
    A today, and a led order 40 days ago."""
    a, b = await _two_wines(runtime)
    async with runtime.engine.begin() as conn:
        for person in PEOPLE * 2:
            await conn.execute(
                text(
                    "INSERT INTO answer_facts (id, user_id, person, path, match, wine_ids, "
                    "tokens) VALUES (gen_random_uuid(), :u, :p, 'agent', 'exact', :w, 1000)"
                ),
                {"u": person, "p": f"{person:012x}", "w": [a, b]},
            )
        await conn.execute(text("INSERT INTO users (id, age_confirmed) VALUES (727101, true)"))
        await conn.execute(
            text("INSERT INTO feedback (user_id, wine_id, vote) VALUES (727101, :a, 1)"), {"a": a}
        )
        await conn.execute(
            text("INSERT INTO buy_clicks (user_id, wine_id) VALUES (727101, :a)"), {"a": a}
        )
    now = datetime.now(UTC)
    price_a, price_b = Decimal("1500"), Decimal("1000")
    await place_order(
        runtime,
        "O-1",
        now,
        [Line(a, 2, price_a, "led", 727101), Line(b, 1, price_b, "assisted", 727101)],
    )
    await place_order(
        runtime, "O-2", now - timedelta(days=1), [Line(b, 3, Decimal("900"), "assisted")]
    )
    await place_order(runtime, "O-3", now, [Line(a, 5, price_a, "led")], status="cancelled")
    await place_order(runtime, "O-4", now, [Line(a, 1, price_a, "none")])
    await place_order(
        runtime, "O-5", now - timedelta(days=40), [Line(a, 1, Decimal("10000"), "led")]
    )
    return a, b


async def test_led_and_assisted_revenue_per_day_the_funnel_and_the_cost_per_sale(
    seeded: Runtime,
) -> None:
    await shop_week(seeded)
    priced = make_settings(llm_price_per_1k_tokens=Decimal("2.5"))
    data = await ConsoleService(Database(seeded.sessions), priced).overview(window(30))
    today, yesterday = data["series"][-1], data["series"][-2]
    assert (today["led"], today["assisted"], today["sales"]) == (3000, 1000, 1)
    assert (yesterday["led"], yesterday["assisted"], yesterday["sales"]) == (0, 2700, 1)
    assert sum(d["led"] + d["assisted"] for d in data["series"][:-2]) == 0  # 40 days ago: out
    sales = data["sales"]
    assert (sales["led"], sales["assisted"], sales["revenue"]) == (3000, 3700, 6700)
    assert sales["sales"] == 2 and sales["ordered"] == 3
    assert sales["conversations"] == 2 and sales["per_conversation"] == Decimal("3350.00")
    assert sales["cost_per_sale"] == Decimal("5.00")  # 4,000 tokens × 2.5 ₽ / 1,000 / 2 sales
    steps = {r["step"]: r for r in data["funnel"]}
    assert [r["count"] for r in data["funnel"]] == [8, 1, 1, 3]
    assert steps["Нравится"]["of_previous"] == 12.5
    assert steps["Заказано (привел или помог бот)"]["of_shown"] == 37.5

    year = await ConsoleService(Database(seeded.sessions), make_settings()).overview(window(365))
    assert year["sales"]["led"] == 13000  # the order 40 days ago is inside a year
    assert year["sales"]["cost_per_sale"] is None  # no price: no cost is claimed


async def test_an_order_cancelled_changed_or_arriving_late_changes_the_days_already_shown(
    seeded: Runtime,
) -> None:
    a, _ = await shop_week(seeded)
    console = ConsoleService(Database(seeded.sessions), make_settings())
    before = (await console.overview(window(30)))["series"]
    assert (before[-1]["led"], before[-2]["assisted"]) == (3000, 2700)
    async with seeded.engine.begin() as conn:  # what a later import does to earlier days
        await conn.execute(text("UPDATE orders SET status = 'cancelled' WHERE order_id = 'O-2'"))
        await conn.execute(
            text("UPDATE order_lines SET attribution = 'led' WHERE order_id = 'O-4'")
        )
    await place_order(
        seeded, "O-6", datetime.now(UTC) - timedelta(days=3), [Line(a, 1, Decimal("700"), "led")]
    )
    after = (await console.overview(window(30)))["series"]
    assert (after[-1]["led"], after[-1]["sales"]) == (4500, 2)  # O-4's line now led
    assert after[-2]["assisted"] == 0 and after[-2]["sales"] == 0  # O-2 cancelled
    assert after[-4]["led"] == 700  # O-6 placed three days ago, imported now
    async with seeded.engine.begin() as conn:
        await conn.execute(text("TRUNCATE orders CASCADE"))
    emptied = await console.overview(window(30))
    assert emptied["sales"]["revenue"] == 0


async def test_no_sales_leave_nothing_to_divide_by(seeded: Runtime) -> None:
    data = await ConsoleService(Database(seeded.sessions), make_settings()).overview(window(7))
    sales = data["sales"]
    assert (sales["revenue"], sales["sales"], sales["per_conversation"]) == (0, 0, None)
    assert [r["of_previous"] for r in data["funnel"]] == [None, None, None, None]


async def test_the_wines_view_counts_each_wines_orders_and_revenue(seeded: Runtime) -> None:
    a, b = await shop_week(seeded)
    async with seeded.engine.connect() as conn:
        names = dict((await conn.execute(text("SELECT id, name FROM wines"))).all())
    data = await ConsoleService(Database(seeded.sessions), make_settings()).wines(window(30))
    rows = {r["wine"]: r for r in data["shown"]}
    assert (rows[names[a]]["orders"], rows[names[a]]["led"], rows[names[a]]["assisted"]) == (
        1,
        3000,
        0,
    )
    assert (rows[names[b]]["orders"], rows[names[b]]["led"], rows[names[b]]["assisted"]) == (
        2,
        0,
        3700,
    )


def _samples(body: str) -> dict[str, float]:
    return {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in body.splitlines()
        if line and not line.startswith("#")
    }


async def test_pages_csv_metrics_and_the_digest_show_the_sales(seeded: Runtime) -> None:
    await shop_week(seeded)
    bearer = {"Authorization": "Bearer t"}
    async with console_stack(seeded, api_token="t", llm_price_per_1k_tokens="2.5") as stack:
        base = stack.base
        status, page, _ = await http_get(f"{base}/console/overview", headers=bearer)
        days = csv_rows(
            (await http_get(f"{base}/console/overview.csv?table=days", headers=bearer))[1]
        )
        funnel = csv_rows(
            (await http_get(f"{base}/console/overview.csv?table=funnel", headers=bearer))[1]
        )
        wines = csv_rows(
            (await http_get(f"{base}/console/wines.csv?table=shown", headers=bearer))[1]
        )
        metrics = (await http_get(f"{base}/metrics", headers=bearer))[1]
        digest = await stack.bot.services.digest.compose()
    assert status == 200
    assert (
        'id="kpi-led">3\u00a0000\u00a0₽' in page and 'id="kpi-assisted">3\u00a0700\u00a0₽' in page
    )
    assert 'id="kpi-cost-per-sale">5\u00a0₽' in page and 'id="chart-sales"' in page
    header, today = days[0], days[1]  # newest day first
    assert header[-3:] == ["Выручка: привел бот, ₽", "Выручка: помог бот, ₽", "Продаж с ботом"]
    assert today[-3:] == ["3000", "1000", "1"]  # numbers, as a spreadsheet sums them
    assert [r[1] for r in funnel[1:]] == ["8", "1", "1", "3"]
    assert wines[0][-3:] == ["Заказов с ботом", "Выручка: привел бот, ₽", "Выручка: помог бот, ₽"]
    assert ["1", "3000", "0"] in [r[-3:] for r in wines[1:]]
    samples = _samples(metrics)
    assert samples['sommelier_sales_revenue_rub{attribution="led"}'] == 3000
    assert samples['sommelier_sales_revenue_rub{attribution="assisted"}'] == 3700
    assert samples["sommelier_sales_orders"] == 2
    assert "Продажи с ботом: привел 3\u00a0000\u00a0₽, помог 3\u00a0700\u00a0₽ (продаж: 2)" in (
        digest.caption
    )
