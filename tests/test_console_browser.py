"""The console in a real browser (Debian's Chromium driven by Selenium): a conversation through
the fake Bot API — a request the catalog satisfies, one it cannot, a 👍 and a «Купить» click
through the redirect — and a feed the shop loads; then the admin's one-time link opens every
view with its charts and tables (the Catalog view counts the feed's wines and lists the load),
the period changes, a CSV downloads; without a valid link nothing opens. A customer's words and
a feed's names written as markup show as text, no element made of them.

Selenium blocks, and the bot and its HTTP server run on this test's event loop: the browser is
driven from a thread."""

from __future__ import annotations

import asyncio
import csv
import time
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from sqlalchemy import text

from services.app.runtime import Runtime
from tests.bot_helpers import adult, ask
from tests.browser import chromium, screenshot
from tests.catalog_feeds import yml_feed
from tests.console_harness import CUSTOMER, UNMET, console_link, console_stack, converse

VIEWS = ("overview", "demand", "unmet", "wines", "catalog")


def _wait(what: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the browser did not get there in time")


def _view(driver: WebDriver, name: str) -> dict[str, Any]:
    main = _wait(lambda: driver.find_elements(By.ID, f"view-{name}"))[0]
    bars = [
        r
        for r in driver.find_elements(By.CSS_SELECTOR, "svg rect.bar, svg.hbar rect")
        if float(r.get_attribute("height") or 0) > 0 and float(r.get_attribute("width") or 0) > 0
    ]
    rows = driver.find_elements(By.CSS_SELECTOR, "table tbody tr")
    kpis = {dd.get_attribute("id"): dd.text for dd in main.find_elements(By.CSS_SELECTOR, "dd[id]")}
    screenshot(driver, f"console-{name}")
    return {
        "text": main.text,
        "bars": len(bars),
        "rows": len(rows),
        "url": driver.current_url,
        "kpis": kpis,
        # The cells of a short table (the catalog's loads): what the owner reads in it.
        "cells": [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in rows[:3]],
    }


def _browse(link: str, base: str, downloads: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    with chromium(downloads=downloads) as driver:
        driver.get(f"{base}/console/overview")  # no link yet: refused
        seen["before"] = _wait(lambda: driver.find_elements(By.ID, "refused")) and driver.title
        driver.get(link)
        for name in VIEWS:
            if name != "overview":
                driver.find_element(By.CSS_SELECTOR, f'nav a[href^="/console/{name}?"]').click()
            seen[name] = _view(driver, name)
        driver.find_element(By.CSS_SELECTOR, 'nav a[href^="/console/unmet?"]').click()
        _wait(lambda: driver.find_elements(By.ID, "view-unmet"))
        driver.find_element(By.ID, "period-7").click()
        _wait(lambda: driver.find_elements(By.CSS_SELECTOR, 'main[data-days="7"]'))
        seen["period"] = _view(driver, "unmet")
        driver.find_element(By.CSS_SELECTOR, "#table-requests a.csv").click()
        seen["csv"] = _wait(lambda: [p for p in downloads.glob("*.csv") if p.stat().st_size])
        driver.delete_all_cookies()
        driver.get(f"{base}/console/wines")
        seen["after_cookies"] = bool(driver.find_elements(By.ID, "refused"))
    with chromium() as other:  # the link is used: a second browser gets nothing
        other.get(link)
        seen["reused"] = bool(_wait(lambda: other.find_elements(By.ID, "refused")))
    return seen


async def test_the_console_in_a_real_browser(seeded: Runtime, tmp_path: Path) -> None:
    async with console_stack(seeded) as stack:
        done = await converse(stack)
        # The shop loads its feed: the Catalog view lists the load and counts the new wines.
        feed = await stack.bot.services.catalog_admin.import_catalog("feed.xml", data=yml_feed())
        async with seeded.engine.connect() as conn:
            in_catalog = await conn.scalar(text("SELECT count(*) FROM wines"))
        link = await console_link(stack)
        seen = await asyncio.to_thread(_browse, link, stack.base, tmp_path)
    assert seen["before"]
    overview = seen["overview"]
    assert overview["bars"] >= 2 and overview["rows"] >= 2  # answers per day, paths, days
    assert "offline" in overview["text"]
    assert seen["demand"]["rows"] >= 4 and "красное сухое" in seen["demand"]["text"]
    assert "пино нуар" in seen["unmet"]["text"]
    wines = seen["wines"]["text"]
    assert seen["wines"]["rows"] >= 5 and "«Купить»" in wines
    assert feed.inserted and in_catalog == 82 + feed.inserted  # the demo catalog and the feed's
    catalog = seen["catalog"]
    assert catalog["kpis"]["kpi-wines"] == str(in_catalog)
    (load,) = catalog["cells"]  # one load: the feed's
    assert load[1:5] == ["feed.xml", str(feed.rows), str(feed.inserted), str(feed.updated)]
    assert "days=7" in seen["period"]["url"] and "пино нуар" in seen["period"]["text"]
    (download,) = seen["csv"]
    with download.open(encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "Что просили" and any("пино нуар" in r[0] for r in rows[1:])
    assert any(UNMET in r[-1] for r in rows[1:])  # how it was asked
    assert seen["after_cookies"] and seen["reused"]
    assert done.shop_page


# A customer's words and a feed's names, written to become markup if they were not escaped.
HOSTILE = '<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">'
INJECTED = """
const elements = document.querySelectorAll('script, img, iframe, object, embed').length;
const handlers = [...document.querySelectorAll('*')]
  .filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length;
return {elements, handlers, pwned: window.__pwned === undefined ? null : window.__pwned,
        text: document.querySelector('main').textContent};
"""


def _hostile_views(link: str, base: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    with chromium() as driver:
        driver.get(link)
        for name in ("unmet", "wines", "catalog"):
            driver.get(f"{base}/console/{name}?days=7")
            _wait(lambda n=name: driver.find_elements(By.ID, f"view-{n}"))
            seen[name] = driver.execute_script(INJECTED)
            screenshot(driver, f"console-hostile-{name}")
    return seen


async def test_hostile_words_and_feed_names_show_as_text_in_the_console(
    seeded: Runtime, tmp_path: Path
) -> None:
    async with seeded.sessions() as s:
        await s.execute(
            text(
                "UPDATE wines SET name = :hostile || ' Шато', producer = :hostile "
                "WHERE id = (SELECT id FROM wines ORDER BY price_rub DESC LIMIT 1)"
            ),
            {"hostile": HOSTILE},
        )
        await s.commit()
    feed = tmp_path / '<img src=x onerror="window.__pwned=3">.json'
    feed.write_text(
        '[{"id": "F-1", "name": "Тест Шираз", "country": "Австралия", "wine_type": "красное", '
        '"sweetness": "сухое", "price": 1500}]'
    )
    async with console_stack(seeded) as stack:
        await adult(stack.bot, CUSTOMER)
        await ask(stack.bot, CUSTOMER, f"{HOSTILE} {UNMET}")
        await stack.bot.services.catalog_admin.import_catalog(str(feed))
        link = await console_link(stack)
        seen = await asyncio.to_thread(_hostile_views, link, stack.base)
    for name, page in seen.items():
        assert (page["elements"], page["handlers"], page["pwned"]) == (0, 0, None), (name, page)
    assert f"{HOSTILE} {UNMET}" in seen["unmet"]["text"]  # the words, as they were written
    assert f"{HOSTILE} Шато" in seen["wines"]["text"]
    assert feed.name in seen["catalog"]["text"]
