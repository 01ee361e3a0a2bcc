"""What the bot does with input that is not a normal question, and the per-user rate limit."""

from __future__ import annotations

from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, fake_llm, last_user_text, llm_settings

CHAT = 818001
LIMIT = 50


async def test_non_text_unknown_commands_long_and_empty_messages(seeded: Runtime) -> None:
    async with (
        fake_llm() as llm,
        running_bot(seeded, max_message_chars=LIMIT, **llm_settings(llm)) as h,
    ):
        await adult(h, CHAT)

        # Photos and voice are read (tests/test_bot_media.py); the rest is not.
        for kind in ("sticker", "location", "document"):
            before = len(h.texts(CHAT))
            h.tg.push_update(h.tg.non_text_update(CHAT, kind))
            await h.idle()
            assert h.texts(CHAT)[before:] == [T.only_text], kind

        for command in ("/wine", "/start_over", "/helpme please"):
            replies = await ask(h, CHAT, command)
            assert [r.visible_text for r in replies] == [T.unknown_command], command

        too_long = ("Посоветуйте вино к ужину " * 3)[: LIMIT + 1]
        replies = await ask(h, CHAT, too_long)
        assert [r.visible_text for r in replies] == [T.too_long.format(limit=LIMIT)]
        assert str(LIMIT) in (replies[0].visible_text or "")

        for blank in ("   ", "\n\t \n", "\u200b\u200b", "\u2060 \ufeff \u200d"):
            replies = await ask(h, CHAT, blank)
            assert [r.visible_text for r in replies] == [T.empty_text], repr(blank)

        # None of the above reached the model.
        assert llm.requests == []
        # A message of exactly the limit is a question like any other.
        at_limit = too_long[:LIMIT]
        replies = await ask(h, CHAT, at_limit)
        assert replies and all(r.visible_text != T.too_long.format(limit=LIMIT) for r in replies)
        assert [last_user_text(r) for r in llm.requests][:1] == [at_limit.strip()]
        assert not h.tg.rejected


async def test_rate_limit_answers_politely_without_calling_the_model(seeded: Runtime) -> None:
    async with (
        fake_llm() as llm,
        running_bot(seeded, rate_limit_per_minute=3, **llm_settings(llm)) as h,
    ):
        await adult(h, CHAT)
        questions = [f"Привет! Сообщение номер {n}" for n in range(1, 6)]
        for text in questions:
            await h.say(CHAT, text)
        await h.wait_messages(CHAT, 5)
        await h.idle()

        replies = h.texts(CHAT)
        assert replies[3:] == [T.rate_limited, T.rate_limited]
        assert T.rate_limited not in replies[:3]
        # Only the first three reached the model, in the order they were sent.
        assert [last_user_text(r) for r in llm.requests] == questions[:3]
        assert not h.tg.rejected
