"""The ways a turn can be answered, tried in order until one answers.

Each strategy has one interface: it yields the events of its work and then one outcome — a
`Draft` (the prose around up to three cards, before `_finish` cleans and checks it) or
`Declined` with the reason it gave way. The service runs a list of them in order, the way a
fallback model passes a request to the next model when one fails: for a request, the agent
with tools → a prompt with a slice of the catalog → deterministic offline picks; for a wine
question or small talk, the agent → the reviewed answer; for what is declined or answered
with reviewed words on every path, the reviewed answer alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.recommendation import Path, RecommendedWine
from services.agent._day_context import DayContext
from services.agent._events import AgentEvent
from services.agent._prompt_guard import PromptGuard
from services.agent._run import Run, UserContext
from services.llm.client import LLMClient, LLMReply


@dataclass(frozen=True)
class Draft:
    """An answer before it is finished: what a strategy wrote around the cards it chose."""

    path: Path
    intro: str
    wines: list[RecommendedWine] = field(default_factory=list)
    closing: str = ""

    @property
    def empty(self) -> bool:
        return not self.intro.strip() and not self.wines


@dataclass(frozen=True)
class Declined:
    """A strategy gave way, and why (the answer's `fallback_reason` is the first one)."""

    reason: str
    # No model answers at all: the strategies that need one give way too, unasked.
    model_unreachable: bool = False


Step = AgentEvent | Draft | Declined


class Strategy(Protocol):
    needs_model: bool

    def attempt(self, run: Run) -> AsyncIterator[Step]:
        """The events of the attempt, then exactly one `Draft` or `Declined`."""
        ...


class Service(Protocol):
    """What the strategies need of the service (services.agent._service.SommelierService)."""

    sessions: async_sessionmaker[AsyncSession]
    llm: LLMClient
    guard: PromptGuard

    def day(self) -> DayContext: ...

    def instructions(self) -> str: ...

    def context_block(self, user: UserContext) -> str: ...

    def turn_context(self, run: Run) -> str: ...

    def messages(
        self, system: str, history: Sequence[dict[str, Any]], run: Run, context: str = ""
    ) -> list[dict[str, Any]]: ...

    async def call(
        self,
        run: Run,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_delta: Any = None,
        tool_choice: str | None = None,
    ) -> LLMReply: ...


async def first_answer(
    strategies: Sequence[Strategy], run: Run
) -> AsyncIterator[AgentEvent | Draft]:
    """Each strategy in turn until one drafts an answer: its events, then the `Draft`."""
    unreachable = False
    for strategy in strategies:
        if unreachable and strategy.needs_model:
            continue
        async for step in strategy.attempt(run):
            if isinstance(step, Declined):
                run.fallback_reason = run.fallback_reason or step.reason
                unreachable = unreachable or step.model_unreachable
                break
            yield step
            if isinstance(step, Draft):
                return
    raise RuntimeError("every strategy gave way; the last one must always answer")
