"""What one turn answers (`Turn`), and what its run carries from step to step (`Run`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.language.reading import Reading
from core.recommendation import Usage
from services.agent._grounding import Request
from services.agent._request_state import RequestState
from services.agent._tool_registry import ToolRegistry

MAX_STEPS = 2  # tool iterations before the final call without tools


@dataclass
class UserContext:
    user_id: int | None = None
    taste_profile: dict[str, Any] = field(default_factory=dict)
    language: str | None = None


@dataclass(frozen=True)
class Turn:
    """Who asks, their message read once, the request in force after it, the conversation
    before it, and how the turn may be answered."""

    user: UserContext
    reading: Reading
    state: RequestState
    history: Sequence[dict[str, Any]] = ()
    tools: ToolRegistry = field(default_factory=lambda: ToolRegistry([]))  # what the model may call
    max_steps: int = MAX_STEPS
    stream_answer: bool = False

    @property
    def text(self) -> str:
        return self.reading.text

    @property
    def request_filters(self) -> WineFilters:
        """The request's effective filters: what a hard-filter guard checks picks against."""
        return self.state.filters


@dataclass
class Run:
    """Mutable bookkeeping of one run of a turn."""

    request_id: str
    started: float
    turn: Turn
    # What the person asked for, as the checks of the model's prose read it (_grounding.py).
    request: Request
    messages: list[dict[str, Any]] = field(default_factory=list)  # this turn's, to be stored
    usage: Usage = field(default_factory=Usage)
    llm_calls: int = 0
    prompt_chars: int = 0
    llm_ms: float = 0.0
    tools_ms: float = 0.0
    tools_called: list[str] = field(default_factory=list)
    trusted_ids: set[uuid.UUID] = field(default_factory=set)
    briefs: list[dict[str, Any]] = field(default_factory=list)  # wines the tools showed the model
    steps: int = 0
    fallback_reason: str | None = None
    # The provider refused a request with the tools (HTTP 400 and the like, which no retry
    # changes): the catalog slice asks without them.
    tools_refused: bool = False
    # Budget bounds of a search that found nothing: the answer may name them as limits
    # («дешевле 500 ₽»), never as prices.
    searched_prices: set[Decimal] = field(default_factory=set)
    # Claims dropped from a model's answer to a wine question (_knowledge_grounding.py).
    dropped_claims: dict[str, int] = field(default_factory=dict)

    @property
    def reading(self) -> Reading:
        return self.turn.reading

    @property
    def state(self) -> RequestState:
        return self.turn.state

    def start_over(self) -> None:
        """What an earlier strategy did with the model is not this one's: only the person's
        message stays."""
        self.messages = self.messages[:1]
        self.trusted_ids = set()
        self.briefs = []
