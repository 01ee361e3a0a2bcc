"""Catalog answers without a model, fast enough for Telegram's inline and guest deadlines.

An inline query (`@bot белое к рыбе до 1500`) is read with the same request reader and filters
as a private chat's search; a query that names no filter is looked up in the catalog's
full-text index; an empty one gets today's picks. Nothing here calls the LLM.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

from core.domain import WINE_TYPE_RU
from core.language.catalog_terms import query_words
from core.language.request import parse_query
from core.recommendation import RecommendedWine
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent import WelcomeWriter, catalog_why, first_sentence
from services.app.database import Database, database_errors_as_unavailable
from services.app.facts.quick import record_quick
from services.app.facts.recorder import FactRecorder
from services.app.taste.profiles import TasteProfiles

PAGE_SIZE = 10
# Deeper pages than this are not worth a scan: nobody scrolls 200 inline results.
MAX_OFFSET = 200
MAX_QUERY_CHARS = 256  # Telegram's own limit for an inline query's text
SHARE_PREFIX = "wine:"


@dataclass(frozen=True)
class QuickPage:
    """One page of catalog wines for an inline query."""

    wines: list[RecommendedWine]
    kind: str  # picks | search | wine | none
    next_offset: int | None = None
    personal: bool = False


def read_offset(raw: str) -> int:
    """Telegram echoes our own next_offset back; anything else starts from the top."""
    return int(raw) if raw.isdigit() and int(raw) <= MAX_OFFSET else 0


def shared_wine_id(query: str) -> uuid.UUID | None:
    """The wine a «Поделиться» query names ("wine:<hex>"), or None."""
    text = query.strip()
    if not text.lower().startswith(SHARE_PREFIX):
        return None
    try:
        return uuid.UUID(hex=text[len(SHARE_PREFIX) :].strip())
    except ValueError:
        return None


class QuickPicks:
    def __init__(
        self,
        database: Database,
        welcome: WelcomeWriter,
        taste: TasteProfiles,
        recorder: FactRecorder,
    ) -> None:
        self._database = database
        self._sessions = database.raw
        self._welcome = welcome
        self._taste = taste
        self._recorder = recorder

    async def for_person(self, user_id: int | None, query: str, offset: int = 0) -> QuickPage:
        """Catalog wines for an inline query: no LLM, nothing stored but the request's facts;
        an empty query gets today's picks for the person's taste."""
        profile: dict[str, Any] = {}
        if user_id is not None and not query.strip():
            profile = await self._taste.merged(user_id)
        started = time.perf_counter()
        with database_errors_as_unavailable():
            page = await self.for_query(query, offset, profile)
        if offset == 0 and not query.startswith(SHARE_PREFIX):  # a shared card is no request
            await record_quick(
                self._database.sessions,
                self._recorder,
                "inline",
                user_id,
                query,
                page.wines,
                started,
            )
        return page

    async def for_query(
        self,
        query: str,
        offset: int = 0,
        profile: dict[str, Any] | None = None,
        limit: int = PAGE_SIZE,
    ) -> QuickPage:
        """Wines for an inline query: one page from `offset`."""
        text = query.strip()[:MAX_QUERY_CHARS]
        wine_id = shared_wine_id(text)
        if wine_id is not None:
            return await self.one(wine_id)
        if not text:
            return await self.today(profile or {}) if offset == 0 else QuickPage([], "picks")
        parsed = parse_query(text)
        filters = parsed.filters
        async with self._sessions() as session:
            repo = WineRepository(session)
            if not filters.is_empty():
                found = await repo.search(filters, limit=limit + 1, offset=offset)
            else:
                words = query_words(text)
                found = (
                    await repo.text_search(" ".join(words), k=offset + limit + 1) if words else []
                )[offset:]
        more = len(found) > limit
        wines = [RecommendedWine.from_wine(w, catalog_why(w, filters)) for w in found[:limit]]
        return QuickPage(
            wines,
            "search" if wines else "none",
            offset + limit if more and offset + limit <= MAX_OFFSET else None,
        )

    async def one(self, wine_id: uuid.UUID) -> QuickPage:
        async with self._sessions() as session:
            found = await WineRepository(session).get_by_ids([wine_id])
        wines = [RecommendedWine.from_wine(w, _style_why(w)) for w in found if w.available]
        return QuickPage(wines, "wine" if wines else "none")

    async def today(self, profile: dict[str, Any]) -> QuickPage:
        wines = await self._welcome.picks(self._welcome.day(), profile)
        picks = [RecommendedWine.from_wine(w, _style_why(w)) for w in wines]
        return QuickPage(picks, "picks" if picks else "none", personal=bool(profile))


def _style_why(wine: Wine) -> str:
    return f"{WINE_TYPE_RU[wine.wine_type].capitalize()} — {first_sentence(wine.description)}"
