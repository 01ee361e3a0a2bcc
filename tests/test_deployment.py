"""What a deployment relies on: one clear line for a missing token, Telegram retried inside
the process while it is unreachable, a health check that means something, and the HTTP API
kept off a public webhook port without a token."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import aiohttp
import pytest

from bot.delivery import ReliableRequests
from bot.factory import create_bot
from bot.heartbeat import write_heartbeat
from bot.runner import until_telegram_answers
from core.errors import SettingsError
from core.settings import Settings
from services.app.container import build_services
from services.app.runtime import Runtime
from sommelier.cli import main
from sommelier.health import check_health
from sommelier.serve import build_served_app
from tests.conftest import make_settings
from tests.serving import free_port, serving, with_settings

ROOT = Path(__file__).resolve().parent.parent


def test_a_missing_token_is_one_line_naming_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SettingsError, match="TELEGRAM_BOT_TOKEN"):
        create_bot(make_settings(telegram_bot_token=None))
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    monkeypatch.chdir("/")  # no .env around
    assert main(["bot"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "TELEGRAM_BOT_TOKEN" in err[0] and "Traceback" not in err[0]


async def test_an_unreachable_telegram_is_retried_with_one_line_each_until_stopped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.runner")
    closed = f"http://127.0.0.1:{free_port()}"
    bot = create_bot(make_settings(telegram_bot_token="123:X", telegram_api_url=closed))
    # Each call is still retried inside (ReliableRequests) before the runner sees it fail, only
    # without its half-second-and-doubling pauses (3.5 s a call): the runner's loop is the test.
    (reliable,) = [m for m in bot.session.middleware if isinstance(m, ReliableRequests)]
    reliable.backoff = 0.01
    stop = asyncio.Event()
    attempts = 0

    async def call() -> None:
        nonlocal attempts
        attempts += 1
        if attempts == 4:
            stop.set()
        await bot.get_me()

    try:
        reached = await until_telegram_answers(call, stop, first_delay=0.01, max_delay=0.05)
    finally:
        await bot.session.close()
    assert reached is False and attempts == 4
    lines = [r for r in caplog.records if r.name == "bot.runner"]
    assert len(lines) == 4
    assert all("Telegram is unreachable" in r.getMessage() and r.exc_info is None for r in lines)


async def test_health_needs_the_database_and_a_recent_telegram_round_trip(
    clean_db: Runtime, tmp_path: object
) -> None:
    from pathlib import Path

    heartbeat = Path(str(tmp_path)) / "bot.health"
    settings = with_settings(
        clean_db, make_settings(telegram_bot_token="123:X", health_file=heartbeat)
    ).settings
    ok, lines = await check_health(settings)
    assert not ok and "telegram: no successful request yet" in lines
    write_heartbeat(heartbeat, time.time() - 3600)
    assert not (await check_health(settings))[0]
    write_heartbeat(heartbeat, time.time())
    ok, lines = await check_health(settings)
    assert ok and lines[0] == "database: ok"
    down = make_settings(database_url="postgresql://nobody@127.0.0.1:1/none")
    assert not (await check_health(down))[0]


async def test_the_api_stays_off_a_webhook_port_without_a_token(runtime: Runtime) -> None:
    services = build_services(runtime)
    try:
        app, _ = build_served_app(runtime.settings, services, api=False)
        async with serving(app) as base, aiohttp.ClientSession() as http:
            async with http.post(f"{base}/v1/agent/ask", json={"query": "белое"}) as r:
                assert r.status == 404
            async with http.get(f"{base}/healthz") as r:
                assert r.status == 200
    finally:
        await services.close()


def test_every_setting_is_documented_for_the_person_deploying() -> None:
    """In .env.example, and in the settings table of the operations page (the README's
    "configuration at a glance" links it)."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    table = operations.split("## Settings", 1)[1].split("\n## ", 1)[0]
    names = [name.upper() for name in Settings.model_fields]
    assert [name for name in names if f"# {name}=" not in example] == []
    assert [name for name in names if f"`{name}`" not in table] == []
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/operations.md#settings" in readme


async def test_the_running_bot_writes_its_health_file(seeded: Runtime, tmp_path: Path) -> None:
    """The health file is the bot's own: written after its successful Bot API requests."""
    from tests.bot_harness import running_bot
    from tests.bot_helpers import adult

    heartbeat = tmp_path / "bot.health"
    assert not heartbeat.exists()
    async with running_bot(seeded, health_file=heartbeat) as h:
        await adult(h, 990_777)
        assert heartbeat.exists()
        ok, lines = await check_health(h.settings)
    assert ok, lines
