"""`make run` (`sommelier run`) with HTTP_PORT set and nothing else — no bot token, no LLM key,
an empty DATA_DIR — serves the web chat on the embedded database: a real process, asked over
HTTP as the chat's page asks, then stopped with SIGTERM. With a bot token the polling bot
serves the web chat beside it."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp
import pytest

from fakes.telegram_server import FakeTelegramServer
from tests.forkserver import python_m
from tests.serving import free_port
from tests.web_chat_harness import final_of, visitor

pytestmark = pytest.mark.slow

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TOKEN = "123456:TEST-token"
CHAT = 930001
_SCRUBBED = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_", "DATA_DIR")


async def _wait_for_page(url: str, process: asyncio.subprocess.Process) -> None:
    async with aiohttp.ClientSession() as http:
        for _ in range(600):
            assert process.returncode is None, "sommelier run stopped early"
            try:
                async with http.get(url) as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientConnectionError:
                pass
            await asyncio.sleep(0.2)
    raise AssertionError("the web chat never answered")


def _environment(data_dir: Path, port: int, **extra: str) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED)}
    environment.update(
        PYTHONPATH=str(PROJECT_ROOT),
        DATA_DIR=str(data_dir),
        HTTP_HOST="127.0.0.1",
        HTTP_PORT=str(port),
        **extra,
    )
    return environment


async def _run(data_dir: Path, environment: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *python_m("sommelier.cli"),
        "run",
        cwd=data_dir,
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(process.communicate(), timeout=60)
    assert process.returncode == 0, err.decode()


async def test_sommelier_run_with_http_port_serves_the_web_chat(tmp_path: Path) -> None:
    port = free_port()
    process = await _run(tmp_path, _environment(tmp_path, port))
    base = f"http://127.0.0.1:{port}"
    try:
        await _wait_for_page(f"{base}/chat", process)
        async with visitor(base) as v:
            _, page = await v.open()
            assert "Вам есть 18 лет?" in page
            await v.confirm_age()
            answer = final_of(await v.ask("белое к рыбе до 1500"))
        assert answer["wines"]
        assert all(w["wine_type"] == "white" and w["price_rub"] <= 1500 for w in answer["wines"])
        async with aiohttp.ClientSession() as http, http.post(f"{base}/v1/agent/ask") as r:
            assert r.status == 404  # the HTTP API itself stays off without API_TOKEN
    finally:
        await _stop(process)


async def test_the_polling_bot_serves_the_web_chat_beside_it(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegramServer(TOKEN) as tg:
        environment = _environment(
            tmp_path, port, TELEGRAM_BOT_TOKEN=TOKEN, TELEGRAM_API_URL=tg.base_url
        )
        process = await _run(tmp_path, environment)
        try:
            await _wait_for_page(f"http://127.0.0.1:{port}/chat", process)
            tg.push_update(tg.message_update(CHAT, "/privacy"))
            await tg.wait_for(lambda calls: any(c.chat_id == CHAT for c in calls), timeout=30)
        finally:
            await _stop(process)
