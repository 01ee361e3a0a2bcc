"""Webhook mode as `sommelier serve` wires it: the HTTP API app with the bot mounted on it."""

from __future__ import annotations

import json

import aiohttp
from sqlalchemy import text

from fakes.telegram_server import FakeTelegramServer
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_helpers import user_row
from tests.conftest import make_settings
from tests.serving import serving_with_webhook

SECRET = "s3cret"
CHAT = 949001


async def test_webhook_secret_and_health_on_the_served_app(seeded: Runtime) -> None:
    async with FakeTelegramServer() as tg:
        settings = make_settings(
            telegram_bot_token=tg.token,
            telegram_api_url=tg.base_url,
            webhook_url="https://bot.example.com/tg/webhook",
            webhook_secret=SECRET,
            api_token="api-token-for-the-http-api",
        )
        async with (
            serving_with_webhook(seeded, settings) as served,
            aiohttp.ClientSession() as http,
        ):
            base, telegram = served.base, served.telegram

            async def post(update: dict, headers: dict[str, str]) -> int:
                async with http.post(f"{base}/tg/webhook", json=update, headers=headers) as r:
                    return r.status

            refused = [{}, {"X-Telegram-Bot-Api-Secret-Token": "s3cret-but-wrong"}]
            for headers in refused:
                assert await post(tg.message_update(CHAT, "/help"), headers) == 401
            # The API's bearer token is not the webhook's secret either.
            bearer = {"Authorization": f"Bearer {settings.api_token}"}
            assert await post(tg.message_update(CHAT, "/help"), bearer) == 401

            good = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            assert await post(tg.message_update(CHAT, "/start"), good) == 200
            await tg.wait_for(lambda calls: any(c.chat_id == CHAT for c in calls))
            assert await telegram.order.wait_idle(15)
            # Only the accepted update was handled: the gate for /start, no /help.
            replies = [c.visible_text for c in tg.sent(chat_id=CHAT)]
            assert replies == [T.age_question]
            assert await user_row(seeded, CHAT) is not None

            async with http.get(f"{base}/healthz") as resp:
                assert resp.status == 200
                assert (await resp.json())["database"] == "ok"


async def test_a_body_that_is_no_update_is_refused_with_400_and_takes_nothing(
    seeded: Runtime,
) -> None:
    """What reaches the webhook with the right secret but is not an update — not JSON, not an
    object, no update_id, a field of the wrong type — gets 400: nothing stored, nothing sent,
    its update_id not taken. The same update sent whole afterwards is answered."""
    chat = 949002
    async with FakeTelegramServer() as tg:
        settings = make_settings(
            telegram_bot_token=tg.token,
            telegram_api_url=tg.base_url,
            webhook_url="https://bot.example.com/tg/webhook",
            webhook_secret=SECRET,
        )
        update = tg.message_update(chat, "/start")
        message = update["message"]
        not_updates = [
            b"{not json",
            b"[]",
            json.dumps({"message": message}).encode(),
            json.dumps({**update, "message": {**message, "date": "yesterday"}}).encode(),
        ]
        headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET, "Content-Type": "application/json"}
        async with (
            serving_with_webhook(seeded, settings) as served,
            aiohttp.ClientSession() as http,
        ):
            url = f"{served.base}/tg/webhook"
            for body in not_updates:
                async with http.post(url, data=body, headers=headers) as resp:
                    assert resp.status == 400, body
            assert await _ledger_rows(seeded) == 0
            async with http.post(url, data=json.dumps(update).encode(), headers=headers) as resp:
                assert resp.status == 200
            await tg.wait_for(lambda calls: any(c.chat_id == chat for c in calls))
            assert await served.telegram.order.wait_idle(15)
        assert [c.visible_text for c in tg.sent(chat_id=chat)] == [T.age_question]
        assert await _ledger_rows(seeded) == 1


async def _ledger_rows(runtime: Runtime) -> int:
    async with runtime.engine.connect() as conn:
        return int(await conn.scalar(text("SELECT count(*) FROM telegram_updates")) or 0)
