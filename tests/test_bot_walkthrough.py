"""A new user walks through the bot against the fake Telegram Bot API server."""

from __future__ import annotations

import re

from fakes.telegram_server import SentCall
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import running_bot

CHAT = 424242


def buttons(call: SentCall) -> list[dict]:
    markup = call.params.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


def cards(calls: list[SentCall]) -> list[SentCall]:
    return [c for c in calls if any(b["text"].startswith("👍") for b in buttons(c))]


def prices(call: SentCall) -> list[int]:
    text = call.visible_text or ""
    return [int(re.sub(r"\D", "", m)) for m in re.findall(r"💰\s*([\d\s\u00a0]+)\s*₽", text)]


async def test_new_user_walkthrough(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        # /start: the 18+ gate comes first and nothing about wine is shown.
        await h.say(CHAT, "/start")
        (gate,) = await h.wait_messages(CHAT, 1)
        assert "18" in (gate.visible_text or "")
        assert "₽" not in (gate.visible_text or "")
        await h.say(CHAT, "красное к стейку")
        await h.say(CHAT, "/help")
        await h.wait_messages(CHAT, 3)
        await h.idle()
        assert all("₽" not in t for t in h.texts(CHAT))

        yes = next(b for b in buttons(gate) if "есть 18" in b["text"])
        await h.press(CHAT, yes["callback_data"], gate.message_id or 0)
        # The welcome after three gate messages: intro, three cards, closing.
        sent = await h.wait_messages(CHAT, 3 + 5)
        await h.idle()
        welcome_cards = cards(h.tg.sent(chat_id=CHAT))
        assert len(welcome_cards) == 3

        before = len(h.tg.sent(chat_id=CHAT))
        await h.say(CHAT, "красное сухое к стейку до 2000")
        await h.wait_messages(CHAT, len(sent) + 5)
        await h.idle()
        answer = h.tg.sent(chat_id=CHAT)[before:]
        answer_cards = cards(answer)
        assert len(answer_cards) == 3
        for card in answer_cards:
            assert "Красное сухое" in (card.visible_text or "")
            assert all(p <= 2000 for p in prices(card)) and prices(card)
            labels = [b["text"] for b in buttons(card)]
            assert labels == ["👍", "👎", "Похожие", T.favourite_button, T.share_button]
            assert all(
                len(b["callback_data"].encode()) <= 64
                for b in buttons(card)
                if "callback_data" in b
            )
        assert any(c.method == "sendChatAction" for c in answer)

        # 👍 on the first card is stored and shapes the profile.
        first = answer_cards[0]
        like = buttons(first)[0]["callback_data"]
        await h.press(CHAT, like, first.message_id or 0)
        await h.tg.wait_for(lambda calls: any(c.method == "answerCallbackQuery" for c in calls))
        await h.idle()
        await h.say(CHAT, "/profile")
        await h.idle()
        profile_text = h.texts(CHAT)[-1]
        assert "Нравится" in profile_text and "красное сухое" in profile_text
        assert not h.tg.rejected
