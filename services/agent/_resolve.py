"""The model's picks turned into real catalog wines: only ids it was shown, or an exact name."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import WineFilters
from core.recommendation import MAX_WINES, RecommendedWine
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._answer_format import ParsedAnswer
from services.agent._pooled_reads import read_wines
from services.agent._run import Run
from services.agent._wine_handles import id_for, is_handle


async def resolve_picks(
    sessions: async_sessionmaker[AsyncSession],
    run: Run,
    parsed: ParsedAnswer,
    history: Sequence[dict[str, Any]],
) -> list[RecommendedWine]:
    """Only wines that exist: ids seen in tool results, else an exact catalog name."""
    allowed = run.trusted_ids | _ids_in_history(history)
    # The request's colour, sweetness, country and price: no card may contradict them — unless
    # the catalog has no such wine, when the nearest alternatives are the honest answer.
    request = run.turn.request_filters.hard()
    wines: list[RecommendedWine] = []
    async with sessions() as session:
        repo = WineRepository(session)
        picked = await _lookup_all(sessions, repo, [pick.ref for pick in parsed.picks], allowed)
        contradicting = any(w is not None and not request.admits(w) for w in picked)
        if contradicting and not await repo.search(request, limit=1):
            request = WineFilters()
    for pick, wine in zip(parsed.picks, picked, strict=True):
        if wine is None or any(w.id == wine.id for w in wines) or not request.admits(wine):
            continue
        if not run.state.admits(wine):
            continue  # a country group or an exclusion («без Франции») of the request
        # The why is checked against this row when the answer is finished (_grounding.py).
        wines.append(RecommendedWine.from_wine(wine, pick.why, row=wine))
        if len(wines) == MAX_WINES:
            break
    return wines


async def _lookup_all(
    sessions: async_sessionmaker[AsyncSession],
    repo: WineRepository,
    refs: Sequence[str],
    allowed: set[uuid.UUID],
) -> list[Wine | None]:
    """Each ref's wine on sale: the ids (or handles) the model was shown in one read, names one
    by one."""
    ids = [id_for(ref, allowed) for ref in refs]
    wanted = [i for i in ids if i is not None and i in allowed]
    by_id = {w.id: w for w in await read_wines(sessions, repo, wanted)} if wanted else {}
    found: list[Wine | None] = []
    for ref, wine_id in zip(refs, ids, strict=True):
        if wine_id is None:
            # A handle of no wine the model was shown is no name either.
            found.append(None if is_handle(ref) else await repo.find_by_name(ref))
            continue
        wine = by_id.get(wine_id)
        # A wine the shop no longer sells is never recommended, even when history names it.
        found.append(wine if wine is not None and wine.available else None)
    return found


def _ids_in_history(history: Sequence[dict[str, Any]]) -> set[uuid.UUID]:
    """Wine ids the model saw in earlier tool results of this conversation."""
    ids: set[uuid.UUID] = set()
    for message in history:
        if message.get("role") != "tool":
            continue
        try:
            payload = json.loads(message.get("content") or "{}")
        except json.JSONDecodeError:
            continue
        for wine in payload.get("wines", []) if isinstance(payload, dict) else []:
            try:
                ids.add(uuid.UUID(str(wine.get("id"))))
            except (ValueError, AttributeError):
                continue
    return ids
