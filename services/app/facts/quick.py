"""Request facts of the answers that are not stored as a conversation turn: inline queries and
group mentions (the catalog's quick picks). Recording never fails the answer itself."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from core.errors import DatabaseUnavailableError
from core.recommendation import Recommendation, RecommendedWine
from repositories.facts import record_fact
from services.app.database import DATABASE_ERRORS, SessionFactory
from services.app.facts.recorder import FactRecorder, new_fact_id
from services.app.ops.metrics import observe_answer

log = logging.getLogger(__name__)


async def record_quick(
    sessions: SessionFactory,
    recorder: FactRecorder,
    path: str,
    user_id: int | None,
    text: str,
    wines: Sequence[RecommendedWine],
    started: float,
) -> None:
    """`started`: `time.perf_counter()` when the request came in."""
    rec = Recommendation(intro="", wines=list(wines), closing="", path=path)  # type: ignore[arg-type]
    rec.timings_ms["total"] = (time.perf_counter() - started) * 1000
    fact_id = new_fact_id()
    recorder.track_links(rec, fact_id)  # an inline card's «Купить» goes through /go/ too
    try:
        async with sessions() as s:
            # A group's messages are not kept (/privacy): its conditions only, not its words.
            values = recorder.values(
                new_fact_id(), user_id, rec, text, keep_wording=path != "group"
            )
            await record_fact(s, values)
            await s.commit()
    except (
        DatabaseUnavailableError,
        *DATABASE_ERRORS,
    ) as exc:  # the picks are already made: they are sent all the same
        log.warning("request facts of a %s answer not recorded: %s", path, type(exc).__name__)
    observe_answer(rec)
