"""The HTTP API with a photo or a recording (issue 17): the same events as a text query."""

from __future__ import annotations

import base64
import json
from typing import Any

import aiohttp
import pytest

from api.app import MAX_IMAGE_BYTES
from fakes.openai_server import responder
from services.app.runtime import Runtime
from tests.agent_fixtures import fake_openai
from tests.api_harness import running_api
from tests.bot_helpers import agent_model
from tests.test_api import llm, read_events

IMAGE = base64.b64encode(b"\xff\xd8\xff\xe0 a label photo").decode()
AUDIO = base64.b64encode(b"OggS a voice message").decode()
LABEL = {
    "kind": "label",
    "producer": "Catena Zapata",
    "name": "Catena Malbec",
    "vintage": 2022,
    "grapes": ["мальбек"],
}
LABEL_TITLE = "Catena Malbec 2022"


async def post_stream(base_url: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{base_url}/v1/agent/stream", json=body) as resp,
    ):
        assert resp.status == 200
        return await read_events(resp)


async def test_stream_with_an_image_reads_the_label(seeded: Runtime) -> None:
    async with fake_openai() as server, running_api(seeded, **llm(server.base_url)) as api:
        server.script_vision(LABEL)
        events = await post_stream(api.base_url, {"image": IMAGE, "query": "есть такое?"})
        assert server.errors == []
    names = [name for name, _ in events]
    assert names == ["media_read", "final"]
    assert events[0][1] == {"source": "photo", "kind": "label", "text": LABEL_TITLE}
    final = events[-1][1]
    assert final["path"] == "photo"
    assert [w["name"] for w in final["recommendation"]["wines"]] == ["Catena Malbec"]
    parts = server.vision_requests[0]["messages"][-1]["content"]
    assert "есть такое?" in parts[0]["text"]
    assert parts[1]["image_url"]["url"] == f"data:image/jpeg;base64,{IMAGE}"


async def test_ask_with_audio_answers_what_was_said(seeded: Runtime) -> None:
    async with fake_openai() as server, running_api(seeded, **llm(server.base_url)) as api:
        server.script_transcript("красное к стейку")
        model = responder(agent_model(lambda _: {"wine_type": "red", "food_pairing": "стейк"}))
        server.script(model, model)
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{api.base_url}/v1/agent/ask",
                json={"audio": AUDIO, "audio_filename": "question.ogg"},
            ) as resp,
        ):
            assert resp.status == 200
            payload = await resp.json()
        assert server.errors == []
    assert payload["path"] == "agent" and len(payload["recommendation"]["wines"]) == 3
    [record] = server.transcription_requests
    assert record["filename"] == "question.ogg"


async def test_stream_with_audio_starts_with_what_was_heard(seeded: Runtime) -> None:
    async with fake_openai() as server, running_api(seeded, **llm(server.base_url)) as api:
        server.script_transcript("белое к рыбе")
        model = responder(agent_model(lambda _: {"wine_type": "white"}))
        server.script(model, model)
        events = await post_stream(api.base_url, {"audio": AUDIO, "audio_filename": "a.ogg"})
    assert events[0] == (
        "media_read",
        {"source": "voice", "kind": "speech", "text": "белое к рыбе"},
    )
    assert events[-1][0] == "final"


async def test_without_vision_the_stream_says_to_describe_it_in_words(seeded: Runtime) -> None:
    async with running_api(seeded) as api:  # no LLM
        events = await post_stream(api.base_url, {"image": IMAGE})
        async with (
            aiohttp.ClientSession() as http,
            http.post(
                f"{api.base_url}/v1/agent/ask", json={"audio": AUDIO, "audio_filename": "a.ogg"}
            ) as resp,
        ):
            assert resp.status == 422
            payload = await resp.json()
    assert events == [
        ("error", {"message": "the image could not be read (off); describe it in words in `query`"})
    ]
    assert payload["field"] == "audio" and payload["reason"] == "off"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"image": "%%% not base64 %%%"}, "image"),
        ({"image": IMAGE, "audio": AUDIO, "audio_filename": "a.ogg"}, "image"),
        ({"audio": AUDIO}, "audio_filename"),
        ({"audio": AUDIO, "audio_filename": "a.exe"}, "audio_filename"),
        ({"audio": AUDIO, "audio_filename": "../etc/a.ogg"}, "audio_filename"),
        ({"image": ""}, "image"),
    ],
)
async def test_bad_media_gets_422_naming_the_field(
    seeded: Runtime, body: dict[str, Any], field: str
) -> None:
    async with (
        running_api(seeded) as api,
        aiohttp.ClientSession() as http,
        http.post(f"{api.base_url}/v1/agent/ask", data=json.dumps(body)) as resp,
    ):
        assert resp.status == 422
        assert (await resp.json())["field"] == field


async def test_an_image_larger_than_the_limit_is_refused(seeded: Runtime) -> None:
    huge = base64.b64encode(b"\xff" * (11 * 1024 * 1024)).decode()
    async with (
        running_api(seeded) as api,
        aiohttp.ClientSession() as http,
        http.post(f"{api.base_url}/v1/agent/ask", json={"image": huge}) as resp,
    ):
        assert resp.status == 422
        assert (await resp.json())["field"] == "image"


async def test_multipart_image_with_the_query_as_caption(seeded: Runtime) -> None:
    async with fake_openai() as server, running_api(seeded, **llm(server.base_url)) as api:
        server.script_vision(LABEL)
        form = aiohttp.FormData()
        form.add_field("query", "есть такое?")
        form.add_field("user_id", "4242")
        form.add_field("image", base64.b64decode(IMAGE), filename="label.jpg")
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{api.base_url}/v1/agent/stream", data=form) as resp,
        ):
            assert resp.status == 200
            events = await read_events(resp)
        assert server.errors == []
    assert [name for name, _ in events] == ["media_read", "final"]
    assert [w["name"] for w in events[-1][1]["recommendation"]["wines"]] == ["Catena Malbec"]
    assert "есть такое?" in server.vision_requests[0]["messages"][-1]["content"][0]["text"]


async def test_multipart_audio_takes_its_file_name(seeded: Runtime) -> None:
    async with fake_openai() as server, running_api(seeded, **llm(server.base_url)) as api:
        server.script_transcript("розовое на пикник")
        model = responder(agent_model(lambda _: {"wine_type": "rose"}))
        server.script(model, model)
        form = aiohttp.FormData()
        form.add_field("audio", base64.b64decode(AUDIO), filename="note.m4a")
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{api.base_url}/v1/agent/ask", data=form) as resp,
        ):
            assert resp.status == 200
            payload = await resp.json()
    assert payload["recommendation"]["wines"]
    assert server.transcription_requests[0]["filename"] == "note.m4a"


async def test_a_multipart_file_over_the_limit_is_refused_by_name(seeded: Runtime) -> None:
    async with running_api(seeded) as api:
        form = aiohttp.FormData()
        form.add_field("query", "что это?")
        form.add_field("image", b"\xff" * (MAX_IMAGE_BYTES + 1), filename="huge.jpg")
        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{api.base_url}/v1/agent/ask", data=form) as resp,
        ):
            assert resp.status == 422
            assert (await resp.json())["field"] == "image"
