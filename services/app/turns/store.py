"""Storing a turn: the step every answer that is kept ends with. Its messages (when it goes on
a conversation), the answer's row, its request facts and what the caller keeps with it (the
bot: the plan of the answer's delivery) are one statement: they stand or fall together. Then
the answer is counted, measured and logged.

The answers log is written here: one structured line per answer kept, and per refusal, on the
`sommelier.answers` logger. The message is the JSON object itself; with LOG_FORMAT=json
(sommelier/logs.py) the whole line is that object plus time, level and logger. Never the
user's text, never a key.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.errors import LeaseLostError
from core.recommendation import Recommendation
from repositories.turns import Plan, Thread, store_turn
from services.app.database import Database
from services.app.facts.recorder import FactRecorder, new_fact_id, note_unmet_name
from services.app.ops.metrics import observe_answer


@dataclass(frozen=True)
class WithTurn:
    """What the caller keeps with the turn, in its one statement: the plan of the answer's
    delivery (made from the answer being stored) in the row of the update it answers, while
    `owner` holds that update. Taken over meanwhile: nothing of the turn is kept."""

    update_id: int
    owner: str
    plan_of: Callable[[Recommendation], dict[str, Any]]


__all__ = ["Thread", "TurnStore", "WithTurn", "log_refusal"]

answers_log = logging.getLogger("sommelier.answers")


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
        """The whole turn in one statement (`thread`: the conversation it went on with;
        None: not remembered), then its log line. LeaseLostError: `with_turn`'s update was
        taken over meanwhile (nothing was kept)."""
        line = _answer_line(user_id, rec)  # written once the turn is kept
        fact_id = new_fact_id()
        rec.fact_id = fact_id
        self._recorder.track_links(rec, fact_id)  # «Купить» through /go/ (with a public URL)
        await note_unmet_name(self._database.single, rec)
        fact = self._recorder.values(fact_id, user_id, rec)
        plan = None
        if with_turn is not None:
            plan = Plan(with_turn.update_id, with_turn.owner, with_turn.plan_of(rec))
        async with self._database.statements() as conn:
            kept = await store_turn(conn, user_id, thread, rec, fact, plan)
        if plan is not None and not kept:
            raise LeaseLostError(f"update {plan.update_id} was taken over before its answer")
        # Only an answer that was kept is an answer: a failed store becomes a refusal instead.
        self.answers_by_path[rec.path] += 1
        observe_answer(rec)
        answers_log.info(json.dumps(line, ensure_ascii=False), extra={"fields": line})


def _answer_line(user_id: int | None, rec: Recommendation) -> dict[str, Any]:
    return {
        "event": "answer",
        "user_id": user_id,
        "path": rec.path,
        "tools": list(rec.tools_called),
        "llm_calls": rec.llm_calls,
        "tokens": rec.usage.total_tokens or None,
        "wines": len(rec.wines),
        "ms": round(rec.timings_ms.get("total", 0.0)),
        "fallback": rec.fallback_reason,
        # Claims of the model's prose dropped as false or unconfirmed, by kind (no text).
        "dropped_claims": dict(rec.dropped_claims),
        "kind": rec.kind,
        "manipulation": rec.manipulation,
    }


def log_refusal(who: int | str | None, reason: str) -> None:
    """A message answered with a refusal instead of wines (rate limit, too long, database)."""
    line = {"event": "refusal", "user_id": who, "reason": reason}
    answers_log.info(json.dumps(line, ensure_ascii=False), extra={"fields": line})
