"""The owner's data kept in order by the running bot: scheduled backups and their rotation,
`/backup`, the daily retention purge (each on one replica at a time), and `/new`."""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path

import pytest
from sqlalchemy import text

from services.app.container import build_services
from services.app.ops.housekeeping import Housekeeping
from services.app.people.people import UserDetails
from services.app.runtime import Runtime, open_runtime
from services.app.texts import T
from tests.bot_harness import ADMIN_ID, running_bot
from tests.bot_helpers import adult, ask, cards
from tests.conftest import make_settings
from tests.serving import with_settings

PERSON = 991_501


async def _until(condition: object, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        assert loop.time() < deadline, "the job did not run"
        await asyncio.sleep(0.1)


def _dumps(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.dump")) if directory.exists() else []


async def test_scheduled_backups_one_per_round_across_replicas_and_the_newest_kept(
    seeded: Runtime, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Two replicas back up every 1.5 s; the second starts just after the first made its
    backup (replicas do not start in step). Each backup made is counted (its log line: files
    are named by the second, so two in one second would be one file): never two in one
    round, and rotation keeps the newest two."""
    caplog.set_level(logging.INFO, logger="services.app.ops.housekeeping")
    backups = tmp_path / "backups"
    every = 1.5
    settings = make_settings(backup_dir=backups, backup_every_hours=every / 3600, backup_keep=2)

    def made() -> list[float]:
        return [r.created for r in caplog.records if r.getMessage().startswith("backup written")]

    stop = asyncio.Event()
    async with open_runtime(settings, database="sommelier_test") as other:  # its own pools
        replicas = [Housekeeping(with_settings(seeded, settings)), Housekeeping(other)]
        jobs = [asyncio.create_task(replicas[0].run(stop))]
        try:
            await _until(lambda: len(made()) >= 1)
            jobs.append(asyncio.create_task(replicas[1].run(stop)))
            await _until(lambda: len(made()) >= 4)
        finally:
            stop.set()
            await asyncio.gather(*jobs)
    times = made()
    gaps = [round(later - earlier, 2) for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= every / 2, f"two backups in one round: {gaps} s apart"
    kept = _dumps(backups)
    assert len(kept) == 2
    assert not list(backups.glob("*.partial"))
    assert all(p.stat().st_size > 0 for p in kept)


async def test_the_daily_retention_job_purges_old_conversations_at_once(seeded: Runtime) -> None:
    services = build_services(seeded)
    try:
        await services.people.register(UserDetails(PERSON))
        await services.turns.answer(PERSON, "красное сухое")
    finally:
        await services.close()
    async with seeded.sessions() as s:
        await s.execute(
            text(
                "UPDATE conversations SET last_activity_at = now() - interval '200 days' "
                "WHERE user_id = :u"
            ),
            {"u": PERSON},
        )
        await s.commit()
    housekeeping = Housekeeping(with_settings(seeded, make_settings()))  # 180 days
    stop = asyncio.Event()
    job = asyncio.create_task(housekeeping.run(stop))

    async def left() -> int:
        async with seeded.sessions() as s:
            return int(
                await s.scalar(
                    text("SELECT count(*) FROM conversations WHERE user_id = :u"), {"u": PERSON}
                )
                or 0
            )

    try:
        for _ in range(300):  # the first round runs as the bot starts, then once a day
            if await left() == 0:
                break
            await asyncio.sleep(0.1)
    finally:
        stop.set()
        await job
    assert await left() == 0
    async with seeded.sessions() as s:
        assert await s.scalar(text("SELECT count(*) FROM users WHERE id = :u"), {"u": PERSON})


async def test_backup_command_writes_a_backup_and_rotates(seeded: Runtime, tmp_path: Path) -> None:
    backups = tmp_path / "backups"
    async with running_bot(seeded, backup_dir=backups, backup_keep=1) as h:
        for _ in range(2):
            (reply,) = await ask(h, ADMIN_ID, "/backup")
            assert (reply.visible_text or "").startswith("Резервная копия готова"), reply
            await asyncio.sleep(1.1)  # backup files are named by the second
    kept = _dumps(backups)
    assert len(kept) == 1 and str(kept[0]) in (reply.visible_text or "")


async def test_new_starts_a_fresh_conversation_for_an_adult(seeded: Runtime) -> None:
    chat = 991_502
    async with running_bot(seeded) as h:
        await adult(h, chat)
        first = cards(await ask(h, chat, "белое сухое"))
        (reply,) = await ask(h, chat, "/new")
        assert reply.visible_text == T.new_conversation
        again = cards(await ask(h, chat, "белое сухое"))
    assert first and again
    # A new conversation forgets what was shown: the same question may show the same wines.
    assert {c.visible_text for c in again} & {c.visible_text for c in first}
    async with seeded.sessions() as s:
        conversations = await s.scalar(
            text("SELECT count(*) FROM conversations WHERE user_id = :u"), {"u": chat}
        )
    assert conversations == 2


async def test_a_conversation_silent_past_the_limit_ends_by_itself(seeded: Runtime) -> None:
    chat = 991_503
    async with running_bot(seeded) as h:
        await adult(h, chat)
        first = cards(await ask(h, chat, "белое сухое"))
        async with seeded.sessions() as s:  # a day and more of silence
            await s.execute(
                text(
                    "UPDATE conversations SET last_activity_at = now() - interval '25 hours' "
                    "WHERE user_id = :u"
                ),
                {"u": chat},
            )
            await s.commit()
        again = cards(await ask(h, chat, "белое сухое"))
    assert first and again
    async with seeded.sessions() as s:
        conversations = await s.scalar(
            text("SELECT count(*) FROM conversations WHERE user_id = :u"), {"u": chat}
        )
    assert conversations == 2  # the silent one ended; the question began a new one
