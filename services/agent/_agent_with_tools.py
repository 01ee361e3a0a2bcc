"""The first strategy: the model with the catalog tools (≤ `max_steps` iterations, then a final
call that may not use them), its picks resolved to real wines.

It gives way (`Declined`) when tool use fails — the model quoted its instructions instead of
answering a wine request, answered one without the catalog, named no real wine — or when the
model cannot be reached at all (then the catalog slice, which needs the model too, is skipped).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

from core.errors import LLMRequestError, LLMUnavailableError
from core.recommendation import MAX_WINES
from services.agent._alternatives import nearest_alternatives, says_nothing_fits
from services.agent._answer_format import parse_answer
from services.agent._catalog_tools import SHOWN_WINES, brief_fits
from services.agent._events import Observation, StepStarted, Thought, ToolInvoked, preview_arguments
from services.agent._grounding_stream import StreamGrounder
from services.agent._knowledge_grounding import ground_knowledge
from services.agent._prompt_guard import REFUSAL
from services.agent._request_in_force import REQUEST_IN_FORCE
from services.agent._resolve import resolve_picks
from services.agent._reviewed_answers import check_cards, offline_kind_answer, top_entries
from services.agent._run import Run
from services.agent._safety import states_unknown_prices
from services.agent._strategies import Declined, Draft, Service, Step
from services.agent._streaming import streamed_call
from services.agent._tool_registry import ToolRegistry, ToolResult
from services.llm.client import LLMReply


class AgentWithTools:
    needs_model = True

    def __init__(self, service: Service) -> None:
        self.service = service

    async def attempt(self, run: Run) -> AsyncIterator[Step]:
        if not self.service.llm.configured:
            yield Declined("no LLM is configured", model_unreachable=True)
            return
        try:
            async for step in self._answer(run):
                yield step
        except LLMRequestError as exc:
            run.tools_refused = True
            yield Declined(str(exc) or type(exc).__name__)
        except LLMUnavailableError as exc:
            yield Declined(str(exc), model_unreachable=True)

    async def _answer(self, run: Run) -> AsyncIterator[Step]:
        reply = None
        async for step in self._tool_loop(run):
            if isinstance(step, LLMReply):
                reply = step
            else:
                yield step
        assert reply is not None
        outcome = await self._draft(run, reply)
        if isinstance(outcome, Draft) and not run.reading.is_request:
            outcome = await self._held_to_reading(run, outcome)
        yield outcome

    async def _tool_loop(self, run: Run) -> AsyncIterator[Step | LLMReply]:
        """The model's steps: tools while it asks for them, then its final reply."""
        turn, service = run.turn, self.service
        tools = turn.tools
        system, context = service.instructions(), service.turn_context(run)
        specs = tools.openai_specs() or None
        found_wines = False
        for step in range(1, turn.max_steps + 2):
            # Once the searches found enough wines that keep to the request, the model only has
            # to choose: the next call forbids tools (`tool_choice` "none") but still sends
            # their schemas, so it repeats the previous call's prompt from its start.
            last = step > turn.max_steps or found_wines
            if step > turn.max_steps:
                # The model still wants tools after the last iteration: one call without tools.
                run.steps += 1
            else:
                run.steps = step
            yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=turn.max_steps)
            messages = service.messages(system, turn.history, run, context)
            reply: LLMReply | None = None
            choice = "none" if last and specs else None
            async for item in streamed_call(
                lambda on_delta, m=messages, c=choice: service.call(run, m, specs, on_delta, c),
                service.guard,
                turn.stream_answer,
                StreamGrounder(run.briefs, run.request) if turn.stream_answer else None,
            ):
                if isinstance(item, LLMReply):
                    reply = item
                else:
                    yield item
            assert reply is not None
            if last or not reply.tool_calls:
                yield reply
                return
            if reply.content and reply.content.strip() and not service.guard.leaks(reply.content):
                yield Thought(content=reply.content.strip())
            for call in reply.tool_calls:
                yield ToolInvoked(tool=call.name, input=self._preview(call.arguments))
            results = await self._run_tools(run, tools, reply)
            fitting = [
                brief
                for result in results
                for brief in result.wines
                if brief_fits(brief, turn.request_filters)
            ]
            found_wines = len(fitting) >= MAX_WINES
            for result in results:
                yield Observation(
                    tool=result.name,
                    ok=result.ok,
                    took_ms=round(result.took_ms, 1),
                    summary=result.summary,
                )

    async def _draft(self, run: Run, final: LLMReply) -> Draft | Declined:
        """The model's final reply as a draft, or why tool use failed: the person still gets
        an answer, from the next strategy."""
        guard, reading = self.service.guard, run.reading
        parsed = parse_answer(final.content)
        recites = guard.leaks(final.content)
        wants_wine = reading.is_request and (reading.asks_for_wine or run.state.structured)
        if recites and not parsed.picks:
            if wants_wine:  # the person still gets wines: the next strategy answers the request
                return Declined("the model quoted its instructions")
            return Draft("agent", REFUSAL)
        if not parsed.formatted and not run.tools_called:
            # Smalltalk or a general question: plain text, no cards. A plain answer to a wine
            # request could name wines that are not in the catalog, so it is not trusted.
            if not parsed.intro:
                return Declined("the model returned an empty answer")
            if reading.is_request and reading.asks_for_wine:
                return Declined("the model answered a wine request without the catalog")
            if states_unknown_prices(parsed.intro, ()):  # no wine shown: every price is unknown
                return Declined("the model quoted prices without the catalog")
            return Draft("agent", parsed.intro)
        wines = await resolve_picks(self.service.sessions, run, parsed, run.turn.history)
        if not wines and recites:
            if wants_wine:
                return Declined("the model quoted its instructions")
            return Draft("agent", REFUSAL)
        honest = not parsed.picks and says_nothing_fits(parsed.intro)
        if not wines and honest and run.tools_called:
            # «Nothing cheaper exists» is an answer: keep it, add the nearest real wines.
            filters = run.turn.request_filters
            bounds = (filters.price_min, filters.price_max)
            run.searched_prices = {p for p in bounds if p is not None}
            return await nearest_alternatives(self.service.sessions, run.state, parsed.intro)
        if not wines:
            return Declined("the agent produced no valid catalog wine")
        return Draft("agent", parsed.intro, wines, parsed.closing)

    async def _held_to_reading(self, run: Run, draft: Draft) -> Draft:
        """A wine question or small talk: cards only where they belong, a wine question's
        claims only as the reviewed entries bear them out."""
        reading = run.reading
        draft = check_cards(reading, draft)
        if reading.entry is not None:
            grounded, dropped = ground_knowledge(draft.intro, top_entries(reading))
            draft = Draft(draft.path, grounded, draft.wines, draft.closing)
            for kind, count in dropped.items():
                run.dropped_claims[kind] = run.dropped_claims.get(kind, 0) + count
        if draft.empty:
            return await offline_kind_answer(self.service.sessions, reading, "agent")
        return draft

    def _preview(self, raw: str) -> dict[str, Any]:
        """Tool arguments as shown in events; a quotation of the instructions is not shown."""
        preview = preview_arguments(raw)
        leaks = self.service.guard.leaks
        return {k: "…" if isinstance(v, str) and leaks(v) else v for k, v in preview.items()}

    async def _run_tools(self, run: Run, tools: ToolRegistry, reply: LLMReply) -> list[ToolResult]:
        run.messages.append(reply.as_message())
        started = time.perf_counter()
        token = SHOWN_WINES.set(frozenset(run.state.shown))
        held = REQUEST_IN_FORCE.set(run.state if run.reading.is_request else None)
        try:
            results = await asyncio.gather(
                *(tools.execute(call.name, call.arguments) for call in reply.tool_calls)
            )
        finally:
            REQUEST_IN_FORCE.reset(held)
            SHOWN_WINES.reset(token)
        run.tools_ms += (time.perf_counter() - started) * 1000
        for call, result in zip(reply.tool_calls, results, strict=True):
            run.tools_called.append(call.name)
            run.trusted_ids.update(result.wine_ids)
            run.briefs.extend(result.wines)
            run.messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": result.content}
            )
        return list(results)
