"""The owner's data: backup and restore, a person's right to be forgotten, retention."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy import text

from bot.callbacks import ForgetCallback
from core.errors import BackupError
from fakes.database import history_problems
from repositories.ownership import person_columns, purge_conversations
from services.app.container import build_services
from services.app.ops.backup import backup, restore
from services.app.people.people import UserDetails
from services.app.runtime import Runtime, open_runtime
from services.app.texts import T
from tests.api_harness import running_api
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, card_wine_id, cards, inline, vote_data

PERSON = 744_001
OTHER = 744_002


async def _rows_carrying(runtime: Runtime, user_id: int) -> dict[str, int]:
    """Rows that still carry the id, in every table that has a person column."""
    found: dict[str, int] = {}
    async with runtime.sessions() as s:
        for table, column in await person_columns(s):
            n = await s.scalar(
                text(f'SELECT count(*) FROM "{table}" WHERE "{column}" = :u'), {"u": user_id}
            )
            if n:
                found[f"{table}.{column}"] = int(n)
        n = await s.scalar(text("SELECT count(*) FROM users WHERE id = :u"), {"u": user_id})
        if n:
            found["users.id"] = int(n)
        n = await s.scalar(
            text("SELECT count(*) FROM rate_counters WHERE key = ANY(:k)"),
            {"k": [f"tg:{user_id}", f"tg-inline:{user_id}"]},
        )
        if n:
            found["rate_counters.key"] = int(n)
    return found


async def _counts(runtime: Runtime) -> dict[str, int]:
    async with runtime.sessions() as s:
        names = (
            await s.scalars(
                text(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = current_schema() ORDER BY 1"
                )
            )
        ).all()
        return {n: int(await s.scalar(text(f'SELECT count(*) FROM "{n}"')) or 0) for n in names}


@pytest.fixture
async def empty_target(runtime: Runtime) -> AsyncIterator[Runtime]:
    """A second, empty database on the same server."""
    async with open_runtime(runtime.settings, database="sommelier_restore_test") as rt:
        async with rt.maintenance.connect() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
            await conn.commit()
        yield rt


async def test_forget_through_the_bot_leaves_no_row_with_the_id(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        for user in (PERSON, OTHER):
            await adult(h, user)
            sent = await ask(h, user, "красное сухое к стейку до 2000")
            card = cards(sent)[0]
            data = vote_data(card_wine_id(card), 1)
            await h.press(user, data, card.message_id or 0)
            await h.idle()
            await h.services.quiz.answer(user, "colour", "red")
            await inline(h, user, "красное")  # an inline query counts against its own limit
        assert await _rows_carrying(seeded, PERSON)

        asked = await ask(h, PERSON, "/forget")
        assert asked[-1].visible_text == T.forget_question
        await h.press(PERSON, ForgetCallback(confirmed=True).pack(), asked[-1].message_id or 0)
        await h.idle()
        told = [c for c in h.tg.sent(chat_id=PERSON) if c.method == "editMessageText"]
        assert told and told[-1].visible_text.startswith("Готово, удалено")
        assert "разговоры" in told[-1].visible_text and "оценки" in told[-1].visible_text
        assert "ответы анкеты вкуса" in told[-1].visible_text

    assert await _rows_carrying(seeded, PERSON) == {}
    assert await _rows_carrying(seeded, OTHER)  # only that person
    async with seeded.sessions() as s:
        anonymous = await s.scalar(text("SELECT count(*) FROM answers WHERE user_id IS NULL"))
    assert anonymous and anonymous >= 1  # the answer counts stay, without the id


async def test_forget_asks_first_and_keeps_everything_on_no(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        await ask(h, PERSON, "белое к рыбе")
        asked = await ask(h, PERSON, "/forget")
        kept = await _rows_carrying(seeded, PERSON)
        await h.press(PERSON, ForgetCallback(confirmed=False).pack(), asked[-1].message_id or 0)
        await h.idle()

    def stored(rows: dict[str, int]) -> dict[str, int]:  # the press itself adds ledger rows
        return {k: v for k, v in rows.items() if not k.startswith(("telegram_updates", "rate"))}

    assert kept["users.id"] == 1 and kept.get("conversations.user_id")
    assert stored(await _rows_carrying(seeded, PERSON)) == stored(kept)  # nothing deleted


async def test_privacy_says_what_is_kept_and_for_how_long(seeded: Runtime) -> None:
    async with running_bot(seeded, message_retention_days=90) as h:
        sent = await ask(h, PERSON, "/privacy")  # open before the 18+ gate too
    text_ = sent[-1].visible_text or ""
    assert "90 дней" in text_ and "/forget" in text_


async def test_retention_purges_exactly_what_is_older_than_the_limit(seeded: Runtime) -> None:
    services = build_services(seeded)
    try:
        await services.people.register(UserDetails(PERSON))
        await services.turns.answer(PERSON, "красное сухое")  # conversation 1
        await services.people.new_conversation(PERSON)
        await services.turns.answer(PERSON, "белое к рыбе")  # conversation 2
        async with seeded.sessions() as s:
            ids = (
                await s.scalars(
                    text("SELECT id FROM conversations WHERE user_id = :u ORDER BY started_at"),
                    {"u": PERSON},
                )
            ).all()
            await s.execute(
                text(
                    "UPDATE conversations SET last_activity_at = now() - interval '181 days' "
                    "WHERE id = :c"
                ),
                {"c": ids[0]},
            )
            await s.commit()
            purged = await purge_conversations(s, timedelta(days=180))
            await s.commit()
            left = (
                await s.scalars(
                    text("SELECT id FROM conversations WHERE user_id = :u"), {"u": PERSON}
                )
            ).all()
        assert purged[0] == 1 and purged[1] >= 2
        assert left == [ids[1]]
        assert await _rows_carrying(seeded, PERSON)  # the person and their profile stay
    finally:
        await services.close()


async def test_backup_then_restore_into_an_empty_database_round_trips(
    seeded: Runtime, empty_target: Runtime, tmp_path: Path
) -> None:
    source = build_services(seeded)
    try:
        await source.people.register(UserDetails(PERSON))
        await source.quiz.answer(PERSON, "colour", "red")

        async def chatter() -> None:  # writes while the dump runs
            for question in ("красное сухое к стейку", "белое к рыбе", "игристое"):
                await source.turns.answer(PERSON, question)

        path = tmp_path / "one.dump"
        writes = asyncio.create_task(chatter())
        report = await backup(seeded, path)
        await writes
    finally:
        await source.close()
    assert path.is_file() and report.size_bytes > 0 and report.counts["wines"] == 82
    assert report.counts["quiz_answers"] == 1  # the taste quiz travels with the backup

    with pytest.raises(BackupError, match="not empty"):
        await restore(seeded, path)  # the source is not empty

    restored = await restore(empty_target, path)
    assert restored.counts == report.counts
    assert await history_problems(empty_target.sessions) == []
    target = build_services(empty_target)
    try:
        rec = await target.turns.answer(OTHER, "красное сухое к стейку до 2000")
        assert rec.wines
    finally:
        await target.close()
    again = await restore(empty_target, path, force=True)  # replaces a non-empty one
    assert again.counts == report.counts


async def test_the_api_deletes_a_user_only_with_a_token(seeded: Runtime) -> None:
    async with running_api(seeded) as api, aiohttp.ClientSession() as http:
        await api.services.turns.answer(PERSON, "белое к рыбе")
        async with http.delete(f"{api.base_url}/v1/users/{PERSON}") as r:
            assert r.status == 403
    assert await _rows_carrying(seeded, PERSON)
    async with running_api(seeded, api_token="s3cret") as api, aiohttp.ClientSession() as http:
        async with http.delete(f"{api.base_url}/v1/users/{PERSON}") as r:
            assert r.status == 401
        headers = {"Authorization": "Bearer s3cret"}
        async with http.delete(f"{api.base_url}/v1/users/{PERSON}", headers=headers) as r:
            assert r.status == 200
            body = await r.json()
    assert body["deleted"].get("conversations") == 1
    assert await _rows_carrying(seeded, PERSON) == {}
