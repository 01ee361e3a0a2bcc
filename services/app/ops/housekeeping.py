"""The owner's data kept in order by the running bot: scheduled backups (BACKUP_EVERY_HOURS,
the newest BACKUP_KEEP kept) and the daily purge of conversations older than
MESSAGE_RETENTION_DAYS. Each job runs once a round between all the replicas: a replica whose
timer fires takes the job's PostgreSQL advisory lock without waiting (taken: another replica
is at it) and runs the job only if no run that completed began within the round (the table
housekeeping_runs) — replicas that did not start in step make one backup a round between
them, not one each."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import text

from core.errors import SommelierError
from repositories.coordination import HousekeepingRuns
from repositories.facts import clear_wordings
from repositories.ownership import purge_conversations
from repositories.telegram_limits import forget_pace
from services.app.ops.backup import BackupReport, backup, default_backup_path, rotate
from services.app.runtime import Runtime

log = logging.getLogger(__name__)

BACKUP_LOCK = 72_6578_0005
RETENTION_LOCK = 72_6578_0006
RETENTION_EVERY = timedelta(days=1)
#: A round may begin this share of itself early (timers and clocks are not exact).
EARLY = 0.01


@dataclass(frozen=True)
class Job:
    name: str
    seconds: float  # a round
    lock: int
    run: Callable[[], Awaitable[object]]


class Housekeeping:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.settings = rt.settings
        # One job at a time in a process: each holds its lock's connection and works through
        # another, and the maintenance pool is small (a backup and the purge both due at start
        # used to exhaust it).
        self._one_at_a_time = asyncio.Lock()

    async def backup_now(self) -> BackupReport:
        directory = self.settings.backups_path
        report = await backup(self.rt, default_backup_path(directory))
        rotate(directory, self.settings.backup_keep)
        return report

    async def purge_old_conversations(self) -> tuple[int, int]:
        """(conversations, messages) deleted; 0 days keeps everything."""
        days = self.settings.message_retention_days
        if days <= 0:
            return 0, 0
        async with self.rt.maintenance_sessions() as session:
            purged = await purge_conversations(session, timedelta(days=days))
            await clear_wordings(session, timedelta(days=days))  # the console's request words
            await forget_pace(session, timedelta(days=1))  # chats quiet for a day: no pace
            await session.commit()
        return purged

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop`: the retention purge daily, backups every BACKUP_EVERY_HOURS."""
        jobs: list[Job] = [
            Job("retention", RETENTION_EVERY.total_seconds(), RETENTION_LOCK, self._purge_logged)
        ]
        if self.settings.backup_every_hours > 0:
            every = self.settings.backup_every_hours * 3600
            jobs.append(Job("backup", every, BACKUP_LOCK, self._backup_logged))
        await asyncio.gather(*(self._every(job, stop) for job in jobs))

    async def _every(self, job: Job, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self._once(job)
            except (SommelierError, OSError) as exc:  # logged; tried again next round
                log.warning("housekeeping job failed: %s", exc)
            except Exception as exc:  # never the end of the loop: the next round tries again
                log.error("housekeeping job failed: %s", type(exc).__name__, exc_info=exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), job.seconds)

    async def _once(self, job: Job) -> None:
        async with self._one_at_a_time, self.rt.maintenance.connect() as conn:
            lock = {"k": job.lock}
            if not await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), lock):
                return  # another replica is at it
            try:
                runs = HousekeepingRuns(conn)
                began = await runs.due(job.name, timedelta(seconds=job.seconds * (1 - EARLY)))
                await conn.commit()  # the lock is the session's: no transaction held meanwhile
                if began is None:
                    return  # done this round, by this replica or another
                await job.run()
                await runs.record(job.name, began)  # a run that failed is tried again
                await conn.commit()
            finally:
                await conn.execute(text("SELECT pg_advisory_unlock(:k)"), lock)

    async def _purge_logged(self) -> None:
        conversations, messages = await self.purge_old_conversations()
        if conversations:
            log.info("retention: purged %d conversations (%d messages)", conversations, messages)

    async def _backup_logged(self) -> None:
        report = await self.backup_now()
        log.info("backup written: %s", " — ".join(report.lines()))
