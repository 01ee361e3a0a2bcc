"""SommelierService: a person's message in, up to three real catalog wines with reasons out.

A turn starts by reading its message once (`_conversation.read_conversation`: the `Reading`,
and the request in force after it); then the strategies for what the message is are tried in
order until one drafts an answer (`_strategies`): the agent with tools (`_agent_with_tools`) →
a prompt with a slice of the catalog (`_catalog_slice`) → deterministic offline picks
(`_offline_picks`), or the reviewed answer for what is not a request (`_reviewed_answers`).
`_finish` cleans and checks the draft and records the turn. The run is an async stream of
typed events; `generate_response` is built on it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.recommendation import Recommendation
from core.settings import Settings
from core.taste import profile_prompt_block
from prompts import fill, load_prompt
from repositories.database import autocommit_sessions
from services.agent._agent_with_tools import AgentWithTools
from services.agent._answer_format import FORMAT_INSTRUCTIONS
from services.agent._catalog_slice import CatalogSlice
from services.agent._catalog_tools import build_catalog_tools
from services.agent._compact import compact_history
from services.agent._conversation import read_conversation
from services.agent._day_context import DayContext, build_day_context
from services.agent._events import AgentEvent, Final
from services.agent._finish import finish_run
from services.agent._grounding import Request
from services.agent._history import repair_pairing, trim_to_budget
from services.agent._offline_picks import OfflinePicks
from services.agent._prompt_guard import PromptGuard
from services.agent._reviewed_answers import ReviewedAnswer, fixed_answer, knowledge_context
from services.agent._run import MAX_STEPS, Run, Turn, UserContext
from services.agent._shop_picks import mark_shop_picks, shop_picks
from services.agent._strategies import Draft, Strategy, first_answer
from services.agent._tool_registry import ToolRegistry
from services.agent._wine_handles import with_handles
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
        # The fixed texts the model is given never reach the user (see _prompt_guard.py).
        self.guard = PromptGuard(
            [
                load_prompt("system"),
                load_prompt("catalog_fallback"),
                FORMAT_INSTRUCTIONS,
                self.registry.prompt_section(),
            ]
        )
        agent, reviewed = AgentWithTools(self), ReviewedAnswer(self)
        self._for_requests: list[Strategy] = [agent, CatalogSlice(self), OfflinePicks(self)]
        self._for_the_rest: list[Strategy] = [agent, reviewed]
        self._reviewed_only: list[Strategy] = [reviewed]

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
        started = time.perf_counter()
        # The one place a turn reads its message: everything after is handed this reading.
        conversation = await read_conversation(self.sessions, history, text)
        reading, state = conversation.reading, conversation.state
        turn = Turn(
            user,
            reading,
            state,
            history,
            self.registry.restricted(tools_allowlist),
            max(1, min(MAX_STEPS, max_steps)),
            stream_answer,
        )
        run = Run(request_id or uuid.uuid4().hex, started, turn, Request.of(reading, state))
        run.messages.append({"role": "user", "content": text})
        draft: Draft | None = None
        async for item in first_answer(self._strategies(turn), run):
            if isinstance(item, Draft):
                draft = item
            else:
                yield item
        assert draft is not None
        if reading.is_request and reading.entry is not None:
            # «что такое танины и какое вино посоветуешь?»: the reviewed fact first, then wines.
            intro = f"{reading.entry.answer}\n\n{draft.intro}".strip()
            draft = Draft(draft.path, intro, draft.wines, draft.closing)
        rec = finish_run(self.guard, run, draft)
        if rec.wines:
            async with self.sessions() as session:
                mark_shop_picks(rec.wines, await shop_picks(session))
        rec.kind, rec.manipulation = reading.kind.value, reading.message.manipulation
        rec.entry = reading.entry.id if reading.entry is not None else None
        yield Final.of(rec, run.request_id, run.steps)

    def _strategies(self, turn: Turn) -> list[Strategy]:
        if fixed_answer(turn.reading.message):
            # Declined, or health and safety, or a question the base has no checked answer
            # to: the same reviewed words on every path, never a model's.
            return self._reviewed_only
        return self._for_requests if turn.reading.is_request else self._for_the_rest

    # ---- what the strategies share --------------------------------------------------------------

    def instructions(self) -> str:
        """The agent's system prompt: the same text for every person, turn and call (what
        differs goes in `messages`' late context), so providers' prompt caching applies."""
        return fill(load_prompt("system"), answer_format=FORMAT_INSTRUCTIONS)

    def day(self) -> DayContext:
        return build_day_context(self.clock() if self.clock else None)

    def context_block(self, user: UserContext) -> str:
        blocks = [self.day().to_prompt_block()]
        profile = profile_prompt_block(user.taste_profile)
        if profile:
            blocks.append(profile)
        if user.language and not user.language.startswith("ru"):
            blocks.append(f"Язык интерфейса пользователя: {user.language}.")
        return "\n".join(blocks)

    def turn_context(self, run: Run) -> str:
        """What the model is told of this person and turn (the day, their taste, the request
        in force, what the message is): after their message, so the instructions and the
        conversation before it stay a prefix every call repeats. The tools are described by
        their schemas alone."""
        blocks = [f"## Контекст\n{self.context_block(run.turn.user)}"]
        blocks.append(run.state.prompt_block())
        if known := knowledge_context(run.reading):
            blocks.append(known)
        return "\n\n".join(blocks)

    def messages(
        self, system: str, history: Sequence[dict[str, Any]], run: Run, context: str = ""
    ) -> list[dict[str, Any]]:
        """The system prompt, the past turns, the person's message, then `context` (what
        differs per person and turn) as a system message of its own, then this turn's tool
        traffic: each call repeats the one before it from its start up to what is new."""
        budget = self.settings.history_token_budget
        past = trim_to_budget(compact_history(history), budget)
        said, traffic = run.messages[:1], run.messages[1:]
        late = [{"role": "system", "content": context}] if context else []
        return with_handles(
            repair_pairing([{"role": "system", "content": system}, *past, *said, *late, *traffic])
        )

    async def call(
        self,
        run: Run,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        on_delta: Any = None,
        tool_choice: str | None = None,
    ) -> LLMReply:
        """One model call on `messages` as `messages()` built them (already paired)."""
        started = time.perf_counter()
        run.llm_calls += 1
        try:
            reply = await self.llm.complete(
                messages, tools, tool_choice=tool_choice, on_delta=on_delta
            )
        finally:
            run.llm_ms += (time.perf_counter() - started) * 1000
        run.usage.add(reply.usage)
        run.prompt_chars += reply.prompt_chars
        return reply
