"""Webhook mode as `sommelier serve` wires it: the HTTP API app with the bot mounted on it."""

from __future__ import annotations

import aiohttp

from bot.texts import T
from fakes.telegram_server import FakeTelegramServer
from services.app.runtime import Runtime
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
