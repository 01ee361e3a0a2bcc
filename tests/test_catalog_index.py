"""The name index behind «что-нибудь похожее на кьянти»: built once per catalog version, in a
worker thread, and a slow rebuild never holds an answer back for long."""

from __future__ import annotations

import asyncio
import threading

import pytest

from repositories.wines import WineRepository
from services.agent import _catalog_index as module
from services.agent._catalog_index import catalog_index
from services.app.runtime import Runtime
from tests.catalog_factory import record


async def _index(runtime: Runtime) -> object:
    async with runtime.sessions() as s:
        return await catalog_index(WineRepository(s))


async def test_a_burst_of_answers_reads_the_catalog_once(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = 0
    real = WineRepository.name_entries

    async def counted(self: WineRepository) -> list:
        nonlocal reads
        reads += 1
        return await real(self)

    monkeypatch.setattr(WineRepository, "name_entries", counted)
    # Every caller waits for the new index here: on a loaded machine a build can outlast the
    # moment after which a caller takes the previous index (the next test's subject).
    monkeypatch.setattr(module, "STALE_AFTER_SECONDS", 60.0)
    async with seeded.sessions() as s:  # a new catalog version for this test
        await WineRepository(s).upsert_many([record("burst-wine", name="Вино Всплеска")])
        await s.commit()
    indexes = await asyncio.gather(*(_index(seeded) for _ in range(20)))
    assert reads == 1
    assert all(index is indexes[0] for index in indexes)


async def test_a_slow_rebuild_answers_from_the_previous_index_meanwhile(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = await _index(seeded)
    real = module.CatalogIndex
    rebuilding = threading.Event()
    release = threading.Event()

    def slow(entries: list) -> object:
        rebuilding.set()
        release.wait(30)  # in the worker thread, as a 100k-wine catalog takes its time
        return real(entries)

    monkeypatch.setattr(module, "CatalogIndex", slow)
    monkeypatch.setattr(module, "STALE_AFTER_SECONDS", 0.05)
    async with seeded.sessions() as s:
        await WineRepository(s).upsert_many([record("fresh-wine", name="Свежее Вино Дня")])
        await s.commit()

    try:
        meanwhile = await _index(seeded)
        # Answered from the previous index while the rebuild is still stuck in its thread.
        assert rebuilding.is_set() and not release.is_set()
        assert meanwhile is before
    finally:
        release.set()

    for _ in range(100):  # the rebuild finishes in the background
        after = await _index(seeded)
        if after is not before:
            break
        await asyncio.sleep(0.05)
    assert after is not before
    assert after.match("свежее вино дня")[0]  # type: ignore[attr-defined]
