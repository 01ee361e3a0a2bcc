"""Fallback 1: when tool use fails, one call with a random catalog slice in the prompt.

The slice respects what the request says (colour, sweetness, budget…), relaxing the least
important constraint until at least three wines fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, format_price
from core.errors import LLMRequestError, LLMUnavailableError
from core.language.request import parse_query
from core.recommendation import MAX_WINES, RecommendedWine
from prompts import fill, load_prompt
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.answer_format import FORMAT_INSTRUCTIONS, parse_answer
from services.agent.request_state import RequestState
from services.agent.resolve import resolve_picks
from services.agent.run import Run, UserContext
from services.agent.selection import select_wines
from services.llm.client import LLMReply

CATALOG_SLICE = 20


class Agent(Protocol):
    """What the fallback needs of the agent (services.agent.loop.SommelierService), named
    here so that the two modules do not import each other."""

    sessions: async_sessionmaker[AsyncSession]

    def context_block(self, user: UserContext) -> str: ...

    def messages(
        self, system: str, history: Sequence[dict[str, Any]], run: Run
    ) -> list[dict[str, Any]]: ...

    async def call(
        self,
        run: Run,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_delta: Any = None,
    ) -> LLMReply: ...


async def answer_from_catalog_slice(
    agent: Agent, run: Run, user: UserContext, history: Sequence[dict[str, Any]]
) -> tuple[str, list[RecommendedWine], str]:
    run.turn = run.turn[:1]
    run.trusted_ids = set()
    slice_ = await catalog_slice(agent, run.text, run.state)
    if not slice_:
        raise LLMUnavailableError("the catalog is empty")
    system = fill(
        load_prompt("catalog_fallback"),
        answer_format=FORMAT_INSTRUCTIONS,
        context=agent.context_block(user)
        + ("\n" + run.state.prompt_block() if run.state is not None else ""),
        catalog="\n".join(catalog_line(w) for w in slice_),
    )
    run.trusted_ids = {w.id for w in slice_}
    run.steps += 1
    messages = agent.messages(system, _without_tool_traffic(history), run)
    try:
        reply = await agent.call(run, messages, None)
    except LLMRequestError as exc:
        raise LLMUnavailableError(str(exc)) from exc
    parsed = parse_answer(reply.content)
    wines = await resolve_picks(agent.sessions, run, parsed, ())
    if not wines:
        raise LLMUnavailableError("the catalog prompt produced no valid catalog wine")
    return parsed.intro, wines, parsed.closing


async def catalog_slice(agent: Agent, text: str, state: RequestState | None = None) -> list[Wine]:
    """Wines for the prompt: the conversation state's best picks first, then random fits."""
    if state is not None:
        async with agent.sessions() as session:
            repo = WineRepository(session)
            best = (await select_wines(repo, state)).wines
            shown = set(state.shown)
            pool = [
                w
                for w in await repo.random(CATALOG_SLICE * 3, state.filters)
                if w.id not in shown and state.admits(w) and w not in best
            ]
        if len(best) + len(pool) >= MAX_WINES:
            return (best + pool)[:CATALOG_SLICE]
    parsed = parse_query(text)
    filters = parsed.filters
    async with agent.sessions() as session:
        repo = WineRepository(session)
        wines = await repo.random(CATALOG_SLICE, filters)
        for name in parsed.relaxation_order():
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
