"""Helpers shared by the bot's end-to-end tests (tests/test_bot_*.py).

Reading what the fake Telegram server received (cards, buttons, callback answers), pressing
buttons, and a small scripted "model" for the fake OpenAI server that behaves like a
well-mannered agent: it calls search_wines first, then answers with ids from the tool result.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import func, select

from bot.callbacks import SimilarCallback, VoteCallback
from fakes.openai_server import FakeOpenAIServer, Step, call, reply, tool_calls
from fakes.telegram_server import SentCall
from repositories.models import Feedback, User, Wine
from repositories.wines import WineRepository
from services.app.people.people import UserDetails
from services.app.runtime import Runtime
from tests.agent_fixtures import formatted
from tests.bot_harness import BotHarness
from tests.conftest import TEST_EMBEDDING_DIM

JSONDict = dict[str, Any]
API_KEY = "test-key"
MESSAGES = ("sendMessage", "sendPhoto")


# ---- fake OpenAI -----------------------------------------------------------------------------


@asynccontextmanager
async def fake_llm() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer(api_key=API_KEY, embedding_dim=TEST_EMBEDDING_DIM) as server:
        yield server


def llm_settings(server: FakeOpenAIServer) -> dict[str, Any]:
    """running_bot(...) overrides that point the bot's LLM (and embeddings) at `server`."""
    return {
        "llm_api_key": API_KEY,
        "llm_base_url": server.base_url,
        "llm_max_retries": 0,
        "llm_timeout_seconds": 3,
    }


def last_user_text(body: JSONDict) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    return str(users[-1]["content"])


def current_tool_wines(body: JSONDict) -> list[JSONDict]:
    """Wine briefs returned by tools after the latest user message (this turn only)."""
    messages = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    wines: list[JSONDict] = []
    for message in messages[start + 1 :]:
        if message["role"] == "tool":
            wines.extend(json.loads(message["content"]).get("wines", []))
    return wines


def why_text(wine: JSONDict) -> str:
    """A reason that names its wine, so a reason shown under the wrong card is visible."""
    return f"{wine['name']} — {wine['producer']}: подходит к вашему запросу."


def agent_model(
    search_args: Callable[[str], JSONDict],
    intro: Callable[[str], str] = lambda question: f"Подборка по запросу «{question}»",
) -> Callable[[JSONDict], Step]:
    """A fake model: search_wines(search_args(question)) first, then three wines it returned."""

    def respond(body: JSONDict) -> Step:
        question = last_user_text(body)
        wines = current_tool_wines(body)
        if not wines:
            return tool_calls(call("search_wines", search_args(question)))
        picks = [(w["id"], why_text(w)) for w in wines[:3]]
        return reply(formatted(picks, intro(question), "Хорошего вечера!"))

    return respond


# ---- the fake Telegram server's records -------------------------------------------------------


def buttons(call_: SentCall) -> list[dict[str, Any]]:
    return call_.inline_buttons


def is_card(call_: SentCall) -> bool:
    return any(b.get("text", "").startswith("👍") for b in buttons(call_))


def cards(calls: Iterable[SentCall]) -> list[SentCall]:
    return [c for c in calls if is_card(c)]


def messages(calls: Iterable[SentCall]) -> list[SentCall]:
    return [c for c in calls if c.method in MESSAGES]


def card_wine_id(card: SentCall) -> uuid.UUID:
    return VoteCallback.unpack(buttons(card)[0]["callback_data"]).wine_id


def button_data(card: SentCall, text_prefix: str) -> str:
    return next(b["callback_data"] for b in buttons(card) if b["text"].startswith(text_prefix))


def vote_data(wine_id: uuid.UUID, vote: int) -> str:
    return VoteCallback(vote=vote, wine=wine_id.hex).pack()


def similar_data(wine_id: uuid.UUID) -> str:
    return SimilarCallback(wine=wine_id.hex).pack()


def no_space(text: str) -> str:
    return "".join(text.split())


_EMPTY_LIST = re.compile(r"[,:]\s*(?:[.;)]|$)|\(\s*\)")


def empty_list_in(text: str) -> str | None:
    """A list that came out empty in a sentence («сорта: .», «Италия, .», «()»), if any."""
    found = _EMPTY_LIST.search(text)
    return found.group(0) if found else None


async def press(h: BotHarness, chat_id: int, data: str, message_id: int) -> str:
    """Press an inline button; returns the callback query id."""
    update = h.tg.callback_update(chat_id, data, message_id=message_id)
    h.tg.push_update(update)
    return str(update["callback_query"]["id"])


async def callback_answer(h: BotHarness, query_id: str, timeout: float = 15.0) -> str | None:
    """The text of the answerCallbackQuery for `query_id`, once the bot answered it."""

    def answered(calls: list[SentCall]) -> bool:
        return any(
            c.method == "answerCallbackQuery" and str(c.params["callback_query_id"]) == query_id
            for c in calls
        )

    await h.tg.wait_for(answered, timeout)
    found = next(
        c
        for c in h.tg.sent("answerCallbackQuery")
        if str(c.params["callback_query_id"]) == query_id
    )
    text = found.params.get("text")
    return None if text is None else str(text)


async def ask(h: BotHarness, chat_id: int, text: str) -> list[SentCall]:
    """Send a message and return every message the bot sent in that chat in reply."""
    before = len(h.tg.sent(chat_id=chat_id))
    await h.say(chat_id, text)
    await h.idle()
    return messages(h.tg.sent(chat_id=chat_id)[before:])


async def inline(h: BotHarness, user_id: int, query: str, offset: str = "") -> dict[str, Any]:
    """Type an inline query; returns the answerInlineQuery params (with "_query_id")."""
    update = h.tg.inline_query_update(user_id, query, offset=offset)
    query_id = update["inline_query"]["id"]
    h.tg.push_update(update)
    await h.tg.wait_for(lambda _calls: query_id in h.tg.inline_answers, 15)
    answer = h.tg.inline_answers[query_id]
    answer["_query_id"] = query_id
    return answer


# ---- the database ---------------------------------------------------------------------------


async def adult(h: BotHarness, chat_id: int) -> None:
    """A registered user who has already passed the 18+ gate (without the welcome)."""
    await h.services.people.register(UserDetails(chat_id, "Ivan", language_code="ru"))
    await h.services.people.confirm_age(chat_id)


async def wines_by_id(runtime: Runtime, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Wine]:
    async with runtime.sessions() as session:
        found = await WineRepository(session).get_by_ids(list(ids))
    return {w.id: w for w in found}


async def count_on_sale(runtime: Runtime, filters: dict[str, Any]) -> int:
    """How many catalog wines on sale match `filters`: what a full answer may show."""
    async with runtime.sessions() as session:
        return await WineRepository(session).count_matching(filters)


async def user_row(runtime: Runtime, user_id: int) -> User | None:
    async with runtime.sessions() as session:
        return await session.get(User, user_id)


async def feedback_rows(runtime: Runtime, user_id: int) -> list[tuple[uuid.UUID, int]]:
    async with runtime.sessions() as session:
        rows = await session.execute(
            select(Feedback.wine_id, Feedback.vote)
            .where(Feedback.user_id == user_id)
            .order_by(Feedback.id)
        )
        return [(wine_id, vote) for wine_id, vote in rows.all()]


async def wine_count(runtime: Runtime) -> int:
    async with runtime.sessions() as session:
        return int(await session.scalar(select(func.count()).select_from(Wine)) or 0)
