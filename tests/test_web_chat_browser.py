"""The web chat in a real browser (Debian's Chromium, driven by Selenium): on /chat at desktop
width, and through the widget on a shop's page (another origin, listed in WEB_ORIGINS) at phone
width — 18+ by keyboard, «белое к рыбе до 1500» streamed (the text grows before the cards),
«а подешевле», 👍, «Купить», «Новый разговор» and the product page's «что-то похожее, но
дешевле». A site not in WEB_ORIGINS can neither load the widget, frame the chat nor call it;
one that hides its referrer gets widget.js, but the chat's frame-ancestors leave its frame empty.

The fake model writes at a fixed pace (50 ms per 20 characters); the time from its first token
to the first text in the browser is written to test-artefacts/web-chat-latency.json (the
figure in BENCHMARKS.md), not asserted: a shared CI machine's clock is no bar."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from aiohttp import web
from selenium.webdriver import ActionChains, Chrome
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from sqlalchemy import text

from fakes.openai_server import FakeOpenAIServer, ReplyStep, Step, reply
from services.app.runtime import Runtime
from tests.agent_fixtures import agent_settings
from tests.browser import ARTEFACTS, DESKTOP, PHONE, chromium, screenshot
from tests.serving import serving
from tests.web_chat_harness import LONG_INTRO, serving_chat, sommelier_model

pytestmark = pytest.mark.slow

CHUNK_DELAY = 0.05
PAGE = """<!doctype html><html lang="ru"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title></head>
<body><h1>{title}</h1><p>Страница вина в магазине.</p>{extra}
<script src="{chat}/chat/widget.js" data-product-id="SKU-77"{attrs} async></script></body></html>"""

# Records, as the page changes, how long the last answer's text is and how many cards it has.
RECORDER = """
window.__seen = [];
const log = document.getElementById('log');
new MutationObserver(() => {
  const answers = log.querySelectorAll('.msg--bot');
  const last = answers[answers.length - 1];
  if (!last) return;
  window.__seen.push({t: Date.now(), n: answers.length,
    text: last.querySelector('.answer-text').textContent.length,
    cards: last.querySelectorAll('.card').length});
}).observe(log, {subtree: true, childList: true, characterData: true});
"""


def site_app(chat: dict[str, str], title: str, extra: str = "", attrs: str = "") -> web.Application:
    async def page(request: web.Request) -> web.Response:
        base = chat["base"]
        body = PAGE.format(title=title, chat=base, extra=extra.format(chat=base), attrs=attrs)
        return web.Response(text=body, content_type="text/html")

    async def product(request: web.Request) -> web.Response:
        return web.Response(
            text=f"<p>Товар {request.match_info['slug']}</p>", content_type="text/html"
        )

    app = web.Application()
    app.router.add_get("/wine", page)
    app.router.add_get("/product/{slug}", product)
    return app


def until(driver: Chrome, condition: Callable[[Chrome], Any], timeout: float = 30) -> Any:
    return WebDriverWait(driver, timeout).until(condition)


def tab_to(driver: Chrome, element_id: str, limit: int = 20) -> None:
    """Move the focus with Tab alone until it is on the element."""
    for _ in range(limit):
        if driver.switch_to.active_element.get_attribute("id") == element_id:
            return
        ActionChains(driver).send_keys(Keys.TAB).perform()
    raise AssertionError(f"Tab never reached #{element_id}")


def cards_of_answer(driver: Chrome, index: int) -> list[dict[str, Any]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('.msg--bot')[arguments[0]]"
        ".querySelectorAll('.card')].map(c => ({id: c.dataset.wineId, type: c.dataset.wineType,"
        " price: Number(c.dataset.price)}));",
        index,
    )


def ask(driver: Chrome, question: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Type the question into the focused box and press Enter; the answer's cards, and what the
    recorder saw of it."""
    before = len(driver.find_elements(By.CSS_SELECTOR, ".msg--bot"))
    driver.execute_script("window.__seen = window.__seen || []; window.__seen.length = 0;")
    assert driver.switch_to.active_element.get_attribute("id") == "question"
    driver.switch_to.active_element.send_keys(question, Keys.ENTER)
    until(
        driver,
        lambda d: (
            len(d.find_elements(By.CSS_SELECTOR, ".msg--bot")) == before + 1
            and not d.find_elements(By.CSS_SELECTOR, ".msg--bot[aria-busy]")
        ),
    )
    seen = driver.execute_script("return window.__seen")
    return cards_of_answer(driver, before), [s for s in seen if s["n"] == before + 1]


def check_streamed(seen: list[dict[str, Any]]) -> float:
    """The text grew (at least twice) before any card came; returns when text first showed."""
    before_cards = [s["text"] for s in seen if s["cards"] == 0 and s["text"] > 0]
    assert len(set(before_cards)) >= 2, seen
    assert any(s["cards"] > 0 for s in seen), seen
    return next(s["t"] for s in seen if s["text"] > 0) / 1000


def converse(driver: Chrome, name: str, shop: str) -> dict[str, Any]:
    until(driver, lambda d: d.find_element(By.ID, "age-yes").is_displayed())
    tab_to(driver, "age-yes")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    until(driver, lambda d: d.switch_to.active_element.get_attribute("id") == "question")
    driver.execute_script(RECORDER)

    first, seen = ask(driver, "белое к рыбе до 1500")
    first_text_at = check_streamed(seen)
    assert len(first) in range(1, 4), first  # 1–3 cards
    assert all(c["type"] == "white" and c["price"] <= 1500 for c in first), first
    screenshot(driver, f"web-chat-{name}-answer")

    cheaper, seen = ask(driver, "а подешевле")
    cheaper_text_at = check_streamed(seen)
    assert cheaper and all(c["price"] < min(f["price"] for f in first) for c in cheaper), cheaper
    card = driver.find_elements(By.CSS_SELECTOR, ".msg--bot")[-1].find_element(
        By.CSS_SELECTOR, ".card"
    )
    like = card.find_element(By.CSS_SELECTOR, "button[aria-label^='Нравится']")
    like.send_keys(Keys.ENTER)
    until(driver, lambda d: like.get_attribute("aria-pressed") == "true")

    buy = card.find_element(By.CSS_SELECTOR, "a.chip--buy")
    href, liked = buy.get_attribute("href"), card.get_attribute("data-wine-id")
    assert href.startswith(f"{shop}/product/")
    here, handles = driver.current_window_handle, set(driver.window_handles)
    buy.send_keys(Keys.ENTER)
    until(driver, lambda d: len(d.window_handles) == len(handles) + 1)
    driver.switch_to.window((set(driver.window_handles) - handles).pop())
    until(driver, lambda d: "Товар" in d.find_element(By.TAG_NAME, "body").text)
    assert driver.current_url == href
    driver.close()
    driver.switch_to.window(here)
    screenshot(driver, f"web-chat-{name}-cheaper")
    return {
        "text_at": [first_text_at, cheaper_text_at],
        "liked": liked,
    }


def desktop_chat(base: str, shop: str) -> dict[str, Any]:
    with chromium(DESKTOP) as driver:
        driver.get(f"{base}/chat")
        return converse(driver, "desktop", shop)


def phone_widget(shop: str, viewed_price: float) -> dict[str, Any]:
    with chromium(PHONE) as driver:
        # Headless Chromium keeps windows at least 500 px wide: emulate the phone's screen.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True},
        )
        driver.get(f"{shop}/wine")
        until(driver, lambda d: d.find_elements(By.ID, "sommelier-open"))
        tab_to(driver, "sommelier-open")
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        frame = until(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#sommelier-panel iframe"))
        assert frame.is_displayed() and frame.size["width"] == PHONE[0]  # the whole phone screen
        driver.switch_to.frame(frame)
        result = converse(driver, "phone-widget", shop)
        driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "#sommelier-panel iframe"))
        # A new conversation on the product page: «похожее, но дешевле» means this wine.
        driver.find_element(By.ID, "new-chat").send_keys(Keys.ENTER)
        until(driver, lambda d: "Начинаем новый разговор" in d.find_element(By.ID, "log").text)
        driver.find_element(By.ID, "question").click()
        similar, _ = ask(driver, "что-то похожее, но дешевле")
        assert similar and all(c["type"] == "red" and c["price"] < viewed_price for c in similar)
        screenshot(driver, "web-chat-phone-widget-product")
        return result


def other_site(base: str, evil: str) -> dict[str, Any]:
    with chromium(DESKTOP) as driver:
        driver.get(f"{evil}/wine")
        until(driver, lambda d: d.execute_script("return document.readyState") == "complete")
        assert not driver.find_elements(By.ID, "sommelier-open")  # widget.js was refused
        driver.switch_to.frame(driver.find_element(By.ID, "direct"))
        assert not driver.find_elements(By.ID, "chat")  # frame-ancestors: the frame stays empty
        driver.switch_to.default_content()
        outcome = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0], {method: 'POST', credentials: 'include',"
            " headers: {'Content-Type': 'application/json'}, body: '{\"text\": \"белое\"}'})"
            ".then(r => done('read ' + r.status), e => done('refused: ' + e));",
            f"{base}/chat/api/message",
        )
        assert outcome.startswith("refused"), outcome
        screenshot(driver, "web-chat-other-site")
        return {"fetch": outcome}


def referrer_hidden(base: str, hidden: str) -> dict[str, Any]:
    """A site not in WEB_ORIGINS that loads widget.js with `referrerpolicy="no-referrer"`: with
    neither Origin nor Referer the script is served, and the panel opens — but the chat's
    frame-ancestors keep the chat out of the frame."""
    with chromium(DESKTOP) as driver:
        driver.get(f"{hidden}/wine")
        until(driver, lambda d: d.find_elements(By.ID, "sommelier-open"))  # the script came
        frame = driver.find_element(By.CSS_SELECTOR, "#sommelier-panel iframe")
        driver.find_element(By.ID, "sommelier-open").click()
        until(driver, lambda d: frame.get_attribute("src"))
        driver.switch_to.frame(frame)
        # Wait until the frame's navigation has ended (not the blank frame before it).
        landed = until(
            driver,
            lambda d: d.execute_script(
                "return document.readyState === 'complete' && location.href !== 'about:blank'"
                " && location.href"
            ),
        )
        seen = {
            "landed": landed,
            "chat": len(driver.find_elements(By.CSS_SELECTOR, "#chat, #question, #age-yes")),
        }
        driver.switch_to.default_content()
        screenshot(driver, "web-chat-referrer-hidden")
        return seen


async def test_the_web_chat_and_the_widget_in_a_browser(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.model_responders["gpt-4o-mini"] = sommelier_model
    server.chunk_delay = CHUNK_DELAY
    chat: dict[str, str] = {}
    direct = '<iframe id="direct" title="чат" src="{chat}/chat?embed=1"></iframe>'
    async with (
        serving(site_app(chat, "Магазин вина")) as shop,
        serving(site_app(chat, "Чужой сайт", direct)) as evil,
        serving(site_app(chat, "Чужой сайт", attrs=' referrerpolicy="no-referrer"')) as hidden,
    ):
        async with seeded.sessions() as s:
            await s.execute(
                text("UPDATE wines SET url = :shop || '/product/' || slug"), {"shop": shop}
            )
            viewed = await s.scalar(
                text(
                    "UPDATE wines SET external_id = 'SKU-77' WHERE id = (SELECT id FROM wines "
                    "WHERE wine_type = 'red' AND price_rub BETWEEN 2000 AND 4000 "
                    "ORDER BY price_rub DESC LIMIT 1) RETURNING price_rub"
                )
            )
            await s.commit()
        settings = agent_settings(server.base_url, web_origins=shop, llm_timeout_seconds=15)
        async with serving_chat(seeded, settings) as site:
            chat["base"] = site.base
            desktop = await asyncio.to_thread(desktop_chat, site.base, shop)
            phone = await asyncio.to_thread(phone_widget, shop, float(viewed))
            refused = await asyncio.to_thread(other_site, site.base, evil)
            blank = await asyncio.to_thread(referrer_hidden, site.base, hidden)
            answers = await site.services.health.stats()
    async with seeded.sessions() as s:
        liked = await s.scalar(text("SELECT count(*) FROM feedback WHERE vote = 1 AND user_id < 0"))
    assert blank["chat"] == 0 and not blank["landed"].startswith(site.base), blank
    assert liked == 2  # one 👍 from each browser, stored for its visitor
    assert sum(answers.answers_by_path.values()) == 5  # the other site never reached it
    firsts = server.first_content_at
    shown = desktop["text_at"] + phone["text_at"]
    latencies = [round((seen - sent) * 1000) for seen, sent in zip(shown, firsts, strict=False)]
    ARTEFACTS.mkdir(exist_ok=True)
    report = {
        "chunk_delay_ms": CHUNK_DELAY * 1000,
        "first_sentence_written_ms": 2 * CHUNK_DELAY * 1000,
        "first_text_after_first_token_ms": latencies,
        "other_site": refused["fetch"],
    }
    (ARTEFACTS / "web-chat-latency.json").write_text(json.dumps(report, indent=1))
    print(report)


HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'


def hostile_model(body: dict[str, Any]) -> Step:
    """The sommelier, writing markup and script links into its intro."""
    step = sommelier_model(body)
    if isinstance(step, ReplyStep) and LONG_INTRO in step.content:
        intro = f"Вот <b>что</b> я нашел {HOSTILE} [тут](javascript:window.__pwned=3)."
        return reply(step.content.replace(LONG_INTRO, intro))
    return step


def hostile_page(base: str) -> dict[str, Any]:
    with chromium(DESKTOP) as driver:
        driver.get(f"{base}/chat")
        until(driver, lambda d: d.find_element(By.ID, "age-yes").is_displayed())
        driver.find_element(By.ID, "age-yes").click()
        until(driver, lambda d: d.find_element(By.ID, "question").is_displayed())
        driver.find_element(By.ID, "question").click()
        cards, _ = ask(driver, "белое к рыбе до 1500")
        screenshot(driver, "web-chat-hostile")
        return driver.execute_script(
            "const log = document.getElementById('log');"
            "return {pwned: window.__pwned === undefined ? null : window.__pwned,"
            " elements: log.querySelectorAll('script, img, iframe, b, a').length,"
            " intro: log.querySelector('.msg--bot .answer-text').textContent,"
            " names: [...log.querySelectorAll('.card__name')].map(n => n.textContent),"
            " overflow: document.documentElement.scrollWidth - window.innerWidth,"
            " cards: arguments[0].length};",
            cards,
        )


async def test_hostile_catalog_rows_and_model_output_stay_text_in_the_browser(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.model_responders["gpt-4o-mini"] = hostile_model
    async with seeded.sessions() as s:
        await s.execute(
            text(
                "UPDATE wines SET name = :name, description = :name, "
                "url = 'javascript:window.__pwned=4', image_url = 'javascript:window.__pwned=5' "
                "WHERE wine_type = 'white' AND price_rub <= 1500"
            ),
            {"name": HOSTILE + "Щ" * 150},
        )
        await s.commit()
    settings = agent_settings(server.base_url, llm_timeout_seconds=15)
    async with serving_chat(seeded, settings) as site:
        seen = await asyncio.to_thread(hostile_page, site.base)
    assert seen["pwned"] is None and seen["elements"] == 0, seen  # nothing ran or was built
    assert seen["cards"] >= 1 and all(name.startswith(HOSTILE) for name in seen["names"]), seen
    assert "<b>что</b>" in seen["intro"], seen  # the model's markup shown as the text it is
    assert seen["overflow"] <= 0, seen  # a long unbroken name wraps inside its card
