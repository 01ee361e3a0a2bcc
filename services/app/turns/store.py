"""Storing a turn: the step every answer that is kept ends with. Its messages (when it goes on
a conversation), the answer's row, its request facts and whatever the caller adds to the same
transaction (the bot: the plan of the answer's delivery) stand or fall together; then the
answer is counted, logged and measured."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable

from core.recommendation import Recommendation
from repositories.facts import record_fact
from repositories.turns import Thread, store_turn_messages
from repositories.users import record_answer
from services.app.database import Database, Transaction
from services.app.facts.recorder import FactRecorder, new_fact_id, note_unmet_name
from services.app.ops.metrics import observe_answer
from services.app.turns.answer_log import log_answer

#: Work the caller adds to the turn's transaction, given the answer being stored; raising
#: rolls the whole turn back.
WithTurn = Callable[[Transaction, Recommendation], Awaitable[None]]

__all__ = ["Thread", "TurnStore", "WithTurn"]


class TurnStore:
    def __init__(self, database: Database, recorder: FactRecorder) -> None:
        self._database = database
        self._recorder = recorder
        self.answers_by_path: Counter[str] = Counter()  # since the process started

    async def store(
        self,
        user_id: int | None,
        thread: Thread | None,
        rec: Recommendation,
        with_turn: WithTurn | None = None,
    ) -> None:
        """The whole turn in one transaction (`thread`: the conversation it went on with;
        None: not remembered)."""
        fact_id = new_fact_id()
        self._recorder.track_links(rec, fact_id)  # «Купить» through /go/ (with a public URL)
        await note_unmet_name(self._database.single, rec)
        async with self._database.transactions() as tx:
            if thread is not None and user_id is not None:
                await store_turn_messages(
                    tx, user_id, thread.conversation_id, rec.new_messages, [w.id for w in rec.wines]
                )
            await record_answer(
                tx, user_id, rec.path, rec.llm_calls, int(rec.timings_ms.get("total", 0))
            )
            if with_turn is not None:
                await with_turn(tx, rec)
            await record_fact(tx, self._recorder.values(fact_id, user_id, rec))
            await tx.commit()
        # Only an answer that was kept is an answer: a failed store becomes a refusal instead.
        self.answers_by_path[rec.path] += 1
        log_answer(user_id, rec)
        observe_answer(rec)
