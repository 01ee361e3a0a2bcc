"""State that several bot processes share through PostgreSQL: which updates were seen, which
are still being handled per chat, and rate-limit counters."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession


class UpdateLedger:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def claim(self, update_id: int, chat_id: int | None) -> bool:
        """Record an update; False when another delivery of it was already claimed."""
        row = await self.session.execute(
            text(
                "INSERT INTO telegram_updates (update_id, chat_id) VALUES (:u, :c) "
                "ON CONFLICT (update_id) DO NOTHING RETURNING update_id"
            ),
            {"u": update_id, "c": chat_id},
        )
        return row.first() is not None

    async def claim_in_turn(
        self, update_id: int, chat_id: int, stale_after: timedelta
    ) -> tuple[bool, bool]:
        """`claim` and `earlier_pending` in one round trip: (claimed, an earlier one pending)."""
        row = (
            await self.session.execute(
                text(
                    "WITH claimed AS (INSERT INTO telegram_updates (update_id, chat_id) "
                    "VALUES (:u, :c) ON CONFLICT (update_id) DO NOTHING RETURNING update_id) "
                    "SELECT EXISTS (SELECT 1 FROM claimed), EXISTS (SELECT 1 FROM "
                    "telegram_updates WHERE chat_id = :c AND update_id < :u "
                    "AND finished_at IS NULL "
                    "AND received_at > now() - make_interval(secs => :stale))"
                ),
                {"u": update_id, "c": chat_id, "stale": stale_after.total_seconds()},
            )
        ).one()
        return bool(row[0]), bool(row[1])

    async def earlier_pending(self, update_id: int, chat_id: int, stale_after: timedelta) -> bool:
        """Is an earlier update of this chat still being handled (and not abandoned)?"""
        value = await self.session.scalar(
            text(
                "SELECT EXISTS (SELECT 1 FROM telegram_updates WHERE chat_id = :c "
                "AND update_id < :u AND finished_at IS NULL "
                "AND received_at > now() - make_interval(secs => :stale))"
            ),
            {"c": chat_id, "u": update_id, "stale": stale_after.total_seconds()},
        )
        return bool(value)

    async def finish(self, update_id: int) -> None:
        await self.session.execute(
            text("UPDATE telegram_updates SET finished_at = now() WHERE update_id = :u"),
            {"u": update_id},
        )

    async def forget_older_than(self, age: timedelta) -> int:
        result = await self.session.execute(
            text(
                "DELETE FROM telegram_updates WHERE received_at < now() - make_interval(secs => :s)"
            ),
            {"s": age.total_seconds()},
        )
        return result.rowcount or 0


class RateCounter:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def hit(self, key: str, window: timedelta) -> float:
        """Count one hit and return the sliding-window estimate of hits in the last `window`:
        this window's hits plus the previous window's, weighted by the share of it that still
        lies within the last `window`. Unlike a bare fixed window, a burst that straddles a
        window boundary cannot pass twice the limit."""
        return float(
            await self.session.scalar(
                text(
                    "WITH clock AS ("
                    " SELECT extract(epoch FROM clock_timestamp()) AS t, CAST(:w AS float8) AS w), "
                    "hit AS ("
                    " INSERT INTO rate_counters (key, window_start, hits)"
                    " SELECT :k, to_timestamp(floor(t / w) * w), 1 FROM clock"
                    " ON CONFLICT (key, window_start) DO UPDATE"
                    " SET hits = rate_counters.hits + 1"
                    " RETURNING window_start, hits) "
                    "SELECT hit.hits + coalesce(prev.hits, 0)"
                    " * greatest(0, 1 - (t - extract(epoch FROM hit.window_start)) / w) "
                    "FROM hit CROSS JOIN clock "
                    "LEFT JOIN rate_counters prev ON prev.key = :k"
                    " AND prev.window_start = hit.window_start - make_interval(secs => w)"
                ),
                {"k": key, "w": window.total_seconds()},
            )
            or 0
        )

    async def forget_older_than(self, age: timedelta) -> None:
        await self.session.execute(
            text(
                "DELETE FROM rate_counters WHERE window_start < now() - make_interval(secs => :s)"
            ),
            {"s": age.total_seconds()},
        )
