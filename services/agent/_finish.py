"""The end of every path: the model's prose cleaned, the turn recorded, the answer built.

No quotation of the instructions, no links, no prices nobody gave, no claim about a wine its
catalog row does not bear out reach the user.
"""

from __future__ import annotations

import time
from collections import Counter

from core.recommendation import Recommendation
from services.agent._answer_format import render_answer
from services.agent._grounding import GroundingReport, ground_answer
from services.agent._history import repair_pairing
from services.agent._prompt_guard import REFUSAL, PromptGuard
from services.agent._run import Run
from services.agent._safety import allowed_prices, without_false_prices, without_links
from services.agent._strategies import Draft

MODEL_PATHS = ("agent", "catalog_prompt")  # where the model wrote the prose around the cards


def finish_run(guard: PromptGuard, run: Run, draft: Draft) -> Recommendation:
    path, wines = draft.path, draft.wines
    intro = without_links(guard.clean(draft.intro, REFUSAL))
    closing = without_links(guard.clean(draft.closing))
    for wine in wines:
        wine.why = without_links(guard.clean(wine.why))
    report = GroundingReport()
    grounding_started = time.perf_counter()
    if wines and path in MODEL_PATHS:
        # What the model said about the wines is checked against the catalog (_grounding.py).
        intro, closing, report = ground_answer(
            run.request, intro, wines, closing, run.searched_prices
        )
    else:
        prices = allowed_prices([w.price_rub for w in wines], run.request.asked)
        limits = run.searched_prices
        intro = without_false_prices(intro, prices, limits)
        closing = without_false_prices(closing, prices, limits)
    grounding_ms = (time.perf_counter() - grounding_started) * 1000
    content = (
        render_answer(intro, [(str(w.id), w.why) for w in wines], closing)
        if wines
        else "\n\n".join(p for p in (intro, closing) if p)
    )
    run.messages.append({"role": "assistant", "content": content})
    total_ms = (time.perf_counter() - run.started) * 1000
    return Recommendation(
        intro=intro,
        wines=wines,
        closing=closing,
        path=path,
        tools_called=run.tools_called,
        llm_calls=run.llm_calls,
        usage=run.usage,
        prompt_chars=run.prompt_chars,
        timings_ms={
            "total": total_ms,
            "llm": run.llm_ms,
            "tools": run.tools_ms,
            "overhead": max(0.0, total_ms - run.llm_ms),
            "grounding": grounding_ms,
        },
        fallback_reason=run.fallback_reason,
        new_messages=repair_pairing(run.messages),
        dropped_claims=dict(report.dropped + Counter(run.dropped_claims)),
        why_sentences=report.why_sentences,
        why_sentences_kept=report.why_kept,
    )
