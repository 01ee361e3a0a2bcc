"""The welcome: three picks for the day (season, holidays, weekend) after /start, the 18+ gate
or the taste quiz, steered by the person's taste; it opens the conversation like a turn."""

from __future__ import annotations

from datetime import timedelta

from core.recommendation import Recommendation
from repositories.turns import Thread
from repositories.users import ConversationRepository
from services.agent import WelcomeWriter
from services.app.database import Database, database_errors_as_unavailable
from services.app.taste.profiles import TasteProfiles
from services.app.turns.store import TurnStore, WithTurn


class WelcomePicks:
    def __init__(
        self,
        database: Database,
        writer: WelcomeWriter,
        taste: TasteProfiles,
        store: TurnStore,
        inactivity: timedelta,
    ) -> None:
        self._sessions = database.sessions
        self._writer = writer
        self._taste = taste
        self._store = store
        self._inactivity = inactivity

    async def welcome(self, user_id: int, with_turn: WithTurn | None = None) -> Recommendation:
        profile = await self._taste.merged(user_id)
        with database_errors_as_unavailable():
            rec = await self._writer.write(profile)
        async with self._sessions() as s:
            conv = await ConversationRepository(s).current(user_id, self._inactivity)
            await s.commit()
        await self._store.store(user_id, Thread(conv.id), rec, with_turn)
        return rec
