"""One structured log line per answer on every path, and per refusal; with LOG_FORMAT=json
every line is one JSON object end to end."""

from __future__ import annotations

import json
import logging

import pytest

from fakes.openai_server import FakeOpenAIServer, reply
from services.app.runtime import Runtime
from services.app.texts import T
from services.llm.client import LLMClient
from sommelier.logs import JsonFormatter, configure_logging
from tests.agent_fixtures import agent_settings
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, button_data, cards, press

CHAT = 733_001


def answer_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    formatter = JsonFormatter()
    lines = [formatter.format(r) for r in caplog.records if r.name == "sommelier.answers"]
    assert all("\n" not in line for line in lines)
    return [json.loads(line) for line in lines]


async def test_every_answer_and_refusal_writes_one_json_line(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sommelier.answers")
    async with running_bot(seeded, rate_limit_per_minute=3) as h:  # no LLM: offline picks
        await adult(h, CHAT)
        await ask(h, CHAT, "/start")  # the welcome's picks of the day
        sent = await ask(h, CHAT, "красное сухое к стейку до 2000")
        card = cards(sent)[0]
        await press(h, CHAT, button_data(card, T.similar_button), card.message_id or 0)
        await h.idle()
        await ask(h, CHAT, "вино " * 400)  # too long
        await ask(h, CHAT, "белое к рыбе")
        refused = await ask(h, CHAT, "а розовое?")  # the fourth message this minute
        assert [m.visible_text for m in refused] == [T.rate_limited]

    lines = answer_lines(caplog)
    assert [(line["event"], line.get("path") or line.get("reason")) for line in lines] == [
        ("answer", "welcome"),
        ("answer", "offline"),
        ("answer", "similar"),
        ("refusal", "too_long"),
        ("answer", "offline"),
        ("refusal", "rate_limited"),
    ]
    for line in lines:
        assert line["logger"] == "sommelier.answers" and line["level"] == "INFO"
        assert "time" in line
    assert all(line["user_id"] == CHAT for line in lines if line["event"] == "answer")
    text = json.dumps(lines, ensure_ascii=False)
    assert "стейк" not in text and "рыб" not in text  # never what the person wrote


def test_json_format_keeps_a_traceback_inside_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    handler = configure_logging("json")
    try:
        try:
            raise ValueError("boom\nwith a second line")
        except ValueError:
            logging.getLogger("sommelier.test").exception("it failed")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["message"] == "it failed"
    assert "ValueError: boom" in record["exception"]


async def test_an_llm_request_writes_no_log_line_of_its_own(
    server: FakeOpenAIServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The HTTP client under the openai SDK logs every request at INFO; the one line per
    answer would drown in them."""
    server.script(reply("Тестовый ответ"))
    handler = configure_logging("json")
    llm = LLMClient(agent_settings(server.base_url))
    try:
        streamed: list[str] = []

        async def keep(piece: str) -> None:
            streamed.append(piece)

        answer = await llm.complete([{"role": "user", "content": "привет"}], on_delta=keep)
    finally:
        await llm.close()
        logging.getLogger().removeHandler(handler)
    assert answer.content == "Тестовый ответ" and "".join(streamed) == "Тестовый ответ"
    assert capsys.readouterr().err == ""
