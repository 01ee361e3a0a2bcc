"""Who gets in: admin commands, the webhook secret, the API token — and secrets in the logs.

Refusals reveal nothing and are logged without the secret that was (or was not) given. One
representative session — webhook, bot, agent, embeddings, HTTP API, refusals and failures —
runs with every secret configured while all logging is captured at DEBUG; none of the secrets
appears anywhere in it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from sqlalchemy import text

from bot.callbacks import AgeCallback
from bot.runner import TelegramWebhook
from fakes.openai_server import FakeOpenAIServer, error, responder
from fakes.telegram_server import FakeTelegramServer
from services.app.container import Services
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import ADMIN_ID, running_bot
from tests.bot_helpers import adult, ask
from tests.conftest import TEST_EMBEDDING_DIM, make_settings
from tests.fault_helpers import catalog_fingerprint, good_agent
from tests.serving import serving_with_webhook

LLM_KEY = "sk-llm-SECRET-7f3a9c1e0b"
EMBEDDING_KEY = "sk-emb-SECRET-2d9e4a6b1f"
BOT_TOKEN = "987654321:AAH-bot-SECRET-token-5d2e8f"
API_TOKEN = "api-SECRET-token-b81c3e7a"
WEBHOOK_SECRET = "wh-SECRET-4c7d1a9e"
WRONG_GUESSES = ("wh-guess-0a1b2c", "api-guess-9z8y7x")
SECRETS = (LLM_KEY, EMBEDDING_KEY, BOT_TOKEN, BOT_TOKEN.split(":")[1], API_TOKEN, WEBHOOK_SECRET)
USER, STRANGER = 995_001, 995_002


@dataclass
class Served:
    base: str
    tg: FakeTelegramServer
    llm: FakeOpenAIServer
    embeddings: FakeOpenAIServer
    telegram: TelegramWebhook
    services: Services


@asynccontextmanager
async def served(runtime: Runtime, **overrides: Any) -> AsyncIterator[Served]:
    """`sommelier serve` with the webhook mounted, every secret set."""
    async with (
        FakeTelegramServer(BOT_TOKEN) as tg,
        FakeOpenAIServer(api_key=LLM_KEY, embedding_dim=TEST_EMBEDDING_DIM) as llm,
        FakeOpenAIServer(api_key=EMBEDDING_KEY, embedding_dim=TEST_EMBEDDING_DIM) as emb,
    ):
        settings = make_settings(
            telegram_bot_token=BOT_TOKEN,
            telegram_api_url=tg.base_url,
            webhook_url="https://bot.example.com/tg/webhook",
            webhook_secret=WEBHOOK_SECRET,
            api_token=API_TOKEN,
            llm_api_key=LLM_KEY,
            llm_base_url=llm.base_url,
            llm_max_retries=0,
            llm_timeout_seconds=2,
            embedding_api_key=EMBEDDING_KEY,
            embedding_base_url=emb.base_url,
            admin_ids=str(ADMIN_ID),
            **overrides,
        )
        async with serving_with_webhook(runtime, settings) as app:
            yield Served(app.base, tg, llm, emb, app.telegram, app.services)


async def _post_update(
    http: aiohttp.ClientSession, s: Served, update: dict, secret: str | None
) -> int:
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
    async with http.post(f"{s.base}/tg/webhook", json=update, headers=headers) as resp:
        return resp.status


async def _settle(s: Served) -> None:
    assert await s.telegram.order.wait_idle(20)


async def test_no_secret_reaches_any_log(seeded: Runtime, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with served(seeded) as s, aiohttp.ClientSession() as http:
        await s.telegram.register()  # setWebhook with the secret
        assert s.tg.webhook is not None
        # Vectors for the catalog, so semantic search talks to the embeddings API.
        await s.services.embeddings.embed_catalog(seeded.sessions)
        s.llm.script(
            *[
                responder(
                    good_agent({"query": "легкое красное", "price_max": 3000}, "semantic_search")
                )
            ]
            * 3,
            error(401, "Incorrect API key provided"),
            *[responder(good_agent({"wine_type": "white"}))] * 3,
        )
        tg = s.tg
        for update, secret in (
            (tg.message_update(USER, "/start"), WEBHOOK_SECRET),
            (
                tg.callback_update(USER, AgeCallback(adult=True).pack(), message_id=1),
                WEBHOOK_SECRET,
            ),
            (tg.message_update(USER, "легкое красное до 3000"), WEBHOOK_SECRET),
            (tg.message_update(USER, "белое к рыбе"), WEBHOOK_SECRET),  # the LLM says 401
            (tg.message_update(USER, "/seed"), WEBHOOK_SECRET),
            (tg.message_update(ADMIN_ID, "/stats"), WEBHOOK_SECRET),
            (tg.message_update(USER, "/help"), None),
            (tg.message_update(USER, "/help"), WRONG_GUESSES[0]),
        ):
            status = await _post_update(http, s, update, secret)
            assert status == (200 if secret == WEBHOOK_SECRET else 401)
            await _settle(s)
        # Telegram failing on the way: retried, logged.
        tg.fail_next("sendMessage", 502, "Bad Gateway")
        tg.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", 1)
        s.llm.script(*[responder(good_agent({"wine_type": "white"}))] * 3)
        assert await _post_update(http, s, tg.message_update(USER, "белое"), WEBHOOK_SECRET) == 200
        await _settle(s)

        for headers in (
            {},
            {"Authorization": f"Bearer {WRONG_GUESSES[1]}"},
            {"Authorization": API_TOKEN},
        ):
            async with http.post(
                f"{s.base}/v1/agent/ask", json={"query": "розовое"}, headers=headers
            ) as resp:
                assert resp.status == 401
        good = {"Authorization": f"Bearer {API_TOKEN}"}
        s.llm.script(*[responder(good_agent({"wine_type": "rose"}))] * 3)
        async with http.post(
            f"{s.base}/v1/agent/stream", json={"query": "розовое", "user_id": USER}, headers=good
        ) as resp:
            assert resp.status == 200
            await resp.read()
        async with http.get(f"{s.base}/v1/agent/status", headers=good) as resp:
            assert resp.status == 200
            shown = await resp.text()
            assert not any(secret in shown for secret in SECRETS)

    # Long polling with the same token, Telegram failing on the way. (This fake Telegram
    # numbers its updates from 1 again: forget the webhook's ones.)
    async with seeded.engine.begin() as conn:
        await conn.execute(text("TRUNCATE telegram_updates"))
    async with running_bot(seeded, telegram_token=BOT_TOKEN, api_token=API_TOKEN) as h:
        h.tg.fail_next("getUpdates", 502, "Bad Gateway")
        await h.tg.wait_for(lambda _: bool(h.tg.rejected))
        h.tg.fail_next("sendMessage", 500, "Internal Server Error")
        assert len(await ask(h, USER, "красное сухое до 2000")) == 5

    replies = [c.visible_text or "" for c in s.tg.sent() if c.chat_id == USER]
    assert T.unknown_command in replies  # /seed from a user
    assert s.llm.errors == [] and s.embeddings.errors == []
    assert s.embeddings.embedding_requests and len(s.llm.requests) >= 6

    # Everything logged, at every level, by every library.
    logged = caplog.text + "\n".join(str(r.__dict__) + (r.exc_text or "") for r in caplog.records)
    assert len(caplog.records) > 100  # DEBUG really was on
    for secret in (*SECRETS, *WRONG_GUESSES):
        assert secret not in logged, f"{secret} appears in the logs"
    assert "webhook request refused" in caplog.text
    assert "API request refused" in caplog.text
    ours = ("bot", "services", "api", "sommelier", "aiogram.event")  # not: polling retries
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith(ours)]
    assert errors == [], [r.getMessage() for r in errors]


# ---- the HTTP API token --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": f"Bearer {API_TOKEN[:-1]}"},
        {"Authorization": f"Bearer {API_TOKEN}x"},
        {"Authorization": f"bearer {API_TOKEN}"},
        {"Authorization": f"Basic {API_TOKEN}"},
        {"Authorization": API_TOKEN},
        {"X-Api-Token": API_TOKEN},
    ],
    ids=lambda h: next(iter(h.values()), "none")[:14] if h else "none",
)
async def test_api_refuses_a_missing_or_wrong_token(
    seeded: Runtime, caplog: pytest.LogCaptureFixture, headers: dict[str, str]
) -> None:
    from tests.api_harness import running_api

    async with running_api(seeded, api_token=API_TOKEN) as api, aiohttp.ClientSession() as http:
        for method, route, body in (
            ("POST", "/v1/agent/stream", {"query": "вино"}),
            ("POST", "/v1/agent/ask", {"query": "вино"}),
            ("GET", "/v1/agent/tools", None),
            ("GET", "/v1/agent/status", None),
            ("GET", f"/v1/agent/status?token={API_TOKEN}", None),
        ):
            async with http.request(
                method, api.base_url + route, json=body, headers=headers
            ) as resp:
                assert resp.status == 401, route
                assert await resp.json() == {"error": "unauthorized"}
        async with http.get(f"{api.base_url}/healthz") as resp:
            assert resp.status == 200
    assert "API request refused" in caplog.text
    assert API_TOKEN not in caplog.text


# ---- the webhook secret ------------------------------------------------------------------------


async def test_webhook_refuses_wrong_secrets_and_handles_nothing(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    async with served(seeded) as s, aiohttp.ClientSession() as http:
        update = s.tg.message_update(USER, "/start")
        for secret in (None, "", WEBHOOK_SECRET.upper(), WEBHOOK_SECRET[:-1], WRONG_GUESSES[0]):
            assert await _post_update(http, s, update, secret) == 401, secret
        async with http.post(
            f"{s.base}/tg/webhook?secret_token={WEBHOOK_SECRET}", json=update
        ) as resp:
            assert resp.status == 401  # only the header counts
        async with http.post(
            f"{s.base}/tg/webhook",
            json=update,
            headers={"Authorization": f"Bearer {API_TOKEN}"},
        ) as resp:
            assert resp.status == 401  # the API's token is not the webhook's secret
        await _settle(s)
        assert s.tg.sent(chat_id=USER) == []
    async with seeded.engine.connect() as conn:
        claimed = (await conn.execute(text("SELECT count(*) FROM telegram_updates"))).scalar()
    assert claimed == 0
    assert caplog.text.count("webhook request refused") == 7
    assert WEBHOOK_SECRET not in caplog.text and WRONG_GUESSES[0] not in caplog.text


# ---- admin commands ----------------------------------------------------------------------------


async def test_admin_commands_from_anyone_else_are_unknown_commands(seeded: Runtime) -> None:
    before = await catalog_fingerprint(seeded.sessions)
    group = -100_995_003
    async with running_bot(seeded) as h:
        await adult(h, STRANGER)
        for command in (
            "/seed",
            "/SEED",
            "/seed@sommelier_test_bot",
            "/seed seeds/wines.json",
            "/embed now",
            "/stats@sommelier_test_bot",
        ):
            replies = await ask(h, STRANGER, command)
            assert [r.visible_text for r in replies] == [T.unknown_command], command
        # In a group the admin's chat is not the admin: the sender is checked.
        h.tg.push_update(
            h.tg.message_update(group, "/stats", chat_type="supergroup", user_id=STRANGER)
        )
        await h.idle()
        assert [c.visible_text for c in h.tg.sent("sendMessage", chat_id=group)] == [
            T.unknown_command
        ]
        # The admin is served (so the commands do exist).
        (stats,) = await ask(h, ADMIN_ID, "/stats")
        assert "Статистика" in (stats.visible_text or "")
        assert h.tg.rejected == []
    assert await catalog_fingerprint(seeded.sessions) == before
