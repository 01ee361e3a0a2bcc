"""Picks for a group chat's "table": one request (the summoning message and the message it
replies to), answered from the catalog without a model and without storing anything.

A reply to the bot's own group answer («а подешевле») refines that answer: the adapter hands
back the request and the wines that answer showed (both are read from the answer itself), and
the same conversation logic as a private chat's follow-ups moves on from there.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.recommendation import RecommendedWine
from services.agent import catalog_picks
from services.app.database import Database, database_errors_as_unavailable
from services.app.facts.quick import record_quick
from services.app.facts.recorder import FactRecorder

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


class GroupTable:
    def __init__(self, database: Database, recorder: FactRecorder) -> None:
        self._database = database
        self._recorder = recorder

    async def picks(
        self, text: str, earlier: EarlierAnswer | None = None, user_id: int | None = None
    ) -> TablePicks:
        """Picks for a group's request; its request facts are recorded (its words are not)."""
        started = time.perf_counter()
        with database_errors_as_unavailable():
            picks = await table_picks(self._database.raw, text, earlier)
        await record_quick(
            self._database.sessions, self._recorder, "group", user_id, text, picks.wines, started
        )
        return picks


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
    wines = await catalog_picks(sessions, text, history, profile)
    request = text if earlier is None else f"{earlier.request}, {text}"
    return TablePicks(request[:MAX_REQUEST_CHARS], wines)
