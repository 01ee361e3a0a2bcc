"""The event loop every command runs on.

uvloop by default where it is installed: asyncpg, aiohttp and the loop's own scheduling spend
less CPU per answer on it (see BENCHMARKS.md). `EVENT_LOOP=asyncio` keeps the standard loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from core.errors import SettingsError

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T], choice: str = "auto") -> T:
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                main.close()
                raise SettingsError(
                    "EVENT_LOOP=uvloop, but uvloop is not installed (pip install uvloop)"
                ) from None
        else:
            return uvloop.run(main)
    return asyncio.run(main)
