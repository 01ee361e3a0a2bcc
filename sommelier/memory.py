"""Keep a long-running process's memory from creeping up with glibc's per-thread arenas.

glibc gives each thread that allocates under contention an arena of its own (up to 8 per
core). The bot is one event loop plus a few helper threads (DNS lookups, `to_thread`), and
memory freed in one arena cannot serve another, so RSS ratchets up after every burst. Two
arenas are plenty for an asyncio process; the chaos soak in BENCHMARKS.md has the numbers.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os

M_ARENA_MAX = -8  # from glibc's malloc.h
ARENAS = 2


def limit_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Cap glibc's arenas unless MALLOC_ARENA_MAX says otherwise; call before threads start.
    Returns whether the cap was set (False off glibc)."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(M_ARENA_MAX, arenas))
    return False
