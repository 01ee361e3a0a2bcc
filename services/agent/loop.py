"""SommelierService: a person's message in, up to three real catalog wines with reasons out.

The run is an async stream of typed events; `generate_response` is built on it. The path:
agent with tools (≤ 2 iterations, then a final call without tools) → a prompt with a random
catalog slice when tool use fails → deterministic offline picks when no LLM is reachable.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, format_price
from core.errors import LLMRequestError, LLMUnavailableError
from core.language.intent import asks_for_wine
from core.language.request import parse_query
from core.recommendation import MAX_WINES, Path, Recommendation, RecommendedWine
from core.settings import Settings
from core.taste import profile_prompt_block
from prompts import fill, load_prompt
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.answer_format import (
    FORMAT_INSTRUCTIONS,
    ParsedAnswer,
    parse_answer,
    render_answer,
)
from services.agent.day_context import build_day_context
from services.agent.events import (
    AgentEvent,
    AnswerDelta,
    ErrorEvent,
    Final,
    Observation,
    StepStarted,
    Thought,
    ToolInvoked,
)
from services.agent.guard import REFUSAL, PromptGuard, StreamGuard
from services.agent.history import repair_pairing, trim_to_budget
from services.agent.offline import offline_recommendation
from services.agent.registry import ToolRegistry, ToolResult
from services.agent.safety import (
    allowed_prices,
    states_unknown_prices,
    without_false_prices,
    without_links,
)
from services.agent.tools import build_catalog_tools
from services.llm.client import LLMClient, LLMReply, Usage
from services.llm.embeddings import EmbeddingService

log = logging.getLogger(__name__)

CATALOG_SLICE = 20
_INTRO_MARKER = re.compile(r"\[\s*INTRO\s*\]", re.IGNORECASE)
MAX_STEPS = 2


@dataclass
class UserContext:
    user_id: int | None = None
    taste_profile: dict[str, Any] = field(default_factory=dict)
    language: str | None = None


class _ToolUseFailedError(Exception):
    """The agent path produced no valid wine; the catalog prompt takes over."""


@dataclass
class _Run:
    """Mutable bookkeeping of one run."""

    request_id: str
    started: float
    text: str
    usage: Usage = field(default_factory=Usage)
    llm_calls: int = 0
    prompt_chars: int = 0
    llm_ms: float = 0.0
    tools_ms: float = 0.0
    tools_called: list[str] = field(default_factory=list)
    trusted_ids: set[uuid.UUID] = field(default_factory=set)
    steps: int = 0
    turn: list[dict[str, Any]] = field(default_factory=list)
    fallback_reason: str | None = None


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
        self.sessions = sessions
        self.llm = llm
        self.embeddings = embeddings
        self.registry = registry or build_catalog_tools(
            sessions, embeddings, settings.tool_timeout_seconds
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
        run = _Run(request_id or uuid.uuid4().hex, time.perf_counter(), text)
        run.turn.append({"role": "user", "content": text})
        registry = self.registry.restricted(tools_allowlist)
        max_steps = max(1, min(MAX_STEPS, max_steps))
        path: Path = "agent"
        result: tuple[str, list[RecommendedWine], str] | None = None
        try:
            if not self.llm.configured:
                raise LLMUnavailableError("no LLM is configured")
            try:
                async for event in self._agent(
                    run, user, history, registry, max_steps, stream_answer
                ):
                    if isinstance(event, tuple):
                        result = event
                    else:
                        yield event
            except (_ToolUseFailedError, LLMRequestError) as exc:
                run.fallback_reason = str(exc) or type(exc).__name__
                path = "catalog_prompt"
                result = await self._catalog_prompt(run, user, history)
        except LLMUnavailableError as exc:
            run.fallback_reason = str(exc)
            path = "offline"
            run.turn = run.turn[:1]
            run.steps += 1
            yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=max_steps)
            filters = parse_query(text).filters.model_dump(mode="json", exclude_none=True)
            yield ToolInvoked(tool="search_wines", input=filters)
            started = time.perf_counter()
            result = await offline_recommendation(self.sessions, text)
            took = (time.perf_counter() - started) * 1000
            run.tools_ms += took
            yield Observation(
                tool="search_wines",
                ok=True,
                took_ms=round(took, 1),
                summary=f"найдено {len(result[1])}",
            )
        assert result is not None
        intro, wines, closing = result
        rec = self._finish(run, path, intro, wines, closing)
        final = Final(
            recommendation=rec.public_json(),
            request_id=run.request_id,
            total_steps=run.steps,
            path=path,
        )
        final._result = rec
        yield final

    # ---- the agent path -------------------------------------------------------------------------

    def system_prompt(self, user: UserContext, registry: ToolRegistry | None = None) -> str:
        return fill(
            load_prompt("system"),
            tools=(registry or self.registry).prompt_section(),
            answer_format=FORMAT_INSTRUCTIONS,
            context=self._context_block(user),
        )

    def _context_block(self, user: UserContext) -> str:
        day = build_day_context(self.clock() if self.clock else None)
        blocks = [day.to_prompt_block()]
        profile = profile_prompt_block(user.taste_profile)
        if profile:
            blocks.append(profile)
        if user.language and not user.language.startswith("ru"):
            blocks.append(f"Язык интерфейса пользователя: {user.language}.")
        return "\n".join(blocks)

    def _messages(
        self, system: str, history: Sequence[dict[str, Any]], run: _Run
    ) -> list[dict[str, Any]]:
        budget = self.settings.history_token_budget
        past = trim_to_budget(list(history), budget)
        return repair_pairing([{"role": "system", "content": system}, *past, *run.turn])

    async def _call(
        self,
        run: _Run,
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
        run: _Run,
        user: UserContext,
        history: Sequence[dict[str, Any]],
        registry: ToolRegistry,
        max_steps: int,
        stream_answer: bool,
    ) -> AsyncIterator[AgentEvent | tuple[str, list[RecommendedWine], str]]:
        system = self.system_prompt(user, registry)
        specs = registry.openai_specs() or None
        final: LLMReply | None = None
        for step in range(1, max_steps + 2):
            last = step > max_steps
            if last:
                # The model still wants tools after the last iteration: one call without tools.
                run.steps += 1
            else:
                run.steps = step
            yield StepStarted(step=run.steps, request_id=run.request_id, max_steps=max_steps)
            messages = self._messages(system, history, run)
            reply: LLMReply | None = None
            async for item in self._call_events(
                run, messages, None if last else specs, stream_answer
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
        if recites and not parsed.picks:
            # Talked into reciting its instructions: decline, do not try another prompt.
            yield (REFUSAL, [], "")
            return
        if not parsed.formatted and not run.tools_called:
            # Smalltalk or a general question: plain text, no cards. A plain answer to a wine
            # request could name wines that are not in the catalog, so it is not trusted.
            if not parsed.intro:
                raise _ToolUseFailedError("the model returned an empty answer")
            if asks_for_wine(run.text):
                raise _ToolUseFailedError("the model answered a wine request without the catalog")
            if states_unknown_prices(parsed.intro, allowed_prices((), run.text)):
                raise _ToolUseFailedError("the model quoted prices without the catalog")
            yield (parsed.intro, [], "")
            return
        wines = await self._resolve(run, parsed, history)
        if not wines and recites:
            yield (REFUSAL, [], "")
            return
        if not wines:
            raise _ToolUseFailedError("the agent produced no valid catalog wine")
        yield (parsed.intro, wines, parsed.closing)

    async def _call_events(
        self,
        run: _Run,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        stream: bool,
    ) -> AsyncIterator[AnswerDelta | LLMReply]:
        """One LLM call; when streaming, the answer text after [INTRO] comes as deltas."""
        if not stream:
            yield await self._call(run, messages, tools)
            return
        queue: asyncio.Queue[str] = asyncio.Queue()
        task = asyncio.create_task(self._call(run, messages, tools, queue.put))
        buffered = ""
        answer: StreamGuard | None = None
        try:
            async for chunk in _drain(queue, task):
                if answer is None:
                    buffered += chunk
                    marker = _INTRO_MARKER.search(buffered)
                    if marker is None:
                        continue
                    answer = StreamGuard(self.guard)
                    chunk = buffered[marker.end() :].lstrip()
                if shown := answer.feed(chunk):
                    yield AnswerDelta(text=shown)
        finally:
            if not task.done():
                task.cancel()
        reply = task.result()
        if answer is not None and (rest := answer.finish()):
            yield AnswerDelta(text=rest)
        yield reply

    def _preview(self, raw: str) -> dict[str, Any]:
        """Tool arguments as shown in events; a quotation of the instructions is not shown."""
        preview = _preview_arguments(raw)
        return {
            k: "…" if isinstance(v, str) and self.guard.leaks(v) else v for k, v in preview.items()
        }

    async def _run_tools(
        self, run: _Run, registry: ToolRegistry, reply: LLMReply
    ) -> list[ToolResult]:
        run.turn.append(reply.as_message())
        started = time.perf_counter()
        results = await asyncio.gather(
            *(registry.execute(call.name, call.arguments) for call in reply.tool_calls)
        )
        run.tools_ms += (time.perf_counter() - started) * 1000
        for call, result in zip(reply.tool_calls, results, strict=True):
            run.tools_called.append(call.name)
            run.trusted_ids.update(result.wine_ids)
            run.turn.append({"role": "tool", "tool_call_id": call.id, "content": result.content})
        return list(results)

    async def _resolve(
        self, run: _Run, parsed: ParsedAnswer, history: Sequence[dict[str, Any]]
    ) -> list[RecommendedWine]:
        """Only wines that exist: ids seen in tool results, else an exact catalog name."""
        seen_before = _ids_in_history(history)
        wines: list[RecommendedWine] = []
        async with self.sessions() as session:
            repo = WineRepository(session)
            for pick in parsed.picks:
                wine = await _lookup(repo, pick.ref, run.trusted_ids | seen_before)
                if wine is None or any(w.id == wine.id for w in wines):
                    continue
                why = without_false_prices(pick.why, allowed_prices([wine.price_rub], run.text))
                wines.append(RecommendedWine.from_wine(wine, why))
                if len(wines) == MAX_WINES:
                    break
        return wines

    # ---- fallback 1: a prompt with a random slice of the catalog ----------------------------

    async def _catalog_prompt(
        self, run: _Run, user: UserContext, history: Sequence[dict[str, Any]]
    ) -> tuple[str, list[RecommendedWine], str]:
        run.turn = run.turn[:1]
        run.trusted_ids = set()
        slice_ = await self._catalog_slice(run.text)
        if not slice_:
            raise LLMUnavailableError("the catalog is empty")
        system = fill(
            load_prompt("catalog_fallback"),
            answer_format=FORMAT_INSTRUCTIONS,
            context=self._context_block(user),
            catalog="\n".join(catalog_line(w) for w in slice_),
        )
        run.trusted_ids = {w.id for w in slice_}
        run.steps += 1
        messages = self._messages(system, _without_tool_traffic(history), run)
        try:
            reply = await self._call(run, messages, None)
        except LLMRequestError as exc:
            raise LLMUnavailableError(str(exc)) from exc
        parsed = parse_answer(reply.content)
        wines = await self._resolve(run, parsed, ())
        if not wines:
            raise LLMUnavailableError("the catalog prompt produced no valid catalog wine")
        return parsed.intro, wines, parsed.closing

    async def _catalog_slice(self, text: str) -> list[Wine]:
        parsed = parse_query(text)
        filters = parsed.filters
        async with self.sessions() as session:
            repo = WineRepository(session)
            wines = await repo.random(CATALOG_SLICE, filters)
            for name in parsed.relaxation_order():
                if len(wines) >= MAX_WINES:
                    break
                filters = filters.model_copy(update={name: None})
                wines = await repo.random(CATALOG_SLICE, filters)
        return wines

    # ---- the end of every path ------------------------------------------------------------------

    def _finish(
        self, run: _Run, path: Path, intro: str, wines: list[RecommendedWine], closing: str
    ) -> Recommendation:
        # The model's prose: no quotation of its instructions, no links, no made-up prices.
        prices = allowed_prices([w.price_rub for w in wines], run.text)
        intro = without_false_prices(without_links(self.guard.clean(intro, REFUSAL)), prices)
        closing = without_false_prices(without_links(self.guard.clean(closing)), prices)
        for wine in wines:
            wine.why = without_links(self.guard.clean(wine.why))
        content = (
            render_answer(intro, [(str(w.id), w.why) for w in wines], closing)
            if wines
            else "\n\n".join(p for p in (intro, closing) if p)
        )
        run.turn.append({"role": "assistant", "content": content})
        total_ms = (time.perf_counter() - run.started) * 1000
        rec = Recommendation(
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
            },
            fallback_reason=run.fallback_reason,
            new_messages=repair_pairing(run.turn),
        )
        return rec


async def _lookup(repo: WineRepository, ref: str, allowed: set[uuid.UUID]) -> Wine | None:
    try:
        wine_id = uuid.UUID(ref.strip())
    except ValueError:
        return await repo.find_by_name(ref)
    if wine_id not in allowed:
        return None
    found = await repo.get_by_ids([wine_id])
    # A wine the shop no longer sells is never recommended, even when history names it.
    return found[0] if found and found[0].available else None


def _ids_in_history(history: Sequence[dict[str, Any]]) -> set[uuid.UUID]:
    """Wine ids the model saw in earlier tool results of this conversation."""
    import json

    ids: set[uuid.UUID] = set()
    for message in history:
        if message.get("role") != "tool":
            continue
        try:
            payload = json.loads(message.get("content") or "{}")
        except json.JSONDecodeError:
            continue
        for wine in payload.get("wines", []) if isinstance(payload, dict) else []:
            try:
                ids.add(uuid.UUID(str(wine.get("id"))))
            except (ValueError, AttributeError):
                continue
    return ids


def _without_tool_traffic(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        m for m in history if m.get("role") in ("user", "assistant") and not m.get("tool_calls")
    ]


def catalog_line(wine: Wine) -> str:
    place = ", ".join(x for x in (wine.country, wine.region) if x)
    style = f"{WINE_TYPE_RU[wine.wine_type]} {SWEETNESS_RU[wine.sweetness]}"
    return " | ".join(
        [
            str(wine.id),
            wine.name,
            wine.producer,
            place,
            style,
            ", ".join(wine.grape_varieties),
            format_price(wine.price_rub),
            ", ".join(wine.food_pairings[:4]),
        ]
    )


def _preview_arguments(raw: str) -> dict[str, Any]:
    """Tool arguments for events (and the user's progress line), as far as they parse."""
    import json

    try:
        value = json.loads(raw) if raw else {}
    except json.JSONDecodeError:
        return {"raw": raw[:200]}
    return value if isinstance(value, dict) else {"raw": raw[:200]}


async def _drain(queue: asyncio.Queue[str], task: asyncio.Task[Any]) -> AsyncIterator[str]:
    while not (task.done() and queue.empty()):
        getter = asyncio.ensure_future(queue.get())
        done, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
        if getter in done:
            yield getter.result()
        else:
            getter.cancel()


__all__ = ["ErrorEvent", "SommelierService", "UserContext"]
