"""Statements written as the driver's own SQL (the ledger's marks and finish, the rate counter,
the gate's read) behave alike through a Core connection and an ORM session, and a connection
the server ended is "the database is away", not a crash. On a connection whose statements
commit on their own asyncpg runs them directly: the same rows, SQLAlchemy's errors, and a
connection whose statement was cut off never serves again."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, ProgrammingError
from sqlalchemy.ext.asyncio import AsyncConnection

from core.errors import DatabaseUnavailableError
from repositories.coordination import RateCounter, UpdateLedger
from repositories.database import core_connections, make_engine, make_session_factory
from repositories.statements import driver_execute, driver_fetchrow
from repositories.telegram_limits import Pace, PartsSent, take_permit
from repositories.users import UserRepository, read_access
from services.app.database import Database, DatabaseSessions
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.test_crash_recovery import ledger_row


async def test_the_gate_reads_the_same_through_a_connection_and_a_session(
    clean_db: Runtime,
) -> None:
    await _an_adult(clean_db, 501)
    connections = core_connections(clean_db.sessions)
    assert connections is not None
    async with connections() as conn:
        through_connection = (await read_access(conn, 501), await read_access(conn, 502))
    async with clean_db.sessions() as s:
        through_session = (await read_access(s, 501), await read_access(s, 502))
    assert through_connection == through_session == ((True, True), None)


async def test_marks_finish_and_rate_hits_are_stored(clean_db: Runtime) -> None:
    connections = core_connections(clean_db.sessions)
    assert connections is not None
    async with clean_db.engine.begin() as conn:
        await conn.execute(
            text("INSERT INTO telegram_updates (update_id, body) VALUES (77, '{}'::jsonb)")
        )
    async with connections() as conn:
        await UpdateLedger(conn).mark_sent(77, 3)
        first = await RateCounter(conn).hit("user:501", timedelta(minutes=1))
    async with clean_db.sessions() as s:  # the session path: inside a transaction
        second = await RateCounter(s).hit("user:501", timedelta(minutes=1))
        await UpdateLedger(s).finish(77)
        await s.commit()
    row = await ledger_row(clean_db, 77)
    assert row is not None
    assert (row["sent_parts"], row["finished"], row["body_gone"]) == (3, True, True)
    assert (first, second) == (1.0, 2.0)


async def test_a_connection_the_server_ended_is_the_database_being_away(
    clean_db: Runtime,
) -> None:
    connections = core_connections(clean_db.sessions)
    assert connections is not None
    statements = DatabaseSessions(connections)
    with pytest.raises(DatabaseUnavailableError):
        async with statements() as conn:
            pid = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
            async with clean_db.engine.connect() as other:
                await other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
                await _gone(other, pid)
            await read_access(conn, 501)
    # The pool hands out a working connection next time.
    async with statements() as conn:
        assert await read_access(conn, 501) is None


async def _gone(conn: AsyncConnection, pid: int) -> None:
    """Until the server has ended the backend (terminating only signals it). Each look is a
    transaction of its own: PostgreSQL keeps one snapshot of pg_stat_activity per
    transaction, so a backend still alive at the first look would stay alive at every later
    look of the same transaction (the flake this once was, under load)."""
    for _ in range(3000):
        alive = text("SELECT 1 FROM pg_stat_activity WHERE pid = :p")
        gone = (await conn.execute(alive, {"p": pid})).first() is None
        await conn.rollback()
        if gone:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the server did not end backend {pid}")


@pytest.fixture
async def database(clean_db: Runtime) -> Database:
    return Database(clean_db.sessions)


async def test_a_statement_commits_on_its_own_and_says_what_it_touched(database: Database) -> None:
    async with database.statements() as conn:
        inserted = await driver_execute(
            conn, "INSERT INTO telegram_updates (update_id) VALUES ($1), ($2)", 41, 42
        )
        updated = await driver_execute(
            conn, "UPDATE telegram_updates SET sent_parts = $2 WHERE update_id = $1", 41, 3
        )
        untouched = await driver_execute(
            conn, "UPDATE telegram_updates SET sent_parts = 1 WHERE update_id = $1", 99
        )
    # No commit was asked for: another connection sees the rows all the same.
    async with database.statements() as other:
        row = await driver_fetchrow(
            other,
            "SELECT sent_parts, '{\"a\": 1}'::jsonb FROM telegram_updates WHERE update_id = $1",
            41,
        )
        missing = await driver_fetchrow(
            other, "SELECT 1 FROM telegram_updates WHERE update_id = $1", 99
        )
    assert (inserted, updated, untouched) == (2, 1, 0)
    assert row == (3, {"a": 1})
    assert missing is None


async def test_errors_are_sqlalchemy_s_as_for_every_statement(database: Database) -> None:
    async with database.statements() as conn:
        await driver_execute(conn, "INSERT INTO telegram_updates (update_id) VALUES ($1)", 7)
        with pytest.raises(IntegrityError, match="duplicate key"):
            await driver_execute(conn, "INSERT INTO telegram_updates (update_id) VALUES ($1)", 7)
        with pytest.raises(ProgrammingError, match="syntax error"):
            await driver_fetchrow(conn, "SELEC 1")
        # The connection still serves after a refused statement.
        assert await driver_fetchrow(conn, "SELECT count(*) FROM telegram_updates") == (1,)


async def test_a_statement_cancelled_midway_takes_its_connection_out_of_the_pool(
    database: Database, clean_db: Runtime
) -> None:
    async with database.statements() as conn:
        driver = conn.driver  # type: ignore[union-attr]
        slow = asyncio.create_task(driver_fetchrow(conn, "SELECT pg_sleep(5)"))
        await asyncio.sleep(0.3)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
    assert driver.is_closed()
    # The pool hands out a working connection next, not the one cut off.
    async with database.statements() as conn:
        assert await driver_fetchrow(conn, "SELECT 1") == (1,)
    async with clean_db.engine.connect() as check:
        assert (await check.execute(text("SELECT 1"))).scalar() == 1


async def test_a_loan_keeps_the_pools_size_and_timeout(clean_db: Runtime) -> None:
    settings = make_settings(db_pool_size=1, db_timeout_seconds=0.5)  # two connections
    engine = make_engine(clean_db.location, settings)
    try:
        database = Database(make_session_factory(engine))
        async with database.statements() as first, database.statements() as second:
            assert first.driver is not second.driver  # type: ignore[union-attr]
            started = time.monotonic()
            with pytest.raises(DatabaseUnavailableError):
                async with database.statements():
                    pass
            assert time.monotonic() - started >= 0.4  # it waited for one to come back
        async with database.statements() as again:  # both came back
            assert await driver_fetchrow(again, "SELECT 1") == (1,)
        assert engine.pool.checkedout() == 0  # type: ignore[attr-defined]
    finally:
        await engine.dispose()


async def test_a_permit_records_the_parts_sent_in_its_own_statement(clean_db: Runtime) -> None:
    """The permit for an answer's next part records the parts before it (one round trip, not
    two), and says when the update is no longer this process's: a takeover's record stands."""
    pace = Pace(bot_seconds=1 / 30, private_seconds=1.0, group_seconds=3.0, chat_burst=5)
    async with clean_db.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO telegram_updates (update_id, body, lease_owner)"
                " VALUES (78, '{}'::jsonb, 'this')"
            )
        )
    connections = core_connections(clean_db.sessions)
    assert connections is not None
    async with connections() as conn:
        mine = await take_permit(conn, 1, 5001, False, pace, parts_sent=PartsSent(78, 2, "this"))
        theirs = await take_permit(conn, 1, 5002, False, pace, parts_sent=PartsSent(78, 3, "gone"))
        plain = await take_permit(conn, 1, 5003, False, pace)
    assert (mine.verdict, mine.held) == ("send", True)
    assert (theirs.verdict, theirs.held) == ("send", False)
    assert (plain.verdict, plain.held) == ("send", None)
    row = await ledger_row(clean_db, 78)
    assert row is not None and row["sent_parts"] == 2


async def test_a_question_is_counted_and_its_person_read_in_one_statement(
    clean_db: Runtime,
) -> None:
    """The gate in front of a question: the rate counter's hit and the person's access, read
    as `RateCounter.hit` and `read_access` read them, from one statement."""
    await _an_adult(clean_db, 503)
    connections = core_connections(clean_db.sessions)
    assert connections is not None
    window = timedelta(days=3650)  # no window's end falls between the hits, as a minute's might
    async with connections() as conn:
        first = await RateCounter(conn).hit_and_read_access("tg:503", window, 503)
        second = await RateCounter(conn).hit_and_read_access("tg:503", window, 503)
        stranger = await RateCounter(conn).hit_and_read_access("tg:504", window, 504)
        third = await RateCounter(conn).hit("tg:503", window)
    assert first == (1.0, (True, True))
    assert second == (2.0, (True, True))
    assert stranger == (1.0, None)
    assert third == 3.0


async def _an_adult(rt: Runtime, user_id: int) -> None:
    """A person the bot has met who has confirmed being 18 or older."""
    async with rt.sessions() as s:
        await UserRepository(s).upsert(user_id, "Анна")
        await UserRepository(s).confirm_age(user_id)
        await s.commit()
