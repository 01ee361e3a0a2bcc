"""A turn, whole: what it starts from (the person's kept taste, their open conversation and
its history), read in one statement; the answer (the agent's to the admitted words, see
turns/admission.py, or one made another way: the welcome, «Похожие», a label's photo); and the
turn kept in one statement before the answer's final event is passed on. Its messages (when it
goes on a conversation), the answer's row, its request facts and what the caller keeps with it
(the bot: the plan of the answer's delivery) stand or fall together; then the answer is
counted, measured and logged (the answers log: turns/answers_log.py)."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from core.errors import LeaseLostError
from core.recommendation import Recommendation
from repositories.turn_store import Plan, store_turn
from repositories.turns import Thread, TurnStart, turn_start
from services.agent import MAX_STEPS, AgentEvent, Final, SommelierService, UserContext
from services.app.database import Database, database_errors_as_unavailable
from services.app.facts.recorder import FactRecorder, new_fact_id, note_unmet_name
from services.app.ops.metrics import observe_answer
from services.app.turns.answers_log import answer_figures, answers_log, log_refusal

#: What answers a turn, given what it starts from: events ending with the answer (`Final`).
Answering = Callable[[TurnStart], AsyncIterator[AgentEvent]]


@dataclass(frozen=True)
class WithTurn:
    """What the caller keeps with the turn, in its one statement: the plan of the answer's
    delivery (made from the answer being stored) in the row of the update it answers, while
    `owner` holds that update. Taken over meanwhile: nothing of the turn is kept."""

    update_id: int
    owner: str
    plan_of: Callable[[Recommendation], dict[str, Any]]


class Turns:
    def __init__(
        self,
        database: Database,
        sommelier: SommelierService,
        recorder: FactRecorder,
        inactivity: timedelta,
    ) -> None:
        self._database = database
        self._sommelier = sommelier
        self._recorder = recorder
        self._inactivity = inactivity
        self.answers_by_path: Counter[str] = Counter()  # kept since the process started

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
        return await final_answer(
            self.stream(user_id, text, remember=remember, with_turn=with_turn)
        )

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
        page: str | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """The agent's events; the turn is stored (with `with_turn` in its statement) before
        the final event is passed on.

        `remember=False` answers one question with the user's taste profile but outside their
        conversation (nothing read from or added to it). `page`: the wine of the shop's page
        the web chat is on (its id or the shop's product id), which joins the conversation
        with this turn unless it is there already.
        """

        def agent(start: TurnStart) -> AsyncIterator[AgentEvent]:
            return self._sommelier.stream(
                UserContext(user_id, start.taste, start.language_code),
                text,
                start.history,
                tools_allowlist=tools_allowlist,
                max_steps=max_steps,
                request_id=request_id,
                stream_answer=stream_answer,
            )

        async for event in self.turn(
            user_id, agent, remember=remember, with_turn=with_turn, page=page
        ):
            yield event

    async def turn(
        self,
        user_id: int | None,
        answering: Answering,
        *,
        remember: bool = True,
        with_turn: WithTurn | None = None,
        page: str | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """What the turn starts from, in one statement (a person not seen before is registered;
        no person: nothing), `answering`'s events, and the whole turn kept in one statement
        before its final event is passed on (`remember=False`: outside the conversation). Then
        the answer's log line. LeaseLostError: `with_turn`'s update was taken over meanwhile
        (nothing was kept)."""
        start, thread = TurnStart(), None
        if user_id is not None:
            async with self._database.statements() as conn:
                start = await turn_start(
                    conn, user_id, self._inactivity, remember=remember, page=page
                )
            thread = Thread(start.conversation_id, start.page_wine) if remember else None
        with database_errors_as_unavailable():
            async for event in answering(start):
                if isinstance(event, Final):
                    rec = event.result
                    fact_id, plan = await self._before_keeping(rec, with_turn)
                    fact = self._recorder.values(fact_id, user_id, rec)
                    async with self._database.statements() as conn:
                        kept = await store_turn(conn, user_id, thread, rec, fact, plan)
                    if plan is not None and not kept:
                        raise LeaseLostError(
                            f"update {plan.update_id} was taken over before its answer"
                        )
                    # Only an answer that was kept is an answer: a failed store is a refusal.
                    self.answers_by_path[rec.path] += 1
                    observe_answer(rec)
                    line = {"event": "answer", "user_id": user_id, **answer_figures(rec)}
                    answers_log.info(json.dumps(line, ensure_ascii=False), extra={"fields": line})
                yield event

    async def _before_keeping(
        self, rec: Recommendation, with_turn: WithTurn | None
    ) -> tuple[uuid.UUID, Plan | None]:
        """The answer's fact id (its links tracked, a name it lacks noted), and the plan of its
        delivery when the caller keeps one."""
        fact_id = rec.fact_id = new_fact_id()
        self._recorder.track_links(rec, fact_id)  # «Купить» through /go/ (with a public URL)
        await note_unmet_name(self._database.single, rec)
        if with_turn is None:
            return fact_id, None
        return fact_id, Plan(with_turn.update_id, with_turn.owner, with_turn.plan_of(rec))


async def final_answer(events: AsyncIterator[AgentEvent]) -> Recommendation:
    """The answer a turn's events end with."""
    async for event in events:
        if isinstance(event, Final):
            return event.result
    raise RuntimeError("the turn's events ended without a final event")
