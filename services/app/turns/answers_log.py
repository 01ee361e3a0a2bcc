"""The answers log: one structured line per answer kept (services/app/turns/turns.py,
`Turns.turn`), and per refusal, on the `sommelier.answers` logger. The message is the JSON
object itself; with LOG_FORMAT=json (sommelier/logs.py) the whole line is that object plus
time, level and logger. Never the user's text, never a key.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from core.recommendation import Recommendation

answers_log = logging.getLogger("sommelier.answers")


def answer_figures(rec: Recommendation) -> dict[str, Any]:
    """What an answer's line says of the answer (beside its event and person)."""
    return {
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
