"""The web chat served as `sommelier serve` serves it (over the test database), and visitors
talking to it over HTTP the way its page does: a cookie jar of their own, the page's Origin,
JSON bodies, the answer read as server-sent events."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp

from bench.eval.fake_model import respond
from core.settings import Settings
from fakes.openai_server import ReplyStep, Step, reply
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from sommelier.serve import build_served_app
from tests.conftest import make_settings
from tests.serving import serving, with_settings

# Three short sentences, so the intro streams in visibly growing steps.
LONG_INTRO = (
    "Вот что я нашел по вашему запросу. Посмотрите описания ниже. "
    "Любое из них можно заказать в магазине."
)


def sommelier_model(body: dict[str, Any]) -> Step:
    """The eval's fake model (it reads the conversation, never the system prompt), with a
    longer intro."""
    step = respond(body)
    if isinstance(step, ReplyStep) and "[INTRO]" in step.content:
        return reply(step.content.replace("Вот что я нашел по вашему запросу:", LONG_INTRO))
    return step


@dataclass
class ChatSite:
    base: str
    services: Services
    settings: Settings


@contextlib.asynccontextmanager
async def serving_chat(
    runtime: Runtime, settings: Settings | None = None
) -> AsyncIterator[ChatSite]:
    settings = settings or make_settings()
    services = build_services(with_settings(runtime, settings))
    app, _ = build_served_app(settings, services)
    try:
        async with serving(app, handler_cancellation=True) as base:
            yield ChatSite(base, services, settings)
    finally:
        await services.close()


class Visitor:
    """One browser: its own cookies; sends what the chat's page sends."""

    def __init__(self, base: str, origin: str | None = None) -> None:
        self.base = base
        self.origin = base if origin is None else origin
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def close(self) -> None:
        await self.http.close()

    async def open(self, query: str = "") -> tuple[aiohttp.ClientResponse, str]:
        async with self.http.get(f"{self.base}/chat{query}") as r:
            return r, await r.text()

    def _headers(self) -> dict[str, str]:
        return {"Origin": self.origin} if self.origin else {}

    async def post(self, name: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        async with self.http.post(
            f"{self.base}/chat/api/{name}", json=body or {}, headers=self._headers()
        ) as r:
            data = await r.json() if r.content_type == "application/json" else await r.text()
            return r.status, data

    async def confirm_age(self) -> None:
        status, data = await self.post("age", {"adult": True})
        assert status == 200 and data == {"adult": True}, (status, data)

    async def ask(self, text: str, wine: str | None = None) -> list[tuple[str, dict[str, Any]]]:
        """The answer's events, in order; a refusal comes back as [("refused", {status…})]."""
        body: dict[str, Any] = {"text": text}
        if wine is not None:
            body["wine"] = wine
        async with self.http.post(
            f"{self.base}/chat/api/message", json=body, headers=self._headers()
        ) as r:
            if r.content_type != "text/event-stream":
                return [("refused", {"status": r.status, **(await r.json())})]
            events: list[tuple[str, dict[str, Any]]] = []
            raw = (await r.read()).decode()
        for block in raw.split("\n\n"):
            if not block.strip():
                continue
            lines = dict(line.split(": ", 1) for line in block.splitlines())
            events.append((lines["event"], json.loads(lines["data"])))
        return events


def final_of(events: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    finals = [data for name, data in events if name == "final"]
    assert len(finals) == 1, events
    return finals[0]


@contextlib.asynccontextmanager
async def visitor(base: str, origin: str | None = None) -> AsyncIterator[Visitor]:
    v = Visitor(base, origin)
    try:
        yield v
    finally:
        await v.close()
