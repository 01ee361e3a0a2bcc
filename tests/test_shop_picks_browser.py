"""The console's «Выбор магазина» page in a real browser (Debian's Chromium driven by Selenium):
after a conversation through the fake Bot API (a 👍 and a «Купить» click), the admin adds a
boost rule for the second wine shown (the one clicked), sees it listed and the comparison count
its show and click; a bad
rule is refused with the reason and the form kept; the next customer's card of that wine says
«Выбор магазина»; the rule is deleted. A form posted without the console's login is refused.

Selenium blocks, and the bot and its HTTP server run on this test's event loop: the browser is
driven from a thread."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import aiohttp
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from services.app.runtime import Runtime
from tests.bot_helpers import adult, ask, card_wine_id, cards, wines_by_id
from tests.browser import chromium, screenshot
from tests.console_harness import console_link, console_stack, converse

NEXT_CUSTOMER = 727002


def _wait(what: Any, timeout: float = 15.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("the browser did not get there in time")


def _rows(driver: WebDriver, table: str) -> list[list[str]]:
    return [
        [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        for tr in driver.find_elements(By.CSS_SELECTOR, f"{table} tbody tr")
    ]


def _fill(driver: WebDriver, action: str, field: str, value: str, note: str = "") -> None:
    Select(driver.find_element(By.ID, "rule-action")).select_by_value(action)
    Select(driver.find_element(By.ID, "rule-field")).select_by_value(field)
    for name, text in (("rule-value", value), ("rule-note", note)):
        box = driver.find_element(By.ID, name)
        box.clear()
        box.send_keys(text)
    driver.find_element(By.ID, "rule-add").click()


def _add_rule(link: str, wine: uuid.UUID) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    with chromium() as driver:
        driver.get(link)
        driver.find_element(By.CSS_SELECTOR, 'nav a[href^="/console/rules?"]').click()
        _wait(lambda: driver.find_elements(By.ID, "view-rules"))
        seen["empty"] = bool(driver.find_elements(By.ID, "no-rules"))
        _fill(driver, "boost", "wine", str(wine), "Вино недели")
        _wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#rules tbody tr"))
        seen["rules"] = _rows(driver, "#rules")
        seen["groups"] = _rows(driver, "#table-groups")
        seen["per_rule"] = _rows(driver, "#table-rules")
        screenshot(driver, "console-rules")
        _fill(driver, "bury", "margin", "много")
        seen["error"] = _wait(lambda: driver.find_elements(By.ID, "rule-error"))[0].text
        seen["kept"] = driver.find_element(By.ID, "rule-value").get_attribute("value")
        seen["rules_after_error"] = len(_rows(driver, "#rules"))
    return seen


def _delete_rule(link: str) -> bool:
    with chromium() as driver:
        driver.get(link)
        driver.get(link.split("/console/")[0] + "/console/rules")
        _wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#rules tbody tr"))
        driver.find_element(By.CSS_SELECTOR, "#rules button.delete").click()
        return bool(_wait(lambda: driver.find_elements(By.ID, "no-rules")))


async def test_the_shop_picks_page_in_a_real_browser(seeded: Runtime) -> None:
    async with console_stack(seeded) as stack:
        done = await converse(stack)
        seen = await asyncio.to_thread(_add_rule, await console_link(stack), done.bought)

        await adult(stack.bot, NEXT_CUSTOMER)
        shown = cards(await ask(stack.bot, NEXT_CUSTOMER, "красное сухое к стейку до 2000"))
        marked = {card_wine_id(c): "Выбор магазина" in str(c.params) for c in shown}

        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{stack.base}/console/rules", data={"action": "boost"}) as forged,
        ):
            forged_status = forged.status
        deleted = await asyncio.to_thread(_delete_rule, await console_link(stack))

    assert seen["empty"]
    ((action, field, value, *_rest),) = seen["rules"]
    value, wine_name = value.splitlines()  # the id typed, and the wine it names
    assert (action, field, value) == ("Поднять", "Вино", str(done.bought))
    assert wine_name == (await wines_by_id(seeded, [done.bought]))[done.bought].name
    assert "Вино недели" in seen["rules"][0]
    boosted, _buried, _others = seen["groups"]
    assert boosted[0] == "Поднятые" and boosted[1] == "1"  # one wine
    assert int(boosted[2]) >= 1 and boosted[5] == "1"  # shown, and the click it got
    assert boosted[7] == "0"  # no orders imported
    assert seen["per_rule"][0][0] == f"Поднять: Вино = {done.bought}"
    assert "margin" in seen["error"] and seen["kept"] == "много"
    assert seen["rules_after_error"] == 1
    # The boosted wine (second before) leads now, and its card alone says so.
    assert next(iter(marked)) == done.bought and marked[done.bought] is True
    assert not any(v for k, v in marked.items() if k != done.bought)
    assert forged_status == 403
    assert deleted


async def test_a_rule_form_needs_its_token_and_the_pages_origin(seeded: Runtime) -> None:
    form = {"action": "boost", "field": "country", "value": "Италия"}
    async with console_stack(seeded, api_token="console-secret") as stack:
        base = stack.base
        link = await console_link(stack)
        jar = aiohttp.CookieJar(unsafe=True)  # keeps the cookies of 127.0.0.1 too
        async with aiohttp.ClientSession(cookie_jar=jar) as http:
            async with http.get(link):
                pass  # the login cookie
            async with http.get(f"{base}/console/rules") as opened:
                page = await opened.text()
            token = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
            statuses = []
            for extra, headers in (
                ({}, {}),  # the login alone: refused
                ({"csrf": "forged"}, {}),
                ({"csrf": token}, {"Origin": "https://elsewhere.example"}),
                ({"csrf": token}, {"Origin": base}),  # the page's own post
            ):
                async with http.post(
                    f"{base}/console/rules",
                    data=form | extra,
                    headers=headers,
                    allow_redirects=False,
                ) as r:
                    statuses.append(r.status)
        async with (
            aiohttp.ClientSession() as script,
            script.post(
                f"{base}/console/rules",
                data=form | {"action": "bury", "field": "tag", "value": "распродажа"},
                headers={"Authorization": "Bearer console-secret"},
                allow_redirects=False,
            ) as by_script,
        ):
            script_status = by_script.status
        rows = await stack.bot.services.shop_rules.rules()
    assert statuses == [403, 403, 403, 303]
    assert script_status == 303
    assert [(r.rule.action, r.rule.field, r.rule.value) for r in rows] == [
        ("boost", "country", "Италия"),
        ("bury", "tag", "распродажа"),
    ]
