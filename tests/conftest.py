"""Shared fixtures: one embedded PostgreSQL per test session, cleaned between tests."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from core.settings import Settings, load_settings
from fakes.openai_server import FakeOpenAIServer
from repositories.migrations import migrate
from repositories.models import Wine
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.app.runtime import Runtime, open_runtime
from tests.catalog_factory import small_catalog

TEST_EMBEDDING_DIM = 64
_DATA_DIR = Path(tempfile.mkdtemp(prefix="sommelier-tests-"))
# Each test process's PostgreSQL cluster (about 200 MB) goes when the process ends: exit handlers
# run last-registered first, so the embedded server, started later, has stopped by then.
atexit.register(shutil.rmtree, _DATA_DIR, True)

# Nothing from the developer's shell or .env may leak into the tests.
for _name in list(os.environ):
    if _name.startswith(("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_")):
        del os.environ[_name]


# The modules that take longest, longest first (measured with --durations=0 on 2 cores).
# `--dist loadfile --no-loadscope-reorder` (the Makefile's) hands each worker a whole module
# at a time in this order: the long ones start first and the short ones fill the end. A module
# not listed comes after these, those with more tests first (xdist's own order).
LONGEST_FIRST = (
    "test_crash_recovery.py",
    "test_bench.py",
    "test_faults_llm.py",
    "test_cli.py",
    "test_soak.py",
    "test_packaging.py",
    "test_web_chat_browser.py",
    "test_input_attacks.py",
    "test_faults_telegram.py",
    "test_fake_telegram_server.py",
    "test_wine_repository.py",
    "test_faults_database.py",
    "test_cli_import.py",
    "test_bot_media.py",
    "test_console.py",
    "test_housekeeping.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    modules = [item.nodeid.split("::")[0] for item in items]
    tests_in = {module: modules.count(module) for module in modules}
    first_seen = {module: index for index, module in reversed(list(enumerate(modules)))}

    def rank(module: str) -> tuple[int, int, int]:
        name = module.rsplit("/", 1)[-1]
        listed = LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)
        return listed, -tests_in[module], first_seen[module]

    order = sorted(range(len(items)), key=lambda i: (rank(modules[i]), i))
    items[:] = [items[i] for i in order]


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers a core. Much of the suite waits (on subprocesses, timers, the
    fake servers, each worker's own PostgreSQL), so a second worker a core fills the waits."""
    return 2 * (os.cpu_count() or 1)


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "_env_file": None,
        "data_dir": _DATA_DIR,
        "embedding_dim": TEST_EMBEDDING_DIM,
        "db_timeout_seconds": 5.0,
    }
    values.update(overrides)
    return load_settings(**values)


@pytest.fixture(scope="session")
def settings() -> Settings:
    return make_settings()


@pytest.fixture(scope="session")
async def runtime(settings: Settings) -> AsyncIterator[Runtime]:
    async with open_runtime(settings, database="sommelier_test") as rt:
        await _without_fsync(rt)
        await migrate(rt.engine, "head", settings.embedding_dim)
        yield rt


async def _without_fsync(rt: Runtime) -> None:
    """This worker's own throwaway server (its data dir is a temporary one) does not wait for
    the disk: the TRUNCATE between tests took 30-60 ms of fsync on a virtual disk, an eighth of
    that without. No test brings the host down under it, so nothing it checks depends on it."""
    async with rt.engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text("ALTER SYSTEM SET fsync = off"))
        await conn.execute(text("SELECT pg_reload_conf()"))


# Everything people and their answers leave behind (the catalog aside).
PEOPLE_TABLES = (
    "users, conversations, messages, feedback, answers, telegram_updates, rate_counters, "
    "favourites, answer_facts, buy_clicks, console_links, fact_days, fact_day_values, "
    "outbox_messages, telegram_send_pace, telegram_chat_pace, alert_subscriptions, alerts_sent"
)


@pytest.fixture(autouse=False)
async def clean_db(runtime: Runtime) -> AsyncIterator[Runtime]:
    async with runtime.engine.begin() as conn:
        await conn.execute(
            text(
                "TRUNCATE wines, catalog_syncs, housekeeping_runs, orders, order_syncs, "
                "merch_rules, "
                f"{PEOPLE_TABLES} CASCADE"
            )
        )
    from repositories.wines import forget_catalog_caches

    forget_catalog_caches()
    yield runtime


@pytest.fixture
async def session(clean_db: Runtime) -> AsyncIterator[AsyncSession]:
    async with clean_db.sessions() as s:
        yield s


@pytest.fixture
async def repo(session: AsyncSession) -> WineRepository:
    """The repository over the small test catalog (tests/catalog_factory.py)."""
    repository = WineRepository(session)
    await repository.upsert_many(small_catalog())
    await session.commit()
    return repository


_seed_rows: list[dict[str, Any]] = []  # the bundled catalog as the repository stored it


@pytest.fixture
async def seeded(clean_db: Runtime) -> Runtime:
    """The bundled catalog. A worker's first test loads it through the repository, as `sommelier
    seed` does; later tests get the rows that made written back as they were (new ids, search
    vectors by the same trigger): the same catalog without 82 ORM upserts a test."""
    if not _seed_rows:
        async with clean_db.sessions() as s:
            await WineRepository(s).upsert_many(load_seed_file(DEFAULT_SEED_FILE))
            await s.commit()
        async with clean_db.engine.connect() as conn:
            stored = (await conn.execute(select(Wine.__table__))).mappings().all()
        own = ("id", "created_at", "updated_at", "search_vector")  # what the database fills in
        _seed_rows.extend({k: v for k, v in row.items() if k not in own} for row in stored)
    else:
        async with clean_db.engine.begin() as conn:
            await conn.execute(insert(Wine.__table__), _seed_rows)
    return clean_db


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    """The fake OpenAI-compatible server on 127.0.0.1 (the Telegram fake's tests use `telegram`)."""
    from tests.agent_fixtures import fake_openai  # it imports this module

    async with fake_openai() as srv:
        yield srv


@pytest.fixture(scope="session", autouse=True)
def _one_tls_context() -> Iterator[None]:
    """Each OpenAI client the services build makes a TLS context of its own, reading the CA
    bundle: 20-50 ms, some 550 times a run. The tests speak plain HTTP to their fakes, so one
    context per worker serves every client they build (the product's processes are untouched)."""
    import httpcore2

    original = httpcore2.default_ssl_context
    httpcore2.default_ssl_context = functools.cache(original)
    yield
    httpcore2.default_ssl_context = original


@pytest.fixture(scope="session", autouse=True)
def _fork_server() -> Iterator[None]:
    """The fork server of tests/forkserver.py, if a test started one, stops with the session."""
    from tests import forkserver

    yield
    forkserver.stop()
