"""A text turn: the person's words (once admitted: turns/admission.py), answered by the agent
with their conversation and taste, and stored whole before the answer's final event is passed
on."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from typing import Any

from core.recommendation import Recommendation
from repositories.turns import Thread, TurnStart, turn_start
from services.agent import MAX_STEPS, AgentEvent, Final, SommelierService, UserContext
from services.app.database import Database, database_errors_as_unavailable
from services.app.turns.store import TurnStore, WithTurn, log_refusal


class Turns:
    def __init__(
        self,
        database: Database,
        sommelier: SommelierService,
        store: TurnStore,
        inactivity: timedelta,
    ) -> None:
        self._database = database
        self._sommelier = sommelier
        self._store = store
        self._inactivity = inactivity

    def refused(self, who: int | None, reason: str) -> None:
        """A message answered with a refusal of another kind (a photo that cannot be read, the
        database away…): it gets its log line too."""
        log_refusal(who, reason)

    def tool_names(self) -> list[str]:
        return list(self._sommelier.registry.names)

    def tool_specs(self) -> list[dict[str, Any]]:
        """The exact tool schemas the model is sent."""
        return self._sommelier.registry.openai_specs()

    async def answer(
        self,
        user_id: int | None,
        text: str,
        *,
        remember: bool = True,
        with_turn: WithTurn | None = None,
    ) -> Recommendation:
        """One turn: load the conversation, run the agent, store the whole turn at once."""
        async for event in self.stream(user_id, text, remember=remember, with_turn=with_turn):
            if isinstance(event, Final):
                return event.result
        raise RuntimeError("the agent stream ended without a final event")

    async def stream(
        self,
        user_id: int | None,
        text: str,
        *,
        tools_allowlist: Sequence[str] | None = None,
        max_steps: int = MAX_STEPS,
        request_id: str | None = None,
        stream_answer: bool = False,
        remember: bool = True,
        with_turn: WithTurn | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """The agent's events; the turn is stored (with `with_turn` in its transaction) before
        the final event is passed on.

        `remember=False` answers one question with the user's taste profile but outside their
        conversation (nothing read from or added to it).
        """
        context = UserContext(user_id)
        thread: Thread | None = None
        history: list[dict[str, Any]] = []
        if user_id is not None:
            start = await self._start(user_id, remember)
            context = UserContext(user_id, start.taste, start.language_code)
            history = start.history
            thread = Thread(start.conversation_id) if remember else None
        with database_errors_as_unavailable():
            async for event in self._sommelier.stream(
                context,
                text,
                history,
                tools_allowlist=tools_allowlist,
                max_steps=max_steps,
                request_id=request_id,
                stream_answer=stream_answer,
            ):
                if isinstance(event, Final):
                    await self._store.store(user_id, thread, event.result, with_turn)
                yield event

    async def _start(self, user_id: int, remember: bool) -> TurnStart:
        """What the turn starts from, in one statement (a person not seen before is registered)."""
        async with self._database.statements() as conn:
            return await turn_start(conn, user_id, self._inactivity, remember=remember)
