"""What the adapters (Telegram, HTTP, terminal) call: users, conversations, answers, feedback.

Adapters never touch SQL; this facade owns the transactions around the agent.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.recommendation import Recommendation
from core.taste import (
    taste_profile,
)
from repositories.database import autocommit_sessions, core_connections
from repositories.fact_rollup import forget_days
from repositories.facts import record_fact
from repositories.ownership import forget_person
from repositories.turns import Thread, TurnStart, read_turn_start, store_turn_messages
from repositories.users import (
    AnswerRepository,
    ConversationRepository,
    Stats,
    UserRepository,
    read_access,
    record_answer,
)
from repositories.wines import WineRepository
from services.agent.events import AgentEvent, Final
from services.agent.loop import SommelierService
from services.agent.run import MAX_STEPS, UserContext
from services.agent.welcome import WelcomeWriter
from services.app.coordination import save_plan_with_turn
from services.app.database import (
    DATABASE_ERRORS,
    GuardedSessions,
    database_errors_as_unavailable,
)
from services.app.facts.quick import record_quick
from services.app.facts.recorder import FactRecorder, new_fact_id, note_unmet_name
from services.app.media.questions import MediaQuestions
from services.app.ops.metrics import observe_answer
from services.app.people.visitors import Visitors
from services.app.picks.group import EarlierAnswer, TablePicks, table_picks
from services.app.picks.inline import QuickPage, QuickPicks
from services.app.taste.actions import TasteActions
from services.app.taste.favourites import Favourites
from services.app.turns.answer_log import log_answer, log_refusal
from services.llm.embeddings import EmbeddingService
from services.llm.transcription import Transcriber
from services.llm.vision import VisionClient

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TelegramUser:
    id: int
    first_name: str | None = None
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None


@dataclass(frozen=True)
class UserState:
    id: int
    age_confirmed: bool
    is_active: bool


class ChatService(MediaQuestions, TasteActions):
    """The facade; photo and voice questions (MediaQuestions) and the person's taste, votes
    and «Похожие» (TasteActions) live in modules of their own."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        sommelier: SommelierService,
        embeddings: EmbeddingService,
        inactivity: timedelta = timedelta(hours=24),
        *,
        vision: VisionClient | None = None,
        transcriber: Transcriber | None = None,
        recorder: FactRecorder | None = None,
    ) -> None:
        self.sessions = sessions
        self.recorder = recorder or FactRecorder("")
        self.vision = vision
        self.transcriber = transcriber
        self._guarded = GuardedSessions(sessions)
        # Reads and one-statement writes: no BEGIN and COMMIT around them.
        self._single = GuardedSessions(autocommit_sessions(sessions))
        # Work with no ORM objects runs on Core connections (a factory bound per table has
        # none: its sessions do the same work): reads and single statements, and the turn's
        # store as one transaction.
        statements = core_connections(sessions, autocommit=True)
        transactions = core_connections(sessions, autocommit=False)
        self._statement = GuardedSessions(statements) if statements else self._single
        self._transaction = GuardedSessions(transactions) if transactions else self._guarded
        self.sommelier = sommelier
        self.embeddings = embeddings
        self.inactivity = inactivity
        self.welcome_writer = WelcomeWriter(sommelier)
        self.quick = QuickPicks(sessions, self.welcome_writer)
        self.answers_since_start: Counter[str] = Counter()
        self.favourites = Favourites(self._guarded)  # «⭐ В избранное» and /favorites
        self.visitors = Visitors(self._guarded, inactivity)  # the web chat's, and /link

    @property
    def llm_configured(self) -> bool:
        return self.sommelier.llm.configured

    @property
    def photos_enabled(self) -> bool:
        return self.vision is not None and self.vision.enabled

    @property
    def voice_enabled(self) -> bool:
        return self.transcriber is not None and self.transcriber.enabled

    def tool_names(self) -> list[str]:
        return list(self.sommelier.registry.names)

    def tool_specs(self) -> list[dict[str, Any]]:
        """The exact tool schemas the model is sent."""
        return self.sommelier.registry.openai_specs()

    async def register(self, tg: TelegramUser) -> UserState:
        async with self._guarded() as s:
            user = await UserRepository(s).upsert(
                tg.id, tg.first_name, tg.last_name, tg.username, tg.language_code
            )
            await s.commit()
            return UserState(user.id, user.age_confirmed, user.is_active)

    async def confirm_age(self, user_id: int) -> None:
        async with self._guarded() as s:
            await UserRepository(s).confirm_age(user_id)
            await s.commit()

    async def set_active(self, user_id: int, active: bool) -> None:
        async with self._guarded() as s:
            await UserRepository(s).set_active(user_id, active)
            await s.commit()

    async def state(self, user_id: int) -> UserState | None:
        async with self._statement() as conn:
            access = await read_access(conn, user_id)
        return UserState(user_id, *access) if access is not None else None

    async def answer(
        self, user_id: int | None, text: str, *, remember: bool = True
    ) -> Recommendation:
        """One turn: load the conversation, run the agent, store the whole turn at once."""
        async for event in self.stream(user_id, text, remember=remember):
            if isinstance(event, Final):
                return event.result
        raise RuntimeError("the agent stream ended without a final event")

    async def stream(
        self,
        user_id: int | None,
        text: str,
        *,
        tools_allowlist: Sequence[str] | None = None,
        max_steps: int = MAX_STEPS,
        request_id: str | None = None,
        stream_answer: bool = False,
        remember: bool = True,
    ) -> AsyncIterator[AgentEvent]:
        """The agent's events; the turn is stored before the final event is passed on.

        `remember=False` answers one question with the user's taste profile but outside their
        conversation (nothing read from or added to it).
        """
        context = UserContext(user_id)
        thread: Thread | None = None
        history: list[dict[str, Any]] = []
        if user_id is not None:
            start = await self._turn_start(user_id, remember)
            context = UserContext(
                user_id, taste_profile(start.taste_profile, start.quiz), start.language_code
            )
            history = start.history
            thread = Thread(start.conversation_id) if remember else None
        with database_errors_as_unavailable():
            async for event in self.sommelier.stream(
                context,
                text,
                history,
                tools_allowlist=tools_allowlist,
                max_steps=max_steps,
                request_id=request_id,
                stream_answer=stream_answer,
            ):
                if isinstance(event, Final):
                    await self._store(user_id, thread, event.result)
                yield event

    async def _turn_start(self, user_id: int, remember: bool) -> TurnStart:
        """What the turn needs, in one statement; a person not seen before is registered."""
        async with self._statement() as conn:
            start = await read_turn_start(conn, user_id, self.inactivity, remember=remember)
        if start is None:
            async with self._single() as s:
                await UserRepository(s).upsert(user_id)
            start = TurnStart()
        return start

    async def _store(self, user_id: int | None, thread: Thread | None, rec: Recommendation) -> None:
        """The whole turn in one transaction: its messages (`thread`: the conversation it
        went on with; None: not remembered), the answer, the plan of its delivery and its
        console facts."""
        fact_id = new_fact_id()
        self.recorder.track_links(rec, fact_id)  # «Купить» through /go/ (with a public URL)
        await note_unmet_name(self._single, rec)
        async with self._transaction() as s:
            if thread is not None and user_id is not None:
                await store_turn_messages(
                    s, user_id, thread.conversation_id, rec.new_messages, [w.id for w in rec.wines]
                )
            await record_answer(
                s, user_id, rec.path, rec.llm_calls, int(rec.timings_ms.get("total", 0))
            )
            await save_plan_with_turn(s, rec.delivery_plan())
            await record_fact(s, self.recorder.values(fact_id, user_id, rec))
            await s.commit()
        # Only an answer that was kept is an answer: a failed store becomes a refusal instead.
        self.answers_since_start[rec.path] += 1
        log_answer(user_id, rec)
        observe_answer(rec)

    async def forget(self, user_id: int) -> dict[str, int]:
        """Delete everything stored about the person (answers keep their anonymous count);
        returns rows removed per table. One transaction: all of it or nothing."""
        async with self._guarded() as s:
            await forget_days(s, user_id)  # the console's rollups of their days, recomputed
            removed = await forget_person(s, user_id)
            await s.commit()
        return removed

    def refused(self, user_id: int | None, reason: str) -> None:
        """A message answered with a refusal (too long, empty…): it gets its log line too."""
        log_refusal(user_id, reason)

    async def new_conversation(self, user_id: int) -> None:
        async with self._guarded() as s:
            await ConversationRepository(s).end_open(user_id)
            await s.commit()

    async def welcome(self, user_id: int) -> Recommendation:
        profile = await self._taste(user_id)
        with database_errors_as_unavailable():
            rec = await self.welcome_writer.write(profile)
        async with self._guarded() as s:
            conv = await ConversationRepository(s).current(user_id, self.inactivity)
            await s.commit()
        await self._store(user_id, Thread(conv.id), rec)
        return rec

    async def quick_picks(self, user_id: int | None, query: str, offset: int = 0) -> QuickPage:
        """Catalog wines for an inline query or a group mention: no LLM, nothing stored."""
        profile: dict[str, Any] = {}
        if user_id is not None and not query.strip():
            profile = await self._taste(user_id)
        started = time.perf_counter()
        with database_errors_as_unavailable():
            page = await self.quick.for_query(query, offset, profile)
        if offset == 0 and not query.startswith("wine:"):  # a shared card is not a request
            await record_quick(
                self._guarded, self.recorder, "inline", user_id, query, page.wines, started
            )
        return page

    async def group_picks(
        self, text: str, earlier: EarlierAnswer | None = None, user_id: int | None = None
    ) -> TablePicks:
        """Picks for a group's request (no model, no conversation stored: the table is
        shared, so no one person's profile steers it); its request facts are recorded."""
        started = time.perf_counter()
        with database_errors_as_unavailable():
            picks = await table_picks(self.sessions, text, earlier)
        await record_quick(
            self._guarded, self.recorder, "group", user_id, text, picks.wines, started
        )
        return picks

    async def catalog_counts(self, embedding_model: str) -> tuple[int, int]:
        async with self._guarded() as s:
            repo = WineRepository(s)
            return await repo.count(), await repo.count_embedded(embedding_model)

    async def database_ok(self) -> bool:
        try:
            async with self.sessions() as s:
                await s.execute(text("SELECT 1"))
        except DATABASE_ERRORS:
            return False
        return True

    async def stats(self) -> Stats:
        async with self._guarded() as s:
            return await AnswerRepository(s).stats()
