"""A conversation through the bot keeps its thread (issue 12): «подешевле» after a request."""

from __future__ import annotations

from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, card_wine_id, is_card, messages, wines_by_id

CHAT = 919301


async def test_cheaper_through_the_bot_keeps_colour_and_undercuts(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:  # no LLM: what `make run` gives everyone first
        await adult(h, CHAT)
        before = len(messages(h.tg.sent(chat_id=CHAT)))
        await h.say(CHAT, "красное сухое к стейку до 2000")
        await h.wait_messages(CHAT, before + 5)
        await h.idle()
        first = [c for c in messages(h.tg.sent(chat_id=CHAT)) if is_card(c)]
        await h.say(CHAT, "а есть что-то подешевле?")
        await h.wait_messages(CHAT, before + 10)
        await h.idle()
        sent = messages(h.tg.sent(chat_id=CHAT))
        second = [c for c in sent if is_card(c)][len(first) :]
        closing = sent[-1].visible_text or ""
    assert len(first) == 3 and second
    wines = await wines_by_id(seeded, [card_wine_id(c) for c in first + second])
    cheapest = min(wines[card_wine_id(c)].price_rub for c in first)
    for card in second:
        wine = wines[card_wine_id(card)]
        assert wine.wine_type == "red" and wine.sweetness == "dry"
        assert wine.price_rub < cheapest
    assert "бюджет" not in closing and "блюдо" not in closing
