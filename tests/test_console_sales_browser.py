"""The console's sales in a real browser (Debian's Chromium driven by Selenium): a customer
talks to the bot through the fake Bot API, likes a wine and follows «Купить» on another; the
shop's order then holds the clicked wine (led) and the liked one (assisted), and a cancelled
order more. The admin's one-time link opens the Overview: led and assisted revenue, the sales
chart, the funnel from shown to ordered; the Wines view: the wine's orders and revenue; the
funnel's CSV downloads with its numbers."""

from __future__ import annotations

import asyncio
import csv
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from sqlalchemy import text

from services.app.runtime import Runtime
from tests.browser import chromium, screenshot
from tests.console_harness import CUSTOMER, console_link, console_stack, converse
from tests.sales_fixtures import Line, place_order
from tests.test_console_browser import _wait

NBSP = "\u00a0"  # in the page; a browser's visible text gives plain spaces


def _table(driver: WebDriver, name: str) -> list[list[str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, f"#table-{name} tbody tr")
    return [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in rows]


def _browse(link: str, downloads: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    with chromium(downloads=downloads) as driver:
        driver.get(link)
        _wait(lambda: driver.find_elements(By.ID, "view-overview"))
        seen["kpis"] = {
            dd.get_attribute("id"): dd.text.replace(NBSP, " ")
            for dd in driver.find_elements(By.CSS_SELECTOR, "#sales dd[id]")
        }
        seen["sales_bars"] = [
            float(r.get_attribute("height") or 0)
            for r in driver.find_elements(By.CSS_SELECTOR, "#chart-sales rect.bar")
        ]
        seen["funnel"] = _table(driver, "funnel")
        driver.execute_script("document.getElementById('chart-sales').scrollIntoView()")
        screenshot(driver, "console-sales-overview")
        driver.find_element(By.CSS_SELECTOR, "#table-funnel a.csv").click()
        seen["csv"] = _wait(lambda: [p for p in downloads.glob("*funnel*.csv") if p.stat().st_size])
        driver.find_element(By.CSS_SELECTOR, 'nav a[href^="/console/wines?"]').click()
        _wait(lambda: driver.find_elements(By.ID, "view-wines"))
        headers = driver.find_elements(By.CSS_SELECTOR, "#table-shown thead th")
        seen["wine_columns"] = [h.text for h in headers]
        seen["wines"] = _table(driver, "shown")
        screenshot(driver, "console-sales-wines")
    return seen


async def test_an_owner_sees_led_and_assisted_revenue_and_the_funnel_in_a_browser(
    seeded: Runtime, tmp_path: Path
) -> None:
    async with console_stack(seeded) as stack:
        done = await converse(stack)  # a 👍 on one wine, «Купить» followed on another
        now = datetime.now(UTC)
        await place_order(
            seeded,
            "S-1",
            now,
            [
                Line(done.bought, 2, Decimal("1500"), "led", CUSTOMER),
                Line(done.liked, 1, Decimal("900"), "assisted", CUSTOMER),
            ],
        )
        await place_order(
            seeded, "S-2", now, [Line(done.bought, 9, Decimal("1500"), "led")], status="cancelled"
        )
        async with seeded.engine.connect() as conn:
            bought = await conn.scalar(
                text("SELECT name FROM wines WHERE id = :w"), {"w": done.bought}
            )
        link = await console_link(stack)
        seen = await asyncio.to_thread(_browse, link, tmp_path)
    kpis = seen["kpis"]
    assert kpis["kpi-led"] == "3 000 ₽"  # the cancelled order counts nothing
    assert kpis["kpi-assisted"] == "900 ₽"
    assert kpis["kpi-sales"] == "1"
    assert kpis["kpi-per-conversation"] == "3 900 ₽"  # one person, one day
    assert "kpi-cost-per-sale" not in kpis  # no price per token: no cost claimed
    assert sum(1 for h in seen["sales_bars"] if h > 0) == 1  # today's bar, the rest empty
    steps = [row[0].strip() for row in seen["funnel"]]
    assert steps == ["Показано вин", "Нравится", "«Купить»", "Заказано (привел или помог бот)"]
    counts = [row[1] for row in seen["funnel"]]
    assert int(counts[0]) >= 3 and counts[1:] == ["1", "1", "2"]
    (download,) = seen["csv"]
    with download.open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0][:2] == ["Шаг", "Сколько"] and [r[1] for r in rows[2:]] == ["1", "1", "2"]
    columns = seen["wine_columns"]
    row = next(r for r in seen["wines"] if r[0].strip() == bought)
    by_column = dict(zip(columns, row, strict=True))
    assert by_column["Заказов с ботом"] == "1"
    assert by_column["Выручка: привел бот, ₽"] == "3000"
