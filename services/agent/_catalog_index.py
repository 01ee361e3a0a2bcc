"""The catalog's name index (core/language/catalog_terms.CatalogIndex), cached per version.

Building it is pure Python over every wine (milliseconds for a shop, ~15 s at 100k wines), so
it runs in a worker thread, once per catalog version however many answers ask at the same
moment. An answer waits for a new version's index up to STALE_AFTER_SECONDS; past that it uses
the previous version's index rather than keep the person waiting.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from core.language.catalog_terms import CatalogEntry, CatalogIndex
from repositories.catalog_cache import database_key
from repositories.wines import WineRepository

Version = tuple[int, str]
STALE_AFTER_SECONDS = 1.0

_cache: dict[str, tuple[Version, CatalogIndex]] = {}


@dataclass
class _LoopState:
    """Per event loop (a lock or a task belongs to one): one reader of the catalog's names per
    database at a time, so a burst of answers after a start or an import does not each read
    every wine, and the index builds under way."""

    reading: dict[str, asyncio.Lock] = field(default_factory=dict)
    building: dict[tuple[str, Version], asyncio.Task[CatalogIndex]] = field(default_factory=dict)


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
    weakref.WeakKeyDictionary()
)


async def catalog_index(repo: WineRepository) -> CatalogIndex:
    key = database_key(repo.session.bind)
    version = await repo.catalog_version()
    cached = _cache.get(key)
    if cached is not None and cached[0] == version:
        return cached[1]
    state = _loops.setdefault(asyncio.get_running_loop(), _LoopState())
    async with state.reading.setdefault(key, asyncio.Lock()):
        cached = _cache.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]
        task = state.building.get((key, version))
        if task is None:
            entries = await repo.name_entries()
            task = asyncio.ensure_future(_build(state, key, version, entries))
            state.building[(key, version)] = task
    if cached is None:
        return await asyncio.shield(task)
    try:
        return await asyncio.wait_for(asyncio.shield(task), STALE_AFTER_SECONDS)
    except TimeoutError:
        return cached[1]


async def _build(
    state: _LoopState, key: str, version: Version, entries: list[CatalogEntry]
) -> CatalogIndex:
    try:
        index = await asyncio.to_thread(CatalogIndex, entries)
        _cache[key] = (version, index)
        return index
    finally:
        state.building.pop((key, version), None)
