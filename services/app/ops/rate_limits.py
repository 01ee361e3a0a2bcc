"""One set of rate limits for every adapter (bot, HTTP API, web chat), counted in PostgreSQL.

Counting in the database means every replica and every adapter sees the same count; the window
is a sliding-window estimate (see `RateCounter.hit`).
"""

from __future__ import annotations

from datetime import timedelta

from repositories.coordination import RateCounter
from services.app.database import Database, commit
from services.app.ops.metrics import RATE_LIMITED
from services.app.turns.answers_log import log_refusal

WINDOW = timedelta(minutes=1)


class RateLimits:
    def __init__(self, database: Database, per_person: int, per_address: int) -> None:
        self._statements = database.statements
        self.per_person = per_person
        self.per_address = per_address

    async def allow(self, key: str) -> bool:
        """Count one hit for a person or an API client (`RATE_LIMIT_PER_MINUTE`); False once
        it is over the limit for the last minute."""
        return await self._allow(key, self.per_person)

    async def allow_with_access(
        self, key: str, user_id: int
    ) -> tuple[bool, tuple[bool, bool] | None]:
        """`allow(key)`, and the person's gate (age confirmed, active; None for someone the bot
        has not met) read in the same statement: a question's two looks at the database
        before anything else, in one round trip."""
        async with self._statements() as s:
            hits, access = await RateCounter(s).hit_and_read_access(key, WINDOW, user_id)
            await commit(s)
        return self._judged(key, hits, self.per_person), access

    async def allow_address(self, key: str) -> bool:
        """The same for one IP address's calls to the web chat, all its visitors together
        (`WEB_RATE_LIMIT_PER_ADDRESS`)."""
        return await self._allow(key, self.per_address)

    async def _allow(self, key: str, limit: int) -> bool:
        async with self._statements() as s:
            hits = await RateCounter(s).hit(key, WINDOW)
            await commit(s)
        return self._judged(key, hits, limit)

    @staticmethod
    def _judged(key: str, hits: float, limit: int) -> bool:
        allowed = hits <= limit
        if not allowed:
            log_refusal(key, "rate_limited")
            RATE_LIMITED.inc()
        return allowed
