"""Telegram refusing or failing a call, and the bot's own failures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.telegram_html import html_to_plain
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, cards, messages, user_row

CHAT = 939001


async def test_telegram_429_502_and_rejected_markup_still_deliver(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CHAT)  # /help is behind the 18+ gate
        (normal,) = await ask(h, CHAT, "/help")
        assert normal.params["parse_mode"].lower() == "html" and "<b>" in (normal.text or "")

        # 429: wait as long as Telegram says, then deliver.
        h.tg.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
        replies = await ask(h, CHAT, "/help")
        assert [r.visible_text for r in replies] == [normal.visible_text]
        (too_many,) = h.tg.rejected
        assert too_many.status == 429
        assert replies[0].at - too_many.at >= 0.9

        # A 502 from Telegram's side: retried, delivered once.
        h.tg.fail_next("sendMessage", 502, "Bad Gateway")
        replies = await ask(h, CHAT, "/help")
        assert [r.visible_text for r in replies] == [normal.visible_text]
        assert [c.status for c in h.tg.rejected] == [429, 502]

        # Markup Telegram cannot parse: the same text again, as plain text.
        h.tg.fail_next(
            "sendMessage",
            400,
            'Bad Request: can\'t parse entities: Unsupported start tag "b" at byte offset 0',
        )
        replies = await ask(h, CHAT, "/help")
        (plain,) = replies
        assert plain.visible_text == normal.visible_text == html_to_plain(T.help)
        assert "parse_mode" not in plain.params and "<b>" not in (plain.text or "")
        assert [c.status for c in h.tg.rejected] == [429, 502, 400]
        # Every attempt was for this chat; nothing was sent twice.
        assert len(h.tg.sent("sendMessage", chat_id=CHAT)) == 4


async def test_blocked_by_the_user_marks_inactive_without_retrying(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CHAT)
        h.tg.fail_next("sendMessage", 403, "Forbidden: bot was blocked by the user")
        await h.say(CHAT, "красное сухое до 2000")
        await h.idle()

        user = await user_row(seeded, CHAT)
        assert user is not None and not user.is_active
        attempts = [
            c for c in h.tg.calls if c.chat_id == CHAT and c.method in ("sendMessage", "sendPhoto")
        ]
        assert [(c.method, c.status) for c in attempts] == [("sendMessage", 403)]

        # Coming back with /start makes the user active again.
        await ask(h, CHAT, "/start")
        user = await user_row(seeded, CHAT)
        assert user is not None and user.is_active


async def test_a_failing_handler_apologizes_and_the_next_message_is_served(
    seeded: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CHAT)
        sommelier = h.services.sommelier
        original = sommelier.stream
        failures = [RuntimeError("the agent broke")]

        def flaky(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            if failures:
                raise failures.pop()
            return original(*args, **kwargs)

        monkeypatch.setattr(sommelier, "stream", flaky)
        # Both at once: the apology belongs to the first and comes before the second answer,
        # even when Telegram is slow to accept it.
        h.tg.delay_next("sendMessage", 0.3)
        await h.say(CHAT, "красное сухое до 2000")
        await h.say(CHAT, "белое сухое до 2000")
        await h.idle()

        sent = messages(h.tg.sent(chat_id=CHAT))
        assert sent[0].visible_text == T.apology
        assert T.apology not in [c.visible_text for c in sent[1:]]
        assert len(cards(sent[1:])) == 3
        assert not failures
        assert not h.tg.rejected
