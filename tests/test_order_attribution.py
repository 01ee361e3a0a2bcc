"""Orders attributed to the sommelier, through the real bot, its HTTP server and the webhook:
a «Купить» click's token brought back by an order leads that line; a wine the same person was
shown and bought without a click is assisted; a cancelled order leaves revenue; /stats and the
console's Catalog view show the imports."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
from sqlalchemy import text

from api.orders import signature_of
from repositories.orders import attributed_revenue
from services.app.runtime import Runtime
from tests.bot_harness import ADMIN_ID
from tests.console_harness import CUSTOMER, SHOP, console_stack, converse, http_get

SECRET = "shop-webhook-secret"


async def _post(base: str, payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    body = json.dumps(payload).encode()
    headers = {"X-Signature": signature_of(SECRET, body), "Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{base}/v1/orders", data=body, headers=headers) as r,
    ):
        return r.status, await r.json()


async def _lines(runtime: Runtime, order_id: str) -> list[dict[str, Any]]:
    async with runtime.engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT product, attribution, user_id, click_id FROM order_lines "
                "WHERE order_id = :o ORDER BY line_no"
            ),
            {"o": order_id},
        )
        return [dict(r) for r in rows.mappings()]


async def _revenue(runtime: Runtime) -> dict[str, Decimal]:
    async with runtime.sessions() as s:
        return {k: v["rub"] for k, v in (await attributed_revenue(s)).items()}


def _line(wine: object, price: int) -> dict[str, Any]:
    return {"product": str(wine), "quantity": 1, "price": price}


async def test_a_click_leads_its_line_a_shown_wine_is_assisted_and_a_cancel_leaves_revenue(
    seeded: Runtime,
) -> None:
    async with console_stack(
        seeded, orders_webhook_secret=SECRET, api_token="console-secret"
    ) as stack:
        done = await converse(stack)  # shows wines, 👍 the first, «Купить» on the second
        shop = urlsplit(done.shop_page)
        assert done.shop_page.startswith(SHOP)
        query = parse_qs(shop.query)
        assert query["utm_source"] == ["sommelier"] and len(query["sm"][0]) == 16
        token = query["sm"][0]
        async with seeded.engine.connect() as conn:
            never_shown = await conn.scalar(
                text(
                    "SELECT id FROM wines WHERE NOT id = ANY(SELECT unnest(wine_ids) "
                    "FROM answer_facts WHERE wine_ids IS NOT NULL) LIMIT 1"
                )
            )
        now = datetime.now(UTC).isoformat()
        order = {
            "order_id": "S-1",
            "placed_at": now,
            # The landing URL as the shop stored it: the token is read out of it.
            "token": done.shop_page,
            "lines": [
                _line(done.bought, 2000),
                _line(done.liked, 1500),
                _line(never_shown, 700),
            ],
        }
        status, body = await _post(stack.base, order)
        assert status == 200 and body["inserted"] == 1, body
        lines = await _lines(seeded, "S-1")
        assert [line["attribution"] for line in lines] == ["led", "assisted", "none"]
        assert lines[0]["user_id"] == CUSTOMER and lines[0]["click_id"] is not None
        assert lines[1]["user_id"] == CUSTOMER and lines[1]["click_id"] is None
        assert lines[2]["user_id"] is None

        # The same wine without a token names nobody; a forged token is only reported; an
        # order placed long after the click is outside the window.
        forged = token[:-1] + ("A" if token[-1] != "A" else "B")
        late = (datetime.now(UTC) + timedelta(days=8)).isoformat()
        problems: dict[str, list[dict[str, Any]]] = {}
        for order_id, extra in (
            ("S-2", {}),
            ("S-3", {"token": forged}),
            ("S-4", {"token": token, "placed_at": late}),
        ):
            status, body = await _post(
                stack.base,
                {"order_id": order_id, "placed_at": now, "lines": [_line(done.bought, 100)]}
                | extra,
            )
            assert status == 200, body
            assert [line["attribution"] for line in await _lines(seeded, order_id)] == ["none"]
            problems[order_id] = body["problems"]
        assert problems["S-2"] == problems["S-4"] == []
        assert [p["field"] for p in problems["S-3"]] == ["token"]

        revenue = await _revenue(seeded)
        assert (revenue["led"], revenue["assisted"]) == (Decimal(2000), Decimal(1500))

        status, body = await _post(stack.base, {"order_id": "S-1", "status": "отменён"})
        assert status == 200 and body["cancelled"] == 1, body
        revenue = await _revenue(seeded)
        assert "led" not in revenue and "assisted" not in revenue
        assert {line["attribution"] for line in await _lines(seeded, "S-1")} == {"none"}

        # Un-cancelled (the shop changed its mind): attributed again.
        status, _ = await _post(stack.base, order | {"status": "paid"})
        assert status == 200
        assert (await _revenue(seeded))["led"] == Decimal(2000)

        await stack.bot.say(ADMIN_ID, "/stats")
        await stack.bot.idle()
        said = str(stack.bot.tg.sent(chat_id=ADMIN_ID)[-1].params.get("text"))
        assert "Заказы, последняя загрузка" in said and "(api)" in said, said

        status, page, _ = await http_get(
            f"{stack.base}/console/catalog", headers={"Authorization": "Bearer console-secret"}
        )
        assert status == 200 and "Последние загрузки заказов" in page
        assert "not a referral token of ours" in page
