"""State that several bot processes share through PostgreSQL: which updates were seen, which
are still being handled per chat, rate-limit counters, and when each housekeeping job last
ran."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text

from repositories.statements import Executor, driver_execute, driver_fetchall, driver_fetchrow


@dataclass(frozen=True)
class Intake:
    """An update as it arrives: stored with its body before Telegram is told it arrived."""

    update_id: int
    chat_id: int | None
    user_id: int | None
    body: dict[str, Any]


@dataclass(frozen=True)
class LeasedUpdate:
    """An update this process holds the lease on, with what an earlier holder left."""

    update_id: int
    chat_id: int | None
    body: dict[str, Any]
    attempts: int
    plan: dict[str, Any] | None
    sent_parts: int


_UNFINISHED = "finished_at IS NULL AND parked_at IS NULL"


class UpdateLedger:
    """One row per Telegram update: stored before it is acknowledged, leased while a process
    works on it, finished (its body dropped) once answered."""

    def __init__(self, session: Executor) -> None:
        self.session = session

    async def intake(
        self, updates: Sequence[Intake], owner: str, lease: timedelta
    ) -> tuple[set[int], set[int]]:
        """Store updates leased to `owner` in one round trip: (the ones stored now — the
        others were already stored by an earlier delivery —, the chats among them whose earlier
        update is still unfinished)."""
        rows = await driver_fetchall(
            self.session,
            "WITH incoming AS (SELECT * FROM unnest("
            "CAST($1 AS bigint[]), CAST($2 AS bigint[]), CAST($3 AS bigint[]),"
            " CAST($4 AS jsonb[])) AS t(update_id, chat_id, user_id, body)), "
            "stored AS (INSERT INTO telegram_updates "
            "(update_id, chat_id, user_id, body, lease_owner, lease_until) "
            "SELECT update_id, chat_id, user_id, body, $5,"
            " clock_timestamp() + make_interval(secs => $6) FROM incoming "
            "ON CONFLICT (update_id) DO NOTHING RETURNING update_id, chat_id) "
            "SELECT s.update_id, EXISTS (SELECT 1 FROM telegram_updates t "
            f"WHERE t.chat_id = s.chat_id AND t.update_id < s.update_id AND {_UNFINISHED})"
            " FROM stored s",
            [u.update_id for u in updates],
            [u.chat_id for u in updates],
            [u.user_id for u in updates],
            [json.dumps(u.body, ensure_ascii=False) for u in updates],
            owner,
            lease.total_seconds(),
        )
        stored = {int(r[0]) for r in rows}
        behind = {int(r[0]) for r in rows if r[1]}
        return stored, behind

    async def earlier_pending(self, update_id: int, chat_id: int) -> bool:
        """Is an earlier update of this chat still unanswered (and not parked)?"""
        value = await self.session.scalar(
            text(
                "SELECT EXISTS (SELECT 1 FROM telegram_updates WHERE chat_id = :c "
                f"AND update_id < :u AND {_UNFINISHED})"
            ),
            {"c": chat_id, "u": update_id},
        )
        return bool(value)

    async def renew(self, update_ids: Sequence[int], owner: str, lease: timedelta) -> set[int]:
        """Extend `owner`'s leases; returns the ids it still holds."""
        rows = await self.session.scalars(
            text(
                "UPDATE telegram_updates SET lease_until = clock_timestamp()"
                " + make_interval(secs => :lease) "
                f"WHERE update_id = ANY(:ids) AND lease_owner = :owner AND {_UNFINISHED} "
                "RETURNING update_id"
            ),
            {"ids": list(update_ids), "owner": owner, "lease": lease.total_seconds()},
        )
        return {int(r) for r in rows}

    async def take_expired(
        self,
        owner: str,
        lease: timedelta,
        limit: int,
        held: Sequence[int] = (),
        dead_after: timedelta | None = None,
    ) -> list[LeasedUpdate]:
        """Take over, oldest first, the updates whose holder stopped renewing its lease, and
        with `dead_after` also those held by a process whose heartbeat is older than that (it
        died: no need to wait for each lease). Never `owner`'s own `held` updates: a process
        whose renewal came late (a blocked event loop, a slow database) is still answering
        them, and taking them over would answer them twice."""
        args: list[Any] = [owner, lease.total_seconds(), limit, list(held)]
        dead = ""
        if dead_after is not None:
            args.append(dead_after.total_seconds())
            dead = (
                " OR lease_owner IN (SELECT name FROM bot_processes"
                " WHERE heartbeat_at < clock_timestamp() - make_interval(secs => $5))"
            )
        rows = await driver_fetchall(
            self.session,
            "UPDATE telegram_updates t SET lease_owner = $1,"
            " lease_until = clock_timestamp() + make_interval(secs => $2),"
            " attempts = t.attempts + 1 "
            "FROM (SELECT update_id FROM telegram_updates "
            f"WHERE {_UNFINISHED} AND (lease_until < clock_timestamp(){dead}) "
            "AND NOT (lease_owner = $1 AND update_id = ANY(CAST($4 AS bigint[]))) "
            "ORDER BY update_id LIMIT $3 FOR UPDATE SKIP LOCKED) expired "
            "WHERE t.update_id = expired.update_id "
            "RETURNING t.update_id, t.chat_id, t.body, t.attempts, t.plan, t.sent_parts",
            *args,
        )
        return sorted(
            (LeasedUpdate(int(r[0]), r[1], r[2] or {}, int(r[3]), r[4], int(r[5])) for r in rows),
            key=lambda u: u.update_id,
        )

    async def release(self, update_ids: Sequence[int], owner: str) -> None:
        """Give up leases at once (a stopping process), so another process need not wait."""
        await self.session.execute(
            text(
                "UPDATE telegram_updates SET lease_until = clock_timestamp() "
                f"WHERE update_id = ANY(:ids) AND lease_owner = :owner AND {_UNFINISHED}"
            ),
            {"ids": list(update_ids), "owner": owner},
        )

    async def claim_notice(self, update_id: int) -> bool:
        """True once per update: the first takeover that tells the person their answer is late
        claims it, so that a takeover of that takeover does not tell them again."""
        claimed = await self.session.scalar(
            text(
                "UPDATE telegram_updates SET notice_sent = true"
                " WHERE update_id = :u AND NOT notice_sent RETURNING update_id"
            ),
            {"u": update_id},
        )
        return claimed is not None

    # The five "part sent" marks and the finish run for every answer: the driver's own SQL.
    async def mark_sent(self, update_id: int, parts: int, owner: str | None = None) -> bool:
        """Record the parts sent; with `owner`, only while it holds the update (False:
        another process took it over)."""
        if owner is None:
            sql, args = "UPDATE telegram_updates SET sent_parts = $2 WHERE update_id = $1", ()
        else:
            sql = (
                "UPDATE telegram_updates SET sent_parts = $2"
                " WHERE update_id = $1 AND lease_owner = $3"
            )
            args = (owner,)
        return bool(await driver_execute(self.session, sql, update_id, parts, *args))

    async def finish(self, update_id: int) -> None:
        """Answered: the body and the plan (personal data) go at once. An update that is not
        stored (yet) gets a finished row in its place: one answered while the database hung
        may still be stored by the intake the server reads once it wakes, possibly after this
        mark; that late intake then finds it delivered, instead of storing it unanswered to
        hold its chat back for a whole lease and be answered a second time. (The insert that
        finds the row costs what the update did: bench/runs/2026-11-27-bot-cpu-second-round.md.)
        """
        await driver_execute(
            self.session,
            "INSERT INTO telegram_updates (update_id, finished_at) VALUES ($1, now())"
            " ON CONFLICT (update_id) DO UPDATE SET finished_at = now(), body = NULL,"
            " plan = NULL, lease_owner = NULL, lease_until = NULL",
            update_id,
        )

    async def park(self, update_id: int, error: str) -> None:
        """Given up on: kept (without its body) with the reason, for admins to see."""
        await self.session.execute(
            text(
                "UPDATE telegram_updates SET parked_at = now(), error = :e, body = NULL,"
                " plan = NULL, lease_owner = NULL, lease_until = NULL WHERE update_id = :u"
            ),
            {"u": update_id, "e": error[:500]},
        )

    async def parked(self, limit: int = 5) -> tuple[int, list[tuple[int, str]]]:
        """How many updates are parked, and the latest (update id, error)."""
        total = int(
            await self.session.scalar(
                text("SELECT count(*) FROM telegram_updates WHERE parked_at IS NOT NULL")
            )
            or 0
        )
        rows = await self.session.execute(
            text(
                "SELECT update_id, coalesce(error, '') FROM telegram_updates "
                "WHERE parked_at IS NOT NULL ORDER BY parked_at DESC LIMIT :n"
            ),
            {"n": limit},
        )
        return total, [(int(u), str(e)) for u, e in rows.all()]

    async def backlog(self) -> int:
        """Updates stored and not yet answered or parked."""
        return int(
            await self.session.scalar(
                text(f"SELECT count(*) FROM telegram_updates WHERE {_UNFINISHED}")
            )
            or 0
        )

    async def forget_older_than(self, age: timedelta) -> int:
        result = await self.session.execute(
            text(
                "DELETE FROM telegram_updates WHERE received_at < now() - make_interval(secs => :s)"
                f" AND NOT ({_UNFINISHED})"
            ),
            {"s": age.total_seconds()},
        )
        return result.rowcount or 0


class Processes:
    """The bot processes sharing the ledger, each with the time of its last heartbeat: a
    process that stops beating is dead, and its updates are taken over without waiting for
    their leases."""

    def __init__(self, session: Executor) -> None:
        self.session = session

    async def beat(self, name: str) -> None:
        await driver_execute(
            self.session,
            "INSERT INTO bot_processes (name, heartbeat_at) VALUES ($1, clock_timestamp())"
            " ON CONFLICT (name) DO UPDATE SET heartbeat_at = clock_timestamp()",
            name,
        )

    async def leave(self, name: str) -> None:
        await self.session.execute(text("DELETE FROM bot_processes WHERE name = :n"), {"n": name})

    async def forget_older_than(self, age: timedelta) -> None:
        """Processes silent this long: dead, and long since relieved of their updates."""
        await self.session.execute(
            text(
                "DELETE FROM bot_processes WHERE heartbeat_at < now() - make_interval(secs => :s)"
            ),
            {"s": age.total_seconds()},
        )


# The sliding-window count of `RateCounter.hit`, alone or with the person's gate beside it.
_HIT_CTE = (
    "WITH clock AS ("
    " SELECT extract(epoch FROM clock_timestamp()) AS t, CAST($2 AS float8) AS w), "
    "hit AS ("
    " INSERT INTO rate_counters (key, window_start, hits)"
    " SELECT $1, to_timestamp(floor(t / w) * w), 1 FROM clock"
    " ON CONFLICT (key, window_start) DO UPDATE"
    " SET hits = rate_counters.hits + 1"
    " RETURNING window_start, hits) "
)
_HIT_ESTIMATE = (
    "hit.hits + coalesce(prev.hits, 0)"
    " * greatest(0, 1 - (t - extract(epoch FROM hit.window_start)) / w)"
)
_HIT_FROM = (
    " FROM hit CROSS JOIN clock "
    "LEFT JOIN rate_counters prev ON prev.key = $1"
    " AND prev.window_start = hit.window_start - make_interval(secs => w)"
)
_HIT = f"{_HIT_CTE}SELECT {_HIT_ESTIMATE}{_HIT_FROM}"
_HIT_AND_ACCESS = (
    f"{_HIT_CTE}SELECT {_HIT_ESTIMATE}, u.age_confirmed, u.is_active{_HIT_FROM}"
    " LEFT JOIN users u ON u.id = $3"
)


class RateCounter:
    def __init__(self, session: Executor) -> None:
        self.session = session

    async def hit(self, key: str, window: timedelta) -> float:
        """Count one hit and return the sliding-window estimate of hits in the last `window`:
        this window's hits plus the previous window's, weighted by the share of it that still
        lies within the last `window`. Unlike a bare fixed window, a burst that straddles a
        window boundary cannot pass twice the limit."""
        row = await driver_fetchrow(
            self.session,
            _HIT,
            key,
            window.total_seconds(),
        )
        return float(row[0] or 0) if row is not None else 0.0

    async def hit_and_read_access(
        self, key: str, window: timedelta, user_id: int
    ) -> tuple[float, tuple[bool, bool] | None]:
        """`hit`, and the person's gate as `repositories.users.read_access` reads it, in the
        same statement (a question's two looks before anything else, one round trip)."""
        row = await driver_fetchrow(
            self.session,
            _HIT_AND_ACCESS,
            key,
            window.total_seconds(),
            user_id,
        )
        if row is None:
            return 0.0, None
        access = None if row[1] is None else (bool(row[1]), bool(row[2]))
        return float(row[0] or 0), access

    async def forget_older_than(self, age: timedelta) -> None:
        await self.session.execute(
            text(
                "DELETE FROM rate_counters WHERE window_start < now() - make_interval(secs => :s)"
            ),
            {"s": age.total_seconds()},
        )


class HousekeepingRuns:
    """When each scheduled job (the backup, the retention purge) last began a run that
    completed: a replica runs a job only once a whole round has passed since, whichever replica
    ran it."""

    def __init__(self, session: Executor) -> None:
        self.session = session

    async def due(self, job: str, every: timedelta) -> datetime | None:
        """The database's time now, when `job` never ran or its last run began at least
        `every` ago; None while it is not due."""
        row = (
            await self.session.execute(
                text(
                    "SELECT clock_timestamp(), NOT EXISTS (SELECT 1 FROM housekeeping_runs"
                    " WHERE job = :j AND started_at > clock_timestamp()"
                    " - make_interval(secs => :s))"
                ),
                {"j": job, "s": every.total_seconds()},
            )
        ).one()
        return row[0] if row[1] else None

    async def record(self, job: str, started_at: datetime) -> None:
        await self.session.execute(
            text(
                "INSERT INTO housekeeping_runs (job, started_at) VALUES (:j, :t) "
                "ON CONFLICT (job) DO UPDATE SET started_at = EXCLUDED.started_at"
            ),
            {"j": job, "t": started_at},
        )
