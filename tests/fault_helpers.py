"""Helpers shared by the fault-injection, attack and soak suites.

- `good_agent(arguments, tool)`: a well-behaved fake model that a faulty one recovers into. It
  calls `tool` (search_wines by default) with `arguments` until a call with exactly those
  arguments has returned wines in this turn, then answers with three of them; on the
  catalog_prompt path (no tools offered, catalog lines in the system prompt) it answers with
  the first three lines.
- `shown_cards(...)`: the wine cards a chat received, looked up in the catalog.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.callbacks import VoteCallback
from fakes.openai_server import Step, call, may_call_tools, reply, tool_calls
from fakes.telegram_server import SentCall
from repositories.models import Wine
from repositories.wines import WineRepository
from tests.agent_fixtures import catalog_ids, formatted, why_for
from tests.bot_helpers import current_tool_wines

JSONDict = dict[str, Any]
_PRICE = re.compile(r"💰\s*([\d\s\u00a0]+)")


# ---- a well-behaved model -------------------------------------------------------------------


def turn_messages(body: JSONDict) -> list[JSONDict]:
    """The messages of the current turn: from the last user message on."""
    messages: list[JSONDict] = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[start:]


def results_of_calls(body: JSONDict, name: str, arguments: JSONDict) -> list[JSONDict]:
    """Wines returned in this turn by calls of `name` with exactly `arguments`."""
    wanted: set[str] = set()
    wines: list[JSONDict] = []
    for message in turn_messages(body):
        for tool_call in message.get("tool_calls") or []:
            function = tool_call["function"]
            try:
                sent = json.loads(function["arguments"] or "{}")
            except json.JSONDecodeError:
                continue
            if function["name"] == name and sent == arguments:
                wanted.add(tool_call["id"])
        if message["role"] == "tool" and message.get("tool_call_id") in wanted:
            payload = json.loads(message["content"])
            wines.extend(payload.get("wines", []))
    return wines


def good_answer(wines: list[JSONDict]) -> str:
    ids = [str(w["id"]) for w in wines[:3]]
    return formatted([(i, why_for(i)) for i in ids], "Вот что я нашел.", "Хорошего вечера!")


def good_agent(arguments: JSONDict, tool: str = "search_wines") -> Callable[[JSONDict], Step]:
    def respond(body: JSONDict) -> Step:
        found = results_of_calls(body, tool, arguments)
        if found:
            return reply(good_answer(found))
        if may_call_tools(body):
            return tool_calls(call(tool, arguments))
        # No more tools: the wines its own earlier call of this turn returned (the tools keep
        # to the request in force whatever the arguments), else a catalog prompt's lines.
        if got := current_tool_wines(body):
            return reply(good_answer(got))
        ids = catalog_ids(body)
        return reply(
            formatted(
                [(i, why_for(i)) for i in ids[:3]], "Из каталога магазина:", "Хорошего вечера!"
            )
        )

    return respond


# ---- what the user saw ---------------------------------------------------------------------------


@dataclass
class ShownCard:
    call: SentCall
    wine: Wine | None
    shown_price: int | None


def is_card(sent: SentCall) -> bool:
    return any(b.get("text", "").startswith("👍") for b in sent.inline_buttons)


def card_wine_id(sent: SentCall) -> uuid.UUID:
    return VoteCallback.unpack(sent.inline_buttons[0]["callback_data"]).wine_id


async def shown_cards(
    sessions: async_sessionmaker[AsyncSession], calls: Iterable[SentCall]
) -> list[ShownCard]:
    cards = [c for c in calls if is_card(c)]
    async with sessions() as session:
        found = await WineRepository(session).get_by_ids([card_wine_id(c) for c in cards])
    by_id = {w.id: w for w in found}
    result = []
    for card in cards:
        match = _PRICE.search(card.visible_text or "")
        price = int(re.sub(r"\D", "", match.group(1))) if match else None
        result.append(ShownCard(card, by_id.get(card_wine_id(card)), price))
    return result


def assert_real_cards(cards: list[ShownCard]) -> list[Wine]:
    """Every card is a catalog wine, named and priced as in the catalog."""
    wines = []
    for card in cards:
        text = card.call.visible_text or ""
        assert card.wine is not None, f"a card for a wine not in the catalog: {text[:200]}"
        assert card.wine.name in text, text[:200]
        assert card.shown_price == int(card.wine.price_rub), text[:200]
        wines.append(card.wine)
    return wines


async def catalog_fingerprint(sessions: async_sessionmaker[AsyncSession]) -> tuple[int, str]:
    """Number of wines and a checksum of every slug, name and price."""
    async with sessions() as session:
        rows = (
            await session.execute(select(Wine.slug, Wine.name, Wine.price_rub).order_by(Wine.slug))
        ).all()
    digest = "|".join(f"{slug}:{name}:{price}" for slug, name, price in rows)
    return len(rows), hashlib.sha256(digest.encode()).hexdigest()
