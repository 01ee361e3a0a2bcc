"""«Сообщить, когда появится» and price drops (issue 43), over real `sommelier bot` processes,
the fake Bot API and the shop's feed synced as the bot syncs it:

- a person who asked for a wine the shop lacks (by name, or «Похожие» on one sold out since)
  presses «🔔 Сообщить»; the sync that brings it sends them one message with its card — once,
  with two replicas looking at the same moment;
- a ⭐ favourite watched for its price alerts once per drop of 10 % or more;
- /alerts lists and cancels; /forget removes the subscriptions;
- the console counts the alerts sent → opened → ordered (an order through the alert's «Купить»).

And a pass that dies between claiming and committing leaves every alert to the next one.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from aiohttp import web
from sqlalchemy import text

from bot.alert_schedule import render_alert
from fakes.openai_server import FakeOpenAIServer
from fakes.telegram_server import FakeTelegramServer, SentCall
from services.app.alerts.service import DueAlert
from services.app.catalog.sync import CatalogSync
from services.app.console.reports import window
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from services.app.sending.outbox import OutgoingMessage
from tests.bot_helpers import fake_llm
from tests.catalog_feeds import OFFERS, yml_feed
from tests.conftest import make_settings
from tests.serving import serving, with_settings
from tests.test_crash_recovery import BotProcess, bot_process, confirm_age, post_update
from tests.test_takeover import Model, replicas

SECRET = "alerts-test-web-secret"  # the same signing key for the bots and the test's services
FAST_PASSES = {
    "ALERT_CHECK_SECONDS": "0.3",
    "PUBLIC_URL": "https://bot.example",
    "WEB_SECRET": SECRET,
}
ASKED = "Бароло Монфорте"
BAROLO = {
    "id": "F-600",
    "available": "true",
    "name": f"Вино {ASKED} красное сухое",
    "vendor": "Монфорте",
    "url": "https://shop.example/wine/f-600",
    "price": "4500",
    "description": "Роза и деготь.",
    "country_of_origin": "Италия",
    "params": {"Цвет": "Красное", "Сахар": "Сухое", "Сорт винограда": "Неббиоло"},
}


def offers(
    *, riesling: bool = False, cabernet_price: str = "1990.00", barolo: bool = False
) -> list[dict[str, object]]:
    """The shop's feed: C-300 (Riesling) sold out unless `riesling`; Barolo only with `barolo`."""
    rows = [dict(o) for o in OFFERS if o["id"] != "E-500"]
    for row in rows:
        if row["id"] == "C-300":
            row["available"] = "true" if riesling else "false"
        if row["id"] == "A-100":
            row["price"] = cabernet_price
            row.pop("oldprice", None)
    return rows + ([BAROLO] if barolo else [])


class Shop:
    """The shop's feed on a local URL, synced the way the bot's schedule syncs it."""

    def __init__(self, services: Services, base: str) -> None:
        self.feed = yml_feed(offers())
        self.sync = CatalogSync(services.catalog_admin, f"{base}/feed.xml", 1)

    async def publish(self, **kwargs: Any) -> None:
        self.feed = yml_feed(offers(**kwargs))
        report = await self.sync.run_once(_nobody)
        assert report is not None


async def _nobody(message: str) -> None:
    raise AssertionError(f"the sync told the admins: {message}")


@asynccontextmanager
async def shop_and_services(runtime: Runtime) -> AsyncIterator[tuple[Shop, Services]]:
    settings = make_settings(public_url="https://bot.example", web_secret=SECRET)
    services = build_services(with_settings(runtime, settings))
    holder: list[Shop] = []

    async def feed(_: web.Request) -> web.Response:
        return web.Response(body=holder[0].feed, content_type="text/xml")

    app = web.Application()
    app.router.add_get("/feed.xml", feed)
    try:
        async with serving(app) as base:
            holder.append(Shop(services, base))
            await holder[0].publish()
            yield holder[0], services
    finally:
        await services.close()


@asynccontextmanager
async def shop_model_telegram(
    runtime: Runtime,
) -> AsyncIterator[tuple[Shop, Services, FakeOpenAIServer, FakeTelegramServer]]:
    """The shop with its services, the fake model and the fake Telegram, for a bot process."""
    async with (
        shop_and_services(runtime) as (shop, services),
        fake_llm() as llm,
        FakeTelegramServer() as tg,
    ):
        yield shop, services, llm, tg


async def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.05)


def alerts_to(tg: FakeTelegramServer, chat_id: int) -> list[SentCall]:
    return [
        c
        for c in tg.sent("sendMessage", chat_id=chat_id)
        if (c.visible_text or "").startswith("🔔")
        and any(
            b.get("text", "").startswith("👍") for b in c.inline_buttons
        )  # a card behind a bell, not /alerts' list
    ]


def words(call: SentCall) -> str:
    """What the person reads, with ordinary spaces for the no-break ones of prices."""
    return (call.visible_text or "").replace("\xa0", " ")


def data_of(call: SentCall, prefix: str) -> str:
    return next(
        b["callback_data"]
        for b in call.inline_buttons
        if str(b.get("callback_data", "")).startswith(prefix)
    )


async def say(bot: BotProcess, tg: FakeTelegramServer, chat_id: int, words: str) -> None:
    update = tg.accept_update(tg.message_update(chat_id, words))
    assert bot.webhook is not None
    assert await post_update(bot.webhook, update) == 200


async def press(
    bot: BotProcess, tg: FakeTelegramServer, chat_id: int, data: str, message_id: int
) -> str | None:
    """Press a button; the toast the bot answered it with."""
    update = tg.accept_update(tg.callback_update(chat_id, data, message_id=message_id))
    query_id = update["callback_query"]["id"]
    assert bot.webhook is not None
    assert await post_update(bot.webhook, update) == 200

    def answered() -> SentCall | None:
        return next(
            (
                c
                for c in tg.sent("answerCallbackQuery")
                if c.params.get("callback_query_id") == query_id
            ),
            None,
        )

    await until(lambda: answered() is not None, 30)
    found = answered()
    assert found is not None
    return found.params.get("text")


async def offered(tg: FakeTelegramServer, chat_id: int, prefix: str, after: int) -> SentCall:
    """The first message past the first `after` with a button whose data starts so."""

    def found() -> SentCall | None:
        sent = tg.sent("sendMessage", chat_id=chat_id)[after:]
        return next((c for c in sent if prefix in json.dumps(c.params)), None)

    await until(lambda: found() is not None, 60)
    call = found()
    assert call is not None
    return call


def edits(tg: FakeTelegramServer, chat_id: int) -> list[SentCall]:
    return tg.sent("editMessageText", chat_id=chat_id)


async def last_message(tg: FakeTelegramServer, chat_id: int, count: int) -> SentCall:
    await until(lambda: len(tg.sent("sendMessage", chat_id=chat_id)) >= count, 60)
    return tg.sent("sendMessage", chat_id=chat_id)[count - 1]


async def wine_id(runtime: Runtime, external_id: str) -> uuid.UUID:
    async with runtime.engine.connect() as conn:
        found = await conn.scalar(
            text("SELECT id FROM wines WHERE external_id = :e"), {"e": external_id}
        )
    assert found is not None
    return uuid.UUID(str(found))


async def scalar(runtime: Runtime, sql: str, **params: object) -> Any:
    async with runtime.engine.connect() as conn:
        return await conn.scalar(text(sql), params)


@pytest.mark.slow
async def test_a_sync_that_brings_the_wine_back_tells_each_subscriber_once_across_replicas(
    clean_db: Runtime,
) -> None:
    asker = 971_001
    others = [9_710_100 + n for n in range(40)]  # more subscribers: the replicas race for them
    await confirm_age(clean_db, asker)
    async with shop_model_telegram(clean_db) as (shop, services, llm, tg):
        riesling = await wine_id(clean_db, "C-300")
        env = Model(llm).env(llm) | FAST_PASSES
        async with replicas(clean_db, tg, env, None, None) as (first, second):
            # A wine asked for by name that the shop lacks: the closing offers the bell.
            await say(first, tg, asker, f"Есть у вас «{ASKED}»?")
            closing = await offered(tg, asker, "al:n:", 0)
            toast = await press(second, tg, asker, data_of(closing, "al:n:"), closing.message_id)
            assert toast == "Сообщу, когда появится — /alerts"
            # «Похожие» on an old card of the Riesling, sold out since: the bell for it.
            sent_before = len(tg.sent("sendMessage", chat_id=asker))
            await press(first, tg, asker, f"s:{riesling.hex}", closing.message_id or 1)
            similar_closing = await offered(tg, asker, "al:w:", sent_before)
            assert data_of(similar_closing, "al:w:") == f"al:w:{riesling.hex}"
            await press(second, tg, asker, f"al:w:{riesling.hex}", similar_closing.message_id or 1)
            for chat in others:
                assert await services.alerts.offer_wine(chat, riesling) == "subscribed"
            assert await services.alerts.offer_wine(asker, riesling) == "already"
            await asyncio.sleep(1.0)  # passes run: nothing is due yet
            assert not alerts_to(tg, asker)

            await shop.publish(riesling=True, barolo=True)
            await until(lambda: len(alerts_to(tg, asker)) >= 2, 60)
            await until(lambda: all(alerts_to(tg, chat) for chat in others), 60)
            await shop.publish(riesling=True, barolo=True)  # the same feed again
            await asyncio.sleep(2.0)  # a few more passes of both replicas
            told = alerts_to(tg, asker)
            assert len(told) == 2, [c.visible_text for c in told]
            by_kind = {("name" if ASKED in words(c).split("\n")[0] else "wine"): c for c in told}
            assert set(by_kind) == {"name", "wine"}
            assert "Тест Рислинг" in (by_kind["wine"].visible_text or "")
            assert f"Вино {ASKED}" in (by_kind["name"].visible_text or "")
            assert all(len(alerts_to(tg, chat)) == 1 for chat in others)
    assert await scalar(clean_db, "SELECT count(*) FROM alert_subscriptions") == 0
    assert await scalar(clean_db, "SELECT count(*) FROM alerts_sent") == 2 + len(others)
    assert await scalar(clean_db, "SELECT count(*) FROM outbox_messages") == 0


@pytest.mark.slow
async def test_a_favourites_price_drop_alerts_once_per_drop_and_the_console_counts_it(
    clean_db: Runtime,
) -> None:
    fan = 972_001
    await confirm_age(clean_db, fan)
    async with shop_model_telegram(clean_db) as (shop, services, llm, tg):
        cabernet = await wine_id(clean_db, "A-100")
        async with bot_process(
            clean_db, tg, webhook=True, extra=Model(llm).env(llm) | FAST_PASSES
        ) as bot:
            await say(bot, tg, fan, "/favorites")
            empty = await last_message(tg, fan, 1)
            assert await press(bot, tg, fan, f"fav:1:{cabernet.hex}", empty.message_id or 1)
            await say(bot, tg, fan, "/favorites")
            listing = await last_message(tg, fan, 2)
            bell = data_of(listing, "pw:")
            assert bell == f"pw:1:{cabernet.hex}"
            toast = await press(bot, tg, fan, bell, listing.message_id or 1)
            assert toast == "Сообщу, если цена снизится на 10% и больше — /alerts"

            await shop.publish(cabernet_price="1890")  # 5 %: not worth a message
            await asyncio.sleep(1.5)
            assert not alerts_to(tg, fan)
            await shop.publish(cabernet_price="1700")  # 14.6 %
            await until(lambda: len(alerts_to(tg, fan)) == 1)
            await shop.publish(cabernet_price="1690")  # still the same drop
            await asyncio.sleep(1.5)
            assert len(alerts_to(tg, fan)) == 1
            await shop.publish(cabernet_price="1500")  # a new drop, from 1 700
            await until(lambda: len(alerts_to(tg, fan)) == 2)
            first, second = alerts_to(tg, fan)
            assert "было 1 990 ₽, стало 1 700 ₽" in words(first)
            assert "было 1 700 ₽, стало 1 500 ₽" in words(second)

            # The person follows the alert's «Купить» and orders it.
            buy = next(b["url"] for b in second.inline_buttons if b.get("url"))
            assert buy.startswith("https://bot.example/go/")
            shop_url = await services.clicks.follow(buy.rsplit("/", 1)[1])
            assert shop_url is not None
            token = parse_qs(urlsplit(shop_url).query)["sm"][0]
            order = {
                "order_id": "ALERT-1",
                "placed_at": datetime.now(UTC).isoformat(),
                "status": "new",
                "token": token,
                "lines": [{"product": "A-100", "quantity": 1, "price_rub": 1500}],
            }
            await services.orders.receive(json.dumps(order).encode())
            overview = await services.console.overview(window(7))
            counts = {row["step"].split()[0]: row["count"] for row in overview["alerts"]}
            assert counts == {"Отправлено": 2, "Открыто": 1, "Заказано": 1}

            # /alerts lists the watch and cancels it.
            await say(bot, tg, fan, "/alerts")
            listed = await last_message(tg, fan, 3 + 2)
            assert "Цена «Вино Шато Тест Каберне красное сухое» снизится" in (
                listed.visible_text or ""
            )
            toast = await press(bot, tg, fan, data_of(listed, "alx:"), listed.message_id or 1)
            assert toast == "Уведомление отменено"
            assert await scalar(clean_db, "SELECT count(*) FROM alert_subscriptions") == 0
            await shop.publish(cabernet_price="1100")
            await asyncio.sleep(1.5)
            assert len(alerts_to(tg, fan)) == 2  # cancelled: no more

            # /forget removes the subscriptions; the alerts' counts stay, without the person.
            await press(bot, tg, fan, bell, listing.message_id or 1)
            assert await services.alerts.list(fan)
            await press(bot, tg, fan, "fg:1", listing.message_id or 1)
            await until(lambda: any("уведомления о винах: 1" in words(c) for c in edits(tg, fan)))
    assert await scalar(clean_db, "SELECT count(*) FROM alert_subscriptions") == 0
    assert await scalar(clean_db, "SELECT count(*) FROM alerts_sent WHERE user_id = :u", u=fan) == 0
    assert await scalar(clean_db, "SELECT count(*) FROM alerts_sent") == 2


async def test_a_pass_that_dies_before_it_commits_leaves_every_alert_to_the_next(
    clean_db: Runtime,
) -> None:
    people = [973_001, 973_002, 973_003]
    async with shop_and_services(clean_db) as (shop, services):
        riesling = await wine_id(clean_db, "C-300")
        for person in people:
            assert await services.alerts.offer_wine(person, riesling) == "subscribed"
        await shop.publish(riesling=True)
        rendered: list[int] = []

        def dies_on_the_second(alert: DueAlert) -> OutgoingMessage:
            rendered.append(alert.user_id)
            if len(rendered) == 2:
                raise RuntimeError("the process died here")
            return render_alert(alert)

        with pytest.raises(RuntimeError):
            await services.alerts.dispatch(dies_on_the_second)
        assert await services.outbox.waiting() == 0
        assert await services.alerts.dispatch(render_alert) == 3
        assert await services.alerts.dispatch(render_alert) == 0
        queued = await services.outbox.claim(10, lease=timedelta(seconds=5))
        assert sorted(m.chat_id for m in queued) == people
        assert all("Тест Рислинг" in m.html for m in queued)
