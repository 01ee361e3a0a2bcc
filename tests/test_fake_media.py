"""Self-tests of the fakes' media parts (issue 17): image content parts and audio
transcriptions in the fake OpenAI server, getFile / downloads of photos and voice messages in
the fake Bot API, all driven through the real ``openai`` SDK and aiogram."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import openai
import pytest
import pytest_asyncio
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import Update
from openai import AsyncOpenAI

from fakes.openai_server import FakeOpenAIServer, reply
from fakes.telegram_server import FakeTelegramServer

API_KEY = "test-key"
MODEL = "gpt-4o-mini"
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake image bytes").decode()
DATA_URL = f"data:image/png;base64,{PNG}"


def image_message(url: str, text: str = "Что на фото?") -> list[dict[str, Any]]:
    return [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": text},
                {"type": "image_url", "image_url": {"url": url}},
            ],
        }
    ]


@pytest_asyncio.fixture
async def client(server: FakeOpenAIServer) -> AsyncIterator[AsyncOpenAI]:
    cli = AsyncOpenAI(base_url=server.base_url, api_key=API_KEY, max_retries=0, timeout=10)
    yield cli
    await cli.close()


async def test_image_part_gets_the_scripted_vision_answer(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    server.script(reply("text answer"))
    server.script_vision({"kind": "dish", "dish": "стейк"})
    seen = await client.chat.completions.create(model=MODEL, messages=image_message(DATA_URL))
    plain = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "привет"}]
    )
    remote = await client.chat.completions.create(
        model=MODEL, messages=image_message("https://example.com/label.jpg")
    )
    assert json.loads(seen.choices[0].message.content or "") == {"kind": "dish", "dish": "стейк"}
    assert plain.choices[0].message.content == "text answer"
    assert remote.choices[0].message.content == "ok"  # both queues empty
    assert len(server.vision_requests) == 2 and server.errors == []


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.com/a.png",
        "data:text/plain;base64,aGVsbG8=",
        "data:image/png;base64,%%%not-base64%%%",
        "data:image/png;base64,",
    ],
)
async def test_bad_image_urls_are_rejected(
    server: FakeOpenAIServer, client: AsyncOpenAI, url: str
) -> None:
    with pytest.raises(openai.BadRequestError):
        await client.chat.completions.create(model=MODEL, messages=image_message(url))
    assert server.errors and "image" in server.errors[0].lower()


async def test_a_model_without_vision_answers_400(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    server.non_vision_models.add("text-only")
    with pytest.raises(openai.BadRequestError) as caught:
        await client.chat.completions.create(model="text-only", messages=image_message(DATA_URL))
    assert "image_url is only supported by certain models" in str(caught.value)
    # The same model still answers text.
    ok = await client.chat.completions.create(
        model="text-only", messages=[{"role": "user", "content": "привет"}]
    )
    assert ok.choices[0].message.content == "ok"


async def test_transcription_returns_the_scripted_text(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    server.script_transcript("красное к стейку")
    result = await client.audio.transcriptions.create(
        model="whisper-1", file=("voice.ogg", b"OggS fake voice", "audio/ogg"), language="ru"
    )
    assert result.text == "красное к стейку"
    [record] = server.transcription_requests
    assert record["model"] == "whisper-1" and record["filename"] == "voice.ogg"
    assert record["language"] == "ru" and record["size"] == len(b"OggS fake voice")


async def test_transcription_rejects_unknown_model_missing_file_and_bad_format(
    server: FakeOpenAIServer, client: AsyncOpenAI
) -> None:
    with pytest.raises(openai.NotFoundError):
        await client.audio.transcriptions.create(
            model="no-such-model", file=("voice.ogg", b"OggS", "audio/ogg")
        )
    with pytest.raises(openai.BadRequestError) as caught:
        await client.audio.transcriptions.create(
            model="whisper-1", file=("voice.txt", b"OggS", "text/plain")
        )
    assert "Invalid file format" in str(caught.value)
    async with aiohttp.ClientSession() as http:
        form = aiohttp.FormData(default_to_multipart=True)
        form.add_field("model", "whisper-1")
        async with http.post(
            f"{server.base_url}/audio/transcriptions",
            data=form,
            headers={"Authorization": f"Bearer {API_KEY}"},
        ) as resp:
            body = await resp.json()
    assert resp.status == 400 and "'file'" in body["error"]["message"]
    assert server.transcription_requests == []


# ---- the fake Bot API ------------------------------------------------------------------------


@pytest_asyncio.fixture
async def tg() -> AsyncIterator[tuple[FakeTelegramServer, Bot]]:
    async with FakeTelegramServer() as server:
        session = AiohttpSession(api=TelegramAPIServer.from_base(server.base_url))
        bot = Bot(server.token, session=session)
        try:
            yield server, bot
        finally:
            await bot.session.close()


async def test_photo_update_sizes_download_through_aiogram(
    tg: tuple[FakeTelegramServer, Bot],
) -> None:
    server, bot = tg
    update = Update.model_validate(
        server.photo_update(5, b"label bytes", caption="к этому", width=3000, height=2000)
    )
    message = update.message
    assert message is not None and message.photo and message.caption == "к этому"
    sizes = [(p.width, p.height) for p in message.photo]
    assert sizes == sorted(sizes) and sizes[-1] == (3000, 2000) and len(sizes) >= 3
    for size in message.photo:
        data = await bot.download(size.file_id)
        assert data is not None and data.read() == b"label bytes"
    assert [c.method for c in server.calls].count("getFile") == len(message.photo)


async def test_voice_and_video_note_updates(tg: tuple[FakeTelegramServer, Bot]) -> None:
    server, bot = tg
    voice = Update.model_validate(server.voice_update(5, b"OggS voice", duration=7)).message
    note = Update.model_validate(server.video_note_update(5, b"mp4 note", duration=12)).message
    assert voice is not None and voice.voice is not None and voice.voice.duration == 7
    assert note is not None and note.video_note is not None and note.video_note.duration == 12
    file = await bot.get_file(voice.voice.file_id)
    assert file.file_path is not None and file.file_path.endswith(".oga")
    data = await bot.download(note.video_note.file_id)
    assert data is not None and data.read() == b"mp4 note"
