"""One per-key rate limit for every adapter (bot and HTTP API), counted in PostgreSQL.

Counting in the database means every replica and every adapter sees the same count; the window
is a sliding-window estimate (see `RateCounter.hit`).
"""

from __future__ import annotations

from datetime import timedelta

from services.app.coordination import Coordinator
from services.app.ops.metrics import RATE_LIMITED
from services.app.turns.answer_log import log_refusal

WINDOW = timedelta(minutes=1)


class RateLimiter:
    def __init__(self, coordinator: Coordinator, per_minute: int) -> None:
        self.coordinator = coordinator
        self.per_minute = per_minute

    async def allow(self, key: str) -> bool:
        """Count one hit for `key`; False once it is over the limit for the last minute."""
        allowed = await self.coordinator.allow(key, self.per_minute, WINDOW)
        if not allowed:
            log_refusal(key, "rate_limited")
            RATE_LIMITED.inc()
        return allowed
