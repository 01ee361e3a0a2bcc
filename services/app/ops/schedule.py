"""A source re-read on a schedule (the catalog's feed, the shop's orders): one replica at a
time, under a PostgreSQL advisory lock, and the admins told what went wrong without ever
stopping the schedule."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger(__name__)
Notify = Callable[[str], Awaitable[None]]
R = TypeVar("R")


async def on_one_replica(
    sessions: Callable[[], AsyncSession],
    key: int,
    name: str,
    read: Callable[[], Awaitable[R]],
) -> R | None:
    """`read()` unless another replica holds `key` (then None). The lock is transaction-level,
    held by this session's open transaction for the whole read; closing the session (even on
    cancellation) rolls back and releases it."""
    async with sessions() as lock_session:
        got = await lock_session.scalar(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": key})
        if not got:
            log.info("%s skipped: another replica is at it", name)
            return None
        return await read()


async def tell(notify: Notify, name: str, message: str) -> None:
    try:
        await notify(message)
    except Exception:  # telling the admins must never stop the schedule
        log.exception("cannot tell the admins about the %s", name)


async def every(interval_seconds: float, run_once: Callable[[], Awaitable[object]]) -> None:
    while True:
        await run_once()
        await asyncio.sleep(interval_seconds)
