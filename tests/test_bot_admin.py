"""Admin commands work for ADMIN_IDS and are indistinguishable from unknown ones for others."""

from __future__ import annotations

import re

from sqlalchemy import delete, func, select

from repositories.models import User, Wine
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import ADMIN_ID, running_bot
from tests.bot_helpers import API_KEY, adult, ask, cards, fake_llm, wine_count

USER = 929001


def _number(text: str, label: str) -> int:
    match = re.search(rf"{label}\D*(\d+)", text)
    assert match, (label, text)
    return int(match.group(1))


async def _embedded(runtime: Runtime, model: str) -> int:
    async with runtime.sessions() as s:
        return await WineRepository(s).count_embedded(model)


async def test_admin_commands_and_the_same_commands_from_a_user(seeded: Runtime) -> None:
    in_seed_file = len(load_seed_file(DEFAULT_SEED_FILE))
    async with seeded.sessions() as s:
        victim = (await s.scalars(select(Wine.slug).order_by(Wine.slug).limit(1))).one()
        await s.execute(delete(Wine).where(Wine.slug == victim))
        await s.commit()
    assert await wine_count(seeded) == in_seed_file - 1

    async with running_bot(seeded) as h:
        # Someone else: every admin command gets exactly the unknown-command reply.
        await adult(h, USER)
        (unknown,) = await ask(h, USER, "/no_such_command")
        assert unknown.visible_text == T.unknown_command
        for command in ("/seed", "/embed", "/stats"):
            replies = await ask(h, USER, command)
            assert [r.visible_text for r in replies] == [unknown.visible_text], command
        assert await wine_count(seeded) == in_seed_file - 1  # /seed did nothing

        # The user gets an answer, so that /stats has something to count.
        assert len(cards(await ask(h, USER, "красное сухое до 2000"))) == 3

        (seeded_reply,) = await ask(h, ADMIN_ID, "/seed")
        text = seeded_reply.visible_text or ""
        assert _number(text, "добавлено") == 1
        assert _number(text, "без изменений") == in_seed_file - 1
        assert _number(text, "Всего вин") == in_seed_file == await wine_count(seeded)

        (embed_reply,) = await ask(h, ADMIN_ID, "/embed")
        assert "EMBEDDING_API_KEY" in (embed_reply.visible_text or "")
        assert await _embedded(seeded, h.settings.embedding_model) == 0

        (stats,) = await ask(h, ADMIN_ID, "/stats")
        stats_text = stats.visible_text or ""
        async with seeded.sessions() as s:
            users = await s.scalar(select(func.count()).select_from(User))
        assert _number(stats_text, "Пользователей") == users
        assert _number(stats_text, "Сообщений сегодня") == 1
        paths = next(ln for ln in stats_text.splitlines() if ln.startswith("Ответы по путям"))
        assert "offline: 1" in paths
        assert not h.tg.rejected


async def test_embed_computes_vectors_and_reports_progress(seeded: Runtime) -> None:
    total = await wine_count(seeded)
    async with (
        fake_llm() as emb,
        running_bot(seeded, embedding_api_key=API_KEY, embedding_base_url=emb.base_url) as h,
    ):
        replies = await ask(h, ADMIN_ID, "/embed")
        (status,) = replies
        final = next(
            m for m in h.tg.chat_messages(ADMIN_ID) if m["message_id"] == status.message_id
        )
        edits = h.tg.sent("editMessageText", chat_id=ADMIN_ID)
        assert edits and edits[-1].visible_text == final["text"] != status.visible_text
        assert _number(final["text"], "посчитано") == total
        assert _number(final["text"], "без актуального вектора") == 0
        assert await _embedded(seeded, h.settings.embedding_model) == total
        assert sum(len(r["input"]) for r in emb.embedding_requests) == total
        assert emb.errors == []
        assert not h.tg.rejected
