"""Shared fixtures: one embedded PostgreSQL per test session, cleaned between tests."""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from core.settings import Settings, load_settings
from fakes.openai_server import FakeOpenAIServer
from repositories.migrations import migrate
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.app.runtime import Runtime, open_runtime

TEST_EMBEDDING_DIM = 64
_DATA_DIR = Path(tempfile.mkdtemp(prefix="sommelier-tests-"))

# Nothing from the developer's shell or .env may leak into the tests.
for _name in list(os.environ):
    if _name.startswith(("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_")):
        del os.environ[_name]


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
        await migrate(rt.engine, "head", settings.embedding_dim)
        yield rt


@pytest.fixture(autouse=False)
async def clean_db(runtime: Runtime) -> AsyncIterator[Runtime]:
    async with runtime.engine.begin() as conn:
        await conn.execute(
            text(
                "TRUNCATE wines, users, conversations, messages, feedback, answers, "
                "telegram_updates, rate_counters, favourites, answer_facts, buy_clicks, "
                "catalog_syncs, console_links, fact_days, fact_day_values CASCADE"
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
async def seeded(clean_db: Runtime) -> Runtime:
    async with clean_db.sessions() as s:
        await WineRepository(s).upsert_many(load_seed_file(DEFAULT_SEED_FILE))
        await s.commit()
    return clean_db


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    """The fake OpenAI-compatible server on 127.0.0.1 (the Telegram fake's tests use `telegram`)."""
    from tests.agent_fixtures import fake_openai  # it imports this module

    async with fake_openai() as srv:
        yield srv


@pytest.fixture(scope="session", autouse=True)
def _fork_server() -> Iterator[None]:
    """The fork server of tests/forkserver.py, if a test started one, stops with the session."""
    from tests import forkserver

    yield
    forkserver.stop()
