"""What one run of the agent carries from step to step, and who it answers."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.domain import WineFilters
from core.language.kinds import MessageKind, MessageReading
from core.recommendation import Usage
from services.agent.request_state import RequestState

MAX_STEPS = 2  # tool iterations before the final call without tools


@dataclass
class UserContext:
    user_id: int | None = None
    taste_profile: dict[str, Any] = field(default_factory=dict)
    language: str | None = None


class ToolUseFailedError(Exception):
    """The agent path produced no valid wine; the catalog prompt takes over."""


@dataclass
class Run:
    """Mutable bookkeeping of one run."""

    request_id: str
    started: float
    text: str
    usage: Usage = field(default_factory=Usage)
    llm_calls: int = 0
    prompt_chars: int = 0
    llm_ms: float = 0.0
    tools_ms: float = 0.0
    tools_called: list[str] = field(default_factory=list)
    trusted_ids: set[uuid.UUID] = field(default_factory=set)
    steps: int = 0
    turn: list[dict[str, Any]] = field(default_factory=list)
    fallback_reason: str | None = None
    # The conversation state (services/agent/conversation.RequestState) this turn answers and
    # its effective filters: what a hard-filter guard checks picks against.
    state: RequestState | None = None
    request_filters: WineFilters = field(default_factory=WineFilters)
    # Budget bounds of a search that found nothing: the answer may name them as limits
    # («дешевле 500 ₽»), never as prices.
    searched_prices: set[Decimal] = field(default_factory=set)
    # What the message is (core/language/kinds.py): a request, a wine question, small talk…
    reading: MessageReading = field(default_factory=lambda: MessageReading(MessageKind.request))
    # Claims dropped from a model's answer to a wine question (knowledge_grounding.py).
    dropped_claims: dict[str, int] = field(default_factory=dict)
