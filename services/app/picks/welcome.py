"""The welcome: three picks for the day (season, holidays, weekend) after /start, the 18+ gate
or the taste quiz, steered by the person's taste; it opens the conversation like a turn."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

from core.recommendation import Recommendation
from repositories.turns import TurnStart
from services.agent import AgentEvent, Final, WelcomeWriter
from services.app.turns.turns import Turns, WithTurn, final_answer


class WelcomePicks:
    def __init__(self, writer: WelcomeWriter, turns: Turns) -> None:
        self._writer = writer
        self._turns = turns

    async def welcome(self, user_id: int, with_turn: WithTurn | None = None) -> Recommendation:
        return await final_answer(self._turns.turn(user_id, self._picks, with_turn=with_turn))

    async def _picks(self, start: TurnStart) -> AsyncIterator[AgentEvent]:
        rec = await self._writer.write(start.taste)
        yield Final.of(rec, uuid.uuid4().hex, total_steps=1)
