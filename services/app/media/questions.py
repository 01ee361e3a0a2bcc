"""Photos and voice messages as questions: a label or a wine list is answered from the catalog
here; a dish, a caption or what a recording says becomes a text turn."""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Sequence

from core.errors import MediaUnreadableError
from repositories.turns import TurnStart
from repositories.users import ConversationRepository
from repositories.wines import WineRepository
from services.agent import MAX_STEPS, AgentEvent, Final, MediaRead
from services.app.database import Database
from services.app.media.matching import budget_in, dish_request, label_answer, wine_list_answer
from services.app.turns.turns import Turns, WithTurn
from services.llm.transcription import Transcriber
from services.llm.vision import ImageReading, VisionClient


class MediaQuestions:
    def __init__(
        self,
        database: Database,
        turns: Turns,
        vision: VisionClient | None,
        transcriber: Transcriber | None,
    ) -> None:
        self._sessions = database.sessions
        self._turns = turns
        self.vision = vision
        self.transcriber = transcriber

    @property
    def photos_enabled(self) -> bool:
        return self.vision is not None and self.vision.enabled

    @property
    def voice_enabled(self) -> bool:
        return self.transcriber is not None and self.transcriber.enabled

    async def photo_stream(
        self,
        user_id: int | None,
        image: bytes,
        caption: str = "",
        *,
        tools_allowlist: Sequence[str] | None = None,
        max_steps: int = MAX_STEPS,
        request_id: str | None = None,
        stream_answer: bool = False,
        with_turn: WithTurn | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """A photo (and its caption) as a request: a label, a dish or a wine list.

        Raises MediaUnreadableError before any event when the photo cannot be read.
        """
        if self.vision is None:
            raise MediaUnreadableError("off", "no vision model is configured")
        reading = await self.vision.read(image, caption)
        if reading.kind == "dish" and reading.dish:
            yield MediaRead(source="photo", kind="dish", text=reading.dish)
            async for event in self._turns.stream(
                user_id,
                dish_request(reading.dish, caption),
                tools_allowlist=tools_allowlist,
                max_steps=max_steps,
                request_id=request_id,
                stream_answer=stream_answer,
                with_turn=with_turn,
            ):
                yield event
            return
        if _names_wines(reading):
            what = reading.wine.title if reading.kind == "label" else ""
            yield MediaRead(source="photo", kind=reading.kind, text=what)
            answering = functools.partial(self._photo_answer, reading, caption, request_id)
            async for event in self._turns.turn(user_id, answering, with_turn=with_turn):
                yield event
            return
        if caption:
            # Nothing about wine on the photo, but the caption asks something: answer that.
            async for event in self._turns.stream(
                user_id,
                caption,
                tools_allowlist=tools_allowlist,
                max_steps=max_steps,
                request_id=request_id,
                stream_answer=stream_answer,
                with_turn=with_turn,
            ):
                yield event
            return
        raise MediaUnreadableError("nothing", f"the photo shows {reading.kind}, not wine")

    async def voice_stream(
        self,
        user_id: int | None,
        audio: bytes,
        filename: str,
        *,
        tools_allowlist: Sequence[str] | None = None,
        max_steps: int = MAX_STEPS,
        request_id: str | None = None,
        stream_answer: bool = False,
        with_turn: WithTurn | None = None,
    ) -> AsyncIterator[AgentEvent]:
        """A voice message as the text it says; the first event is what was heard.

        Raises MediaUnreadableError before any event when nothing could be heard.
        """
        if self.transcriber is None:
            raise MediaUnreadableError("off", "no transcription model is configured")
        heard = await self.transcriber.transcribe(audio, filename)
        if not heard:
            raise MediaUnreadableError("nothing", "the recording has no words in it")
        yield MediaRead(source="voice", kind="speech", text=heard)
        async for event in self._turns.stream(
            user_id,
            heard,
            tools_allowlist=tools_allowlist,
            max_steps=max_steps,
            request_id=request_id,
            stream_answer=stream_answer,
            with_turn=with_turn,
        ):
            yield event

    async def _photo_answer(
        self, reading: ImageReading, caption: str, request_id: str | None, start: TurnStart
    ) -> AsyncIterator[AgentEvent]:
        """A label or a wine list answered from the catalog, none of the wines already shown in
        the conversation the turn goes on with."""
        async with self._sessions() as s:
            shown: set[uuid.UUID] = set()
            if start.conversation_id is not None:
                shown = await ConversationRepository(s).shown_wine_ids(start.conversation_id)
            repo = WineRepository(s)
            budget = budget_in(caption)
            if reading.kind == "label":
                rec = await label_answer(repo, reading.wine, budget, shown)
            else:
                rec = await wine_list_answer(repo, reading, budget, shown)
        yield Final.of(rec, request_id or uuid.uuid4().hex, total_steps=1)


def _names_wines(reading: ImageReading) -> bool:
    if reading.kind == "label":
        return bool(reading.wine.title or reading.wine.grapes)
    if reading.kind == "wine_list":
        return any(w.title or w.grapes for w in reading.wines)
    return False
