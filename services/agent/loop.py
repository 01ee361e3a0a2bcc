"""SommelierService: a person's message in, up to three real catalog wines with reasons out.

The run is an async stream of typed events; `generate_response` is built on it. The path:
agent with tools (≤ 2 iterations, then a final call without tools) → a prompt with a random
catalog slice when tool use fails (`catalog_prompt`) → deterministic offline picks when no LLM
is reachable (`offline`). Each step lives in its own module: `streaming` (one LLM call, answer
deltas), `resolve` (picks → real wines), `finish` (output cleaning, the stored turn).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.errors import LLMRequestError, LLMUnavailableError
from core.language.intent import asks_for_wine
from core.language.kinds import MessageKind, read_message
from core.recommendation import MAX_WINES, Path, Recommendation, RecommendedWine
from core.settings import Settings
from core.taste import profile_prompt_block
from prompts import fill, load_prompt
from repositories.database import autocommit_sessions
from services.agent.alternatives import nearest_alternatives, says_nothing_fits
from services.agent.answer_format import FORMAT_INSTRUCTIONS, parse_answer
from services.agent.catalog_prompt import answer_from_catalog_slice
from services.agent.compact import compact_history
from services.agent.conversation import conversation_state
from services.agent.day_context import build_day_context
from services.agent.events import (
    AgentEvent,
    Final,
    Observation,
    StepStarted,
    Thought,
    ToolInvoked,
    preview_arguments,
)
from services.agent.finish import finish_run
from services.agent.grounding_stream import StreamGrounder
from services.agent.guard import REFUSAL, PromptGuard
from services.agent.history import repair_pairing, trim_to_budget
from services.agent.kinds import (
    check_cards,
    declined,
    fixed_answer,
    knowledge_context,
    offline_kind_answer,
    top_entries,
)
from services.agent.knowledge_grounding import ground_knowledge
from services.agent.offline import offline_recommendation
from services.agent.registry import ToolRegistry, ToolResult
from services.agent.resolve import resolve_picks
from services.agent.run import MAX_STEPS, Run, ToolUseFailedError, UserContext
from services.agent.safety import allowed_prices, states_unknown_prices
from services.agent.streaming import streamed_call
from services.agent.tools import SHOWN_WINES, brief_fits, build_catalog_tools
from services.llm.client import LLMClient, LLMReply
from services.llm.embeddings import EmbeddingService


class SommelierService:
    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        llm: LLMClient,
        embeddings: EmbeddingService,
        registry: ToolRegistry | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.settings = settings
        # The agent only reads, a statement at a time: no BEGIN and ROLLBACK around each read.
        self.sessions = autocommit_sessions(sessions)
        self.llm = llm
        self.embeddings = embeddings
        self.registry = registry or build_catalog_tools(
            self.sessions, embeddings, settings.tool_timeout_seconds
        )
        self.clock = clock
        # The fixed texts the model is given never reach the user (see services/prompt_guard).
        self.guard = PromptGuard(
            [
                load_prompt("system"),
                load_prompt("catalog_fallback"),
                FORMAT_INSTRUCTIONS,
                self.registry.prompt_section(),
            ]
        )

    # ---- public API ---------------------------------------------------------------------------

    async def generate_response(
        self,
        user: UserContext,
        text: str,
        history: Sequence[dict[str, Any]] = (),
        **options: Any,
    ) -> Recommendation:
        async for event in self.stream(user, text, history, **options):
            if isinstance(event, Final):
                return event.result
        raise RuntimeError("the agent stream ended without a final event")

    async def stream(
        self,
        user: UserContext,
        text: str,
        history: Sequence[dict[str, Any]] = (),
        *,
        tools_allowlist: Sequence[str] | None = None,
        max_steps: int = MAX_STEPS,
        request_id: str | None = None,
        stream_answer: bool = False,
    ) -> AsyncIterator[AgentEvent]:
        run = Run(request_id or uuid.uuid4().hex, time.perf_counter(), text)
        run.turn.append({"role": "user", "content": text})
        run.state = await conversation_state(self.sessions, history, text)
        run.request_filters = run.state.filters
        registry = self.registry.restricted(tools_allowlist)
        max_steps = max(1, min(MAX_STEPS, max_steps))
        path: Path = "agent"
        result: tuple[str, list[RecommendedWine], str] | None = None
        reading = run.reading = read_message(text)
        request = reading.kind is MessageKind.request
        try:
            if reading.kind in (MessageKind.offtopic, MessageKind.manipulation):
                # Declined on every path, without a model call: nothing to answer but that.
                path = "offline"
                result = declined(reading)
            elif fixed_answer(reading):
                # Health and safety, or a question the base has no checked answer to: the
                # same reviewed words on every path, never a model's.
                path = "offline"
                result = await offline_kind_answer(self.sessions, reading)
            elif not self.llm.configured:
                raise LLMUnavailableError("no LLM is configured")
            else:
                try:
                    async for event in self._agent(
                        run, user, history, registry, max_steps, stream_answer
                    ):
                        if isinstance(event, tuple):
                            result = event
                        else:
                            yield event
                except (ToolUseFailedError, LLMRequestError) as exc:
                    run.fallback_reason = str(exc) or type(exc).__name__
                    if not request:
                        raise LLMUnavailableError(run.fallback_reason) from exc
                    path = "catalog_prompt"
                    result = await answer_from_catalog_slice(self, run, user, history)
        except LLMUnavailableError as exc:
            run.fallback_reason = run.fallback_reason or str(exc)
            path = "offline"
            run.turn = run.turn[:1]
            if request:
                async for item in self._offline(run, user, max_steps):
                    if isinstance(item, tuple):
                        result = item
                    else:
                        yield item
            else:
                result = await offline_kind_answer(self.sessions, reading)
        assert result is not None
        if not request and path == "agent":
            result = check_cards(reading, result)
            if reading.entry is not None:
                grounded, dropped = ground_knowledge(result[0], top_entries(reading))
                result = (grounded, result[1], result[2])
                for kind, count in dropped.items():
                    run.dropped_claims[kind] = run.dropped_claims.get(kind, 0) + count
            if not result[0].strip() and not result[1]:
                result = await offline_kind_answer(self.sessions, reading)
        intro, wines, closing = result
        if request and reading.entry is not None:
            # «что такое танины и какое вино посоветуешь?»: the reviewed fact first, then wines.
            intro = f"{reading.entry.answer}\n\n{intro}".strip()
        rec = finish_run(self.guard, run, path, intro, wines, closing)
        rec.kind, rec.manipulation = reading.kind.value, reading.manipulation
        rec.entry = reading.entry.id if reading.entry is not None else None
        final = Final(
            recommendation=rec.public_json(),
            request_id=run.request_id,
            total_steps=run.steps,
            path=path,
        )
        final._result = rec
        yield final

    async def _offline(
        self, run: Run, user: UserContext, max_steps: int
    ) -> AsyncIterator[AgentEvent | tuple[str, list[RecommendedWine], str]]:
        """Fallback 2: no LLM is reachable; deterministic picks, shown as one search step."""
        run.turn = run.turn[:1]
        run.steps += 1
        yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=max_steps)
        filters = run.request_filters.model_dump(mode="json", exclude_none=True)
        yield ToolInvoked(tool="search_wines", input=filters)
        started = time.perf_counter()
        day = build_day_context(self.clock() if self.clock else None)
        result = await offline_recommendation(
            self.sessions, run.text, run.state, user.taste_profile, day.suggested_wine_types()
        )
        took = (time.perf_counter() - started) * 1000
        run.tools_ms += took
        yield Observation(
            tool="search_wines",
            ok=True,
            took_ms=round(took, 1),
            summary=f"найдено {len(result[1])}",
        )
        yield result

    # ---- the agent path -------------------------------------------------------------------------

    def system_prompt(self, user: UserContext) -> str:
        # The fixed instructions come first and are identical for every person and turn, so
        # providers' prompt caching applies; the tools are described by their schemas alone.
        return fill(
            load_prompt("system"),
            answer_format=FORMAT_INSTRUCTIONS,
            context=self.context_block(user),
        )

    def context_block(self, user: UserContext) -> str:
        day = build_day_context(self.clock() if self.clock else None)
        blocks = [day.to_prompt_block()]
        profile = profile_prompt_block(user.taste_profile)
        if profile:
            blocks.append(profile)
        if user.language and not user.language.startswith("ru"):
            blocks.append(f"Язык интерфейса пользователя: {user.language}.")
        return "\n".join(blocks)

    def messages(
        self, system: str, history: Sequence[dict[str, Any]], run: Run
    ) -> list[dict[str, Any]]:
        budget = self.settings.history_token_budget
        past = trim_to_budget(compact_history(history), budget)
        return repair_pairing([{"role": "system", "content": system}, *past, *run.turn])

    async def call(
        self,
        run: Run,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_delta: Any = None,
    ) -> LLMReply:
        started = time.perf_counter()
        run.llm_calls += 1
        try:
            reply = await self.llm.complete(repair_pairing(messages), tools, on_delta=on_delta)
        finally:
            run.llm_ms += (time.perf_counter() - started) * 1000
        run.usage.add(reply.usage)
        run.prompt_chars += reply.prompt_chars
        return reply

    async def _agent(
        self,
        run: Run,
        user: UserContext,
        history: Sequence[dict[str, Any]],
        registry: ToolRegistry,
        max_steps: int,
        stream_answer: bool,
    ) -> AsyncIterator[AgentEvent | tuple[str, list[RecommendedWine], str]]:
        system = self.system_prompt(user)
        if run.state is not None:
            system += "\n\n" + run.state.prompt_block()
        if context := knowledge_context(run.reading):
            system += "\n\n" + context
        specs = registry.openai_specs() or None
        final: LLMReply | None = None
        found_wines = False
        for step in range(1, max_steps + 2):
            # Once the searches found enough wines that keep to the request, the model only has
            # to choose: no tools on the next call (the schemas are the largest part of it).
            last = step > max_steps or found_wines
            if step > max_steps:
                # The model still wants tools after the last iteration: one call without tools.
                run.steps += 1
            else:
                run.steps = step
            yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=max_steps)
            messages = self.messages(system, history, run)
            reply: LLMReply | None = None
            tools = None if last else specs
            async for item in streamed_call(
                lambda on_delta, m=messages, t=tools: self.call(run, m, t, on_delta),
                self.guard,
                stream_answer,
                StreamGrounder.of(run) if stream_answer else None,
            ):
                if isinstance(item, LLMReply):
                    reply = item
                else:
                    yield item
            assert reply is not None
            if last or not reply.tool_calls:
                final = reply
                break
            if reply.content and reply.content.strip() and not self.guard.leaks(reply.content):
                yield Thought(content=reply.content.strip())
            for call in reply.tool_calls:
                yield ToolInvoked(tool=call.name, input=self._preview(call.arguments))
            results = await self._run_tools(run, registry, reply)
            fitting = [
                brief
                for result in results
                for brief in result.wines
                if brief_fits(brief, run.request_filters)
            ]
            found_wines = len(fitting) >= MAX_WINES
            for result in results:
                yield Observation(
                    tool=result.name,
                    ok=result.ok,
                    took_ms=round(result.took_ms, 1),
                    summary=result.summary,
                )
        assert final is not None
        parsed = parse_answer(final.content)
        recites = self.guard.leaks(final.content)
        request = run.reading.kind is MessageKind.request
        wants_wine = request and (
            asks_for_wine(run.text) or (run.state is not None and run.state.structured)
        )
        if recites and not parsed.picks:
            if wants_wine:  # the person still gets wines: the next path answers the request
                raise ToolUseFailedError("the model quoted its instructions")
            yield (REFUSAL, [], "")
            return
        if not parsed.formatted and not run.tools_called:
            # Smalltalk or a general question: plain text, no cards. A plain answer to a wine
            # request could name wines that are not in the catalog, so it is not trusted.
            if not parsed.intro:
                raise ToolUseFailedError("the model returned an empty answer")
            if request and asks_for_wine(run.text):
                raise ToolUseFailedError("the model answered a wine request without the catalog")
            if states_unknown_prices(parsed.intro, allowed_prices((), run.text)):
                raise ToolUseFailedError("the model quoted prices without the catalog")
            yield (parsed.intro, [], "")
            return
        wines = await resolve_picks(self.sessions, run, parsed, history)
        if not wines and recites:
            if wants_wine:
                raise ToolUseFailedError("the model quoted its instructions")
            yield (REFUSAL, [], "")
            return
        honest = not parsed.picks and says_nothing_fits(parsed.intro)
        if not wines and honest and run.tools_called and run.state is not None:
            # «Nothing cheaper exists» is an answer: keep it, add the nearest real wines.
            bounds = (run.request_filters.price_min, run.request_filters.price_max)
            run.searched_prices = {p for p in bounds if p is not None}
            yield await nearest_alternatives(self.sessions, run.state, parsed.intro)
            return
        if not wines:
            raise ToolUseFailedError("the agent produced no valid catalog wine")
        yield (parsed.intro, wines, parsed.closing)

    def _preview(self, raw: str) -> dict[str, Any]:
        """Tool arguments as shown in events; a quotation of the instructions is not shown."""
        preview = preview_arguments(raw)
        return {
            k: "…" if isinstance(v, str) and self.guard.leaks(v) else v for k, v in preview.items()
        }

    async def _run_tools(
        self, run: Run, registry: ToolRegistry, reply: LLMReply
    ) -> list[ToolResult]:
        run.turn.append(reply.as_message())
        started = time.perf_counter()
        token = SHOWN_WINES.set(
            frozenset(run.state.shown) if run.state is not None else frozenset()
        )
        try:
            results = await asyncio.gather(
                *(registry.execute(call.name, call.arguments) for call in reply.tool_calls)
            )
        finally:
            SHOWN_WINES.reset(token)
        run.tools_ms += (time.perf_counter() - started) * 1000
        for call, result in zip(reply.tool_calls, results, strict=True):
            run.tools_called.append(call.name)
            run.trusted_ids.update(result.wine_ids)
            run.turn.append({"role": "tool", "tool_call_id": call.id, "content": result.content})
        return list(results)
