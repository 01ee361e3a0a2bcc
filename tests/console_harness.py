"""The bot (polling, against the fake Bot API) with its HTTP server on a known port, so the
links it hands out (the console's one-time link, «Купить» through /go/) point at it; and a
conversation that leaves something on every console view."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web
from sqlalchemy import text

from services.app.runtime import Runtime
from sommelier.serve import build_served_app
from tests.bot_harness import ADMIN_ID, BotHarness, running_bot
from tests.bot_helpers import adult, ask, buttons, card_wine_id, cards, press, vote_data
from tests.serving import free_port

SHOP = "https://shop.example/wine/"
CUSTOMER = 727001
UNMET = "пино нуар до 500 рублей"  # the cheapest pinot noir costs more: a relaxed answer


@dataclass
class ConsoleStack:
    bot: BotHarness
    base: str


@contextlib.asynccontextmanager
async def console_stack(runtime: Runtime, **overrides: Any) -> AsyncIterator[ConsoleStack]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    values: dict[str, Any] = {"public_url": base}
    values.update(overrides)
    async with runtime.engine.begin() as conn:  # the shop's pages, as a feed would give them
        await conn.execute(text("UPDATE wines SET url = :shop || slug"), {"shop": SHOP})
    async with running_bot(runtime, **values) as h:
        app, _ = build_served_app(h.settings, h.services, api=False)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            yield ConsoleStack(h, base)
        finally:
            await runner.cleanup()


def buy_link(card: Any) -> str | None:
    for button in buttons(card):
        if button.get("text") == "Купить":
            return str(button["url"])
    return None


@dataclass
class Conversation:
    liked: Any  # the wine id of the card liked
    bought: Any  # the wine id whose «Купить» was followed
    shop_page: str  # where the redirect led


async def converse(stack: ConsoleStack, chat_id: int = CUSTOMER) -> Conversation:
    """A request the catalog satisfies, one it cannot, a 👍 and a «Купить» click."""
    h = stack.bot
    await adult(h, chat_id)
    first = cards(await ask(h, chat_id, "красное сухое к стейку до 2000"))
    assert first, "the bot showed no wines"
    cards(await ask(h, chat_id, UNMET))
    liked = card_wine_id(first[0])
    await press(h, chat_id, vote_data(liked, 1), first[0].message_id)
    await h.idle()
    link = buy_link(first[1])
    assert link is not None and link.startswith(f"{stack.base}/go/"), link
    async with (
        aiohttp.ClientSession() as http,
        http.get(link, allow_redirects=False) as response,
    ):
        assert response.status == 302
        location = response.headers["Location"]
    return Conversation(liked, card_wine_id(first[1]), location)


async def http_get(url: str, **kwargs: Any) -> tuple[int, str, dict[str, str]]:
    """Status, body and headers of a GET from a client with no cookies of its own."""
    async with aiohttp.ClientSession() as http, http.get(url, **kwargs) as r:
        return r.status, await r.text(), dict(r.headers)


def csv_rows(body: str) -> list[list[str]]:
    """A console CSV download as a spreadsheet reads it (the BOM dropped)."""
    return list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))


async def console_link(stack: ConsoleStack) -> str:
    """What an admin gets for /console: the one-time link."""
    h = stack.bot
    before = len(h.tg.sent(chat_id=ADMIN_ID))
    await h.say(ADMIN_ID, "/console")
    await h.idle()
    sent = [c for c in h.tg.sent(chat_id=ADMIN_ID)[before:] if c.method == "sendMessage"]
    assert sent, "the bot did not answer /console"
    found = re.search(r'href="([^"]+)"', str(sent[-1].params.get("text")))
    assert found, sent[-1].params
    return found.group(1).replace("&amp;", "&")
