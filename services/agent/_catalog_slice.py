"""Fallback 1: when tool use fails, one call with a random catalog slice in its late context.

The slice respects what the request says (colour, sweetness, budget…), relaxing the least
important constraint until at least three wines fit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, format_price
from core.errors import LLMRequestError, LLMUnavailableError
from core.language.request import ParsedQuery
from core.recommendation import MAX_WINES
from prompts import fill, load_prompt
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._answer_format import parse_answer
from services.agent._request_state import RequestState
from services.agent._resolve import resolve_picks
from services.agent._run import Run
from services.agent._selection import select_wines
from services.agent._shop_picks import shop_picks
from services.agent._strategies import Declined, Draft, Service, Step

CATALOG_SLICE = 20


class CatalogSlice:
    """The strategy after the agent, for a request: the model chooses from a slice of the
    catalog in its prompt, without calling tools."""

    needs_model = True

    def __init__(self, service: Service) -> None:
        self.service = service

    async def attempt(self, run: Run) -> AsyncIterator[Step]:
        try:
            yield await self._answer(run)
        except (LLMRequestError, LLMUnavailableError) as exc:
            yield Declined(str(exc), model_unreachable=isinstance(exc, LLMUnavailableError))

    async def _answer(self, run: Run) -> Draft:
        service = self.service
        run.start_over()
        slice_ = await catalog_slice(service.sessions, run.reading.query, run.state)
        if not slice_:
            raise LLMRequestError("the catalog is empty")
        # The agent's instructions, tool schemas and turn context, the slice after them: the
        # call repeats the agent's calls from their start. A provider that refused the tools
        # is asked without them.
        slice_text = fill(
            load_prompt("catalog_fallback"), catalog="\n".join(catalog_line(w) for w in slice_)
        )
        context = f"{service.turn_context(run)}\n\n{slice_text}"
        specs = None if run.tools_refused else run.turn.tools.openai_specs() or None
        run.trusted_ids = {w.id for w in slice_}
        run.steps += 1
        history = _without_tool_traffic(run.turn.history)
        messages = service.messages(service.instructions(), history, run, context)
        reply = await service.call(run, messages, specs, tool_choice="none" if specs else None)
        parsed = parse_answer(reply.content)
        wines = await resolve_picks(service.sessions, run, parsed, ())
        if not wines:
            raise LLMRequestError("the catalog prompt produced no valid catalog wine")
        return Draft("catalog_prompt", parsed.intro, wines, parsed.closing)


async def catalog_slice(
    sessions: async_sessionmaker[AsyncSession],
    query: ParsedQuery,
    state: RequestState | None = None,
) -> list[Wine]:
    """Wines for the prompt: the conversation state's best picks first, then random fits;
    without enough of them, random wines for what the message's words ask (`query`), the
    least important condition given up first."""
    if state is not None:
        async with sessions() as session:
            repo = WineRepository(session)
            best = (await select_wines(repo, state)).wines
            shown = set(state.shown)
            # The shop's boosted wines that fit lead the random ones (best is re-ranked already).
            pool = (await shop_picks(session)).rerank(
                [
                    w
                    for w in await repo.random(CATALOG_SLICE * 3, state.filters)
                    if w.id not in shown and state.admits(w) and w not in best
                ]
            )
        if len(best) + len(pool) >= MAX_WINES:
            return (best + pool)[:CATALOG_SLICE]
    filters = query.filters
    async with sessions() as session:
        repo = WineRepository(session)
        wines = await repo.random(CATALOG_SLICE, filters)
        for name in query.relaxation_order():
            if len(wines) >= MAX_WINES:
                break
            filters = filters.model_copy(update={name: None})
            wines = await repo.random(CATALOG_SLICE, filters)
    return wines


def _without_tool_traffic(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        m for m in history if m.get("role") in ("user", "assistant") and not m.get("tool_calls")
    ]


def catalog_line(wine: Wine) -> str:
    place = ", ".join(x for x in (wine.country, wine.region) if x)
    style = f"{WINE_TYPE_RU[wine.wine_type]} {SWEETNESS_RU[wine.sweetness]}"
    return " | ".join(
        [
            str(wine.id),
            wine.name,
            wine.producer,
            place,
            style,
            ", ".join(wine.grape_varieties),
            format_price(wine.price_rub),
            ", ".join(wine.food_pairings[:4]),
        ]
    )
