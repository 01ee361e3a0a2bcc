"""Storing a turn: the step every answer that is kept ends with. Its messages (when it goes on
a conversation), the answer's row, its request facts and whatever the caller adds to the same
transaction (the bot: the plan of the answer's delivery) stand or fall together; then the
answer is counted, measured and logged.

The answers log is written here: one structured line per answer kept, and per refusal, on the
`sommelier.answers` logger. The message is the JSON object itself; with LOG_FORMAT=json
(sommelier/logs.py) the whole line is that object plus time, level and logger. Never the
user's text, never a key.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from core.recommendation import Recommendation
from repositories.facts import record_fact
from repositories.turns import Thread, store_turn
from services.app.database import Database, Transaction
from services.app.facts.recorder import FactRecorder, new_fact_id, note_unmet_name
from services.app.ops.metrics import observe_answer

#: Work the caller adds to the turn's transaction, given the answer being stored; raising
#: rolls the whole turn back.
WithTurn = Callable[[Transaction, Recommendation], Awaitable[None]]

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
        """The whole turn in one transaction (`thread`: the conversation it went on with;
        None: not remembered), then its log line."""
        line = _answer_line(user_id, rec)  # written once the turn is kept
        fact_id = new_fact_id()
        rec.fact_id = fact_id
        self._recorder.track_links(rec, fact_id)  # «Купить» through /go/ (with a public URL)
        await note_unmet_name(self._database.single, rec)
        async with self._database.transactions() as tx:
            await store_turn(tx, user_id, thread, rec)
            if with_turn is not None:
                await with_turn(tx, rec)
            await record_fact(tx, self._recorder.values(fact_id, user_id, rec))
            await tx.commit()
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
