"""The bot hands glibc's free pages back to the system while it runs (sommelier/memory.py)."""

from __future__ import annotations

import asyncio
import platform

import pytest

from sommelier.memory import release_free_memory, releasing_free_memory

glibc_only = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")


@glibc_only
def test_free_memory_is_released_on_glibc() -> None:
    assert release_free_memory() is True


@glibc_only
async def test_release_runs_every_interval_and_stops_with_the_block() -> None:
    async with releasing_free_memory(0.02) as releaser:
        await asyncio.sleep(0.15)
    runs = releaser.runs
    assert runs >= 3
    await asyncio.sleep(0.1)
    assert releaser.runs == runs  # nothing runs after the bot stopped
