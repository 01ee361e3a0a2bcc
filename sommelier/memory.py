"""Keep a long-running process's memory flat: hand glibc's free pages back to the system.

The chaos soak (BENCHMARKS.md) showed the bot's live memory flat — Python's allocated blocks
and glibc's bytes in use stay level — while RSS kept creeping up: after every burst, glibc keeps
the freed memory (fragmented between live allocations, so it never shrinks the heap by itself).
`malloc_trim(0)` returns those pages; doing it once a minute costs a few milliseconds.

The objects made at start-up (modules, models, the catalog's indexes: most of the process's
objects) live as long as the process. `freeze_start_up` moves them out of the cyclic
collector's sight, so a full collection while serving scans what serving made instead of
everything, and the youngest generation is collected every `YOUNG_COLLECTION_THRESHOLD`
allocations instead of every 700: serving makes short-lived objects by the thousand per
answer (requests, replies, rows), most gone before a collection would look at them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass

log = logging.getLogger(__name__)

RELEASE_INTERVAL_SECONDS = 60.0
#: Python's default is 700; at that the collector took about a twentieth of the bot's CPU per
#: answer, at 10,000 a two-hundredth (bench/runs/2026-11-28-turn-cost-cpu.md).
YOUNG_COLLECTION_THRESHOLD = 10_000


def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018 — glibc only
    except (OSError, AttributeError):
        return None
    return libc


GLIBC = _libc()  # None off glibc


def freeze_start_up() -> None:
    """Once, when the process is ready to serve: start-up's garbage collected, the rest
    frozen. Otherwise every full collection scans start-up's objects again, a cost spread over
    the answers between collections (bench/runs/2026-11-27-bot-cpu-second-round.md). From
    here on the youngest generation is collected less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, middle, old)


def release_free_memory() -> bool:
    """Return glibc's free pages to the system; False where there is no glibc."""
    if GLIBC is None:
        return False
    GLIBC.malloc_trim(0)
    return True


@dataclass
class MemoryReleaser:
    interval: float
    runs: int = 0

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            if not release_free_memory():
                return
            self.runs += 1


@contextlib.asynccontextmanager
async def releasing_free_memory(
    interval: float = RELEASE_INTERVAL_SECONDS,
) -> AsyncIterator[MemoryReleaser]:
    """Release free memory every `interval` seconds while the block runs."""
    releaser = MemoryReleaser(interval)
    task = asyncio.create_task(releaser.run(), name="release-free-memory")
    try:
        yield releaser
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
