"""Picks for a group chat's "table": one request (the summoning message and the message it
replies to), answered from the catalog without a model and without storing anything.

A reply to the bot's own group answer («а подешевле») refines that answer: the adapter hands
back the request and the wines that answer showed (both are read from the answer itself), and
the same conversation logic as a private chat's follow-ups moves on from there.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.language.request import parse_query
from core.recommendation import RecommendedWine
from repositories.wines import WineRepository
from services.agent.conversation import conversation_state
from services.agent.offline import explain
from services.agent.selection import select_wines

MAX_REQUEST_CHARS = 500


@dataclass(frozen=True)
class EarlierAnswer:
    """The bot's earlier answer in the group: what was asked and which wines it showed."""

    request: str
    wine_ids: Sequence[uuid.UUID]


@dataclass(frozen=True)
class TablePicks:
    request: str  # the request in force (for the answer's first line, read back on a reply)
    wines: list[RecommendedWine]


async def table_picks(
    sessions: async_sessionmaker[AsyncSession],
    text: str,
    earlier: EarlierAnswer | None = None,
    profile: dict[str, Any] | None = None,
) -> TablePicks:
    text = " ".join(text.split())[:MAX_REQUEST_CHARS]
    history: list[dict[str, Any]] = []
    if earlier is not None:
        history = [
            {"role": "user", "content": earlier.request},
            {"role": "assistant", "content": "\n".join(f"[WINE:{i}]" for i in earlier.wine_ids)},
        ]
    state = await conversation_state(sessions, history, text)
    async with sessions() as session:
        selection = await select_wines(WineRepository(session), state, profile)
    parsed = parse_query(text)
    wines = [RecommendedWine.from_wine(w, explain(w, parsed, state)) for w in selection.wines]
    request = text if earlier is None else f"{earlier.request}, {text}"
    return TablePicks(request[:MAX_REQUEST_CHARS], wines)
