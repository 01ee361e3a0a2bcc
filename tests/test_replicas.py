"""Several bot processes behind a load balancer share only PostgreSQL (webhook mode)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import aiohttp
from aiohttp import web
from sqlalchemy import text

from bot.factory import create_bot
from bot.runner import create_worker
from bot.webhook import add_webhook
from fakes.telegram_server import FakeTelegramServer
from services.app.container import build_services
from services.app.database import Database
from services.app.ops.rate_limits import RateLimits
from services.app.people.people import UserDetails
from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.conftest import make_settings
from tests.serving import serving, with_settings

SECRET = "replica-secret"
CHAT = 777001


@contextlib.asynccontextmanager
async def replica(runtime: Runtime, tg: FakeTelegramServer) -> AsyncIterator[str]:
    """One bot process: its own Bot, Dispatcher and aiohttp server; the shared database."""
    settings = make_settings(
        telegram_bot_token=tg.token,
        telegram_api_url=tg.base_url,
        webhook_url="https://bot.example/webhook",
        webhook_secret=SECRET,
    )
    services = build_services(with_settings(runtime, settings))
    bot = create_bot(settings)
    dp, order = create_worker(bot, settings, services)
    app = web.Application()
    add_webhook(app, dp, bot, order, "/webhook", SECRET)
    try:
        async with serving(app) as base:
            try:
                yield f"{base}/webhook"
            finally:
                await order.wait_idle(15)
    finally:
        await bot.session.close()
        await services.close()


async def deliver(
    http: aiohttp.ClientSession, url: str, update: dict, secret: str | None = SECRET
) -> int:
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
    async with http.post(url, json=update, headers=headers) as resp:
        return resp.status


async def confirm_age(runtime: Runtime, user_id: int) -> None:
    services = build_services(with_settings(runtime, make_settings()))
    await services.people.register(UserDetails(user_id, "Ivan"))
    await services.people.confirm_age(user_id)
    await services.close()


def answers(tg: FakeTelegramServer, chat_id: int) -> list[str]:
    return [c.visible_text or "" for c in tg.sent("sendMessage", chat_id=chat_id)]


async def test_the_same_update_on_two_replicas_is_answered_once(seeded: Runtime) -> None:
    await confirm_age(seeded, CHAT)
    async with FakeTelegramServer() as tg:
        async with (
            replica(seeded, tg) as a,
            replica(seeded, tg) as b,
            aiohttp.ClientSession() as http,
        ):
            update = tg.message_update(CHAT, "/help")
            statuses = await asyncio.gather(deliver(http, a, update), deliver(http, b, update))
            assert statuses == [200, 200]
        # Both replicas have finished all their work (each waits until idle as it closes).
        assert len(answers(tg, CHAT)) == 1


async def test_a_burst_spread_over_replicas_is_answered_in_order(seeded: Runtime) -> None:
    await confirm_age(seeded, CHAT)
    questions = ["красное сухое", "белое сухое", "игристое", "розовое", "крепленое"]
    expected_style = ["Красное", "Белое", "Игристое", "Розовое", "Крепленое"]
    async with (
        FakeTelegramServer() as tg,
        replica(seeded, tg) as a,
        replica(seeded, tg) as b,
        aiohttp.ClientSession() as http,
    ):
        for i, question in enumerate(questions):
            assert await deliver(http, (a, b)[i % 2], tg.message_update(CHAT, question)) == 200

        def done(calls: list) -> bool:
            cards = [c for c in calls if c.chat_id == CHAT and c.params.get("reply_markup")]
            return len(cards) == 3 * len(questions)

        await tg.wait_for(done, timeout=30)
        cards = [
            c.visible_text or ""
            for c in tg.sent("sendMessage", chat_id=CHAT)
            if c.params.get("reply_markup")
        ]
        styles = [next(s for s in expected_style if f"🍷 {s}" in card) for card in cards]
        assert styles == [s for s in expected_style for _ in range(3)]


async def test_webhook_refuses_requests_without_the_secret(seeded: Runtime, caplog) -> None:
    await confirm_age(seeded, CHAT)
    async with (
        FakeTelegramServer() as tg,
        replica(seeded, tg) as url,
        aiohttp.ClientSession() as http,
    ):
        refused = [tg.message_update(CHAT, "/help"), tg.message_update(CHAT, "/help")]
        assert await deliver(http, url, refused[0], secret=None) == 401
        assert await deliver(http, url, refused[1], secret="nope") == 401
        accepted = tg.message_update(CHAT, "/help")
        assert await deliver(http, url, accepted) == 200
        await tg.wait_for(lambda calls: any(c.chat_id == CHAT for c in calls))
    # Only the accepted update ever reached the bot (updates are recorded before the 200).
    async with seeded.engine.connect() as conn:
        seen = (await conn.execute(text("SELECT update_id FROM telegram_updates"))).scalars()
        assert list(seen) == [accepted["update_id"]]
    assert len(answers(tg, CHAT)) == 1
    assert "nope" not in caplog.text and SECRET not in caplog.text
    assert "webhook request refused" in caplog.text


async def test_drafts_in_private_chats_only(seeded: Runtime) -> None:
    private, group = 515151, -100515151
    await confirm_age(seeded, private)
    await confirm_age(seeded, 515152)
    async with running_bot(seeded) as h:
        await h.say(private, "красное сухое до 2000")
        question = "@sommelier_test_bot белое к рыбе"
        mention = {"type": "mention", "offset": 0, "length": len("@sommelier_test_bot")}
        await h.say(group, question, chat_type="supergroup", user_id=515152, entities=[mention])
        await h.idle()
        await h.tg.wait_for(lambda calls: len(h.texts(private)) >= 5 and len(h.texts(group)) >= 1)
    drafts_private = h.tg.sent("sendMessageDraft", chat_id=private)
    assert drafts_private and "Ищу красные сухие до 2 000 ₽" in (drafts_private[0].text or "")
    assert h.tg.sent("sendMessageDraft", chat_id=group) == []
    assert h.tg.sent("sendChatAction", chat_id=group)


async def test_rate_limit_is_shared_and_slides_over_the_minute_boundary(clean_db: Runtime) -> None:
    """Two replicas count one user's messages together, and a burst at the end of one minute
    still counts at the start of the next (a bare per-minute counter would allow twice the
    limit across the boundary)."""
    first, second = (RateLimits(Database(clean_db.sessions), 4, 4) for _ in range(2))
    verdicts = [await c.allow("tg:1") for c in (first, second, first, second, first)]
    assert verdicts == [True, True, True, True, False]

    async with clean_db.sessions() as s:
        # Just past the top of the minute: the last minute's burst is still in the window.
        left = float(await s.scalar(text("SELECT 60 - extract(second FROM clock_timestamp())")))
        # The last minute's 50 hits weigh (left / 60) × 50: enough to refuse at the limit of 4
        # only while at least 3.6 s of this minute are left; closer to its end, wait for the next.
        if left < 10:
            await asyncio.sleep(left + 0.1)
        await s.execute(
            text(
                "INSERT INTO rate_counters (key, window_start, hits) VALUES "
                "('tg:2', date_trunc('minute', clock_timestamp()) - interval '1 minute', 50)"
            )
        )
        await s.commit()
    assert not await second.allow("tg:2")
    assert await first.allow("tg:3")  # other users are not affected
