"""Inline mode through the fake Bot API: `@bot белое к рыбе до 1500` in any chat."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from core.domain import Sweetness, WineType
from core.recommendation import MAX_WINES
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, card_wine_id, cards, count_on_sale, inline, wines_by_id

PERSON = 616001
STRANGER = 616002
FRIEND_CHAT = 616099


def result_ids(answer: dict[str, Any]) -> list[uuid.UUID]:
    return [uuid.UUID(hex=r["id"]) for r in answer["results"]]


async def test_inline_query_returns_catalog_wines_that_keep_to_its_filters(
    seeded: Runtime,
) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        answer = await inline(h, PERSON, "белое сухое до 1500")
        ids = result_ids(answer)
        matching = await count_on_sale(
            seeded, {"wine_type": "white", "sweetness": "dry", "price_max": 1500}
        )
        assert matching > 0 and len(ids) == min(10, matching)
        wines = await wines_by_id(seeded, ids)
        assert set(wines) == set(ids)  # every result is a catalog wine
        for wine in wines.values():
            assert wine.wine_type == WineType.white
            assert wine.sweetness == Sweetness.dry
            assert wine.price_rub <= Decimal(1500)
        first = answer["results"][0]
        wine = wines[ids[0]]
        assert wine.name in first["title"]
        assert "₽" in first["description"]
        card = first["input_message_content"]["message_text"]
        assert "₽" in card and len(card) <= 4096

        # A result can be sent: it appears in the friend's chat "via @bot" with a deep link.
        sent = h.tg.send_inline_result(FRIEND_CHAT, answer["_query_id"], first["id"])
        assert wine.name in sent["text"]
        links = [b["url"] for row in sent["reply_markup"]["inline_keyboard"] for b in row]
        me = await h.bot.me()
        assert f"https://t.me/{me.username}?start=wine_{wine.id.hex}" in links
        assert h.tg.rejected == []


async def test_inline_paging_and_hints(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        first = await inline(h, PERSON, "красное")
        assert len(first["results"]) == 10
        assert first["next_offset"]
        second = await inline(h, PERSON, "красное", offset=str(first["next_offset"]))
        assert second["results"]
        assert not set(result_ids(first)) & set(result_ids(second))
        for wine in (await wines_by_id(seeded, result_ids(second))).values():
            assert wine.wine_type == WineType.red

        # Nonsense or an impossible budget: no results, a hint into the private chat.
        for query in ("ывапролдж", "красное до 10 рублей"):
            answer = await inline(h, PERSON, query)
            assert answer["results"] == []
            assert answer["button"]["text"] == T.inline_nothing_button
            assert answer["button"]["start_parameter"]

        # An empty query: today's picks.
        picks = await inline(h, PERSON, "")
        assert len(picks["results"]) == MAX_WINES
        assert picks["is_personal"]  # never cached for someone without the age check
        assert h.tg.rejected == []


async def test_inline_needs_the_age_check(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        answer = await inline(h, STRANGER, "красное сухое")
        assert answer["results"] == []
        assert answer["button"] == {"text": T.inline_age_button, "start_parameter": "age"}


async def test_inline_rate_limit_answers_empty_never_an_error(seeded: Runtime) -> None:
    async with running_bot(seeded, rate_limit_per_minute=2) as h:
        await adult(h, PERSON)
        answers = [await inline(h, PERSON, f"красное до {1000 + i}") for i in range(3)]
        assert answers[0]["results"] and answers[1]["results"]
        assert answers[2]["results"] == []
        assert answers[2]["button"]["text"] == T.inline_slow_down_button
        assert h.tg.rejected == []


async def test_share_button_opens_the_chat_picker_with_the_wine_and_its_deep_link(
    seeded: Runtime,
) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        await h.say(PERSON, "красное сухое к стейку до 2000")
        await h.idle()
        card = cards(h.tg.sent(chat_id=PERSON))[0]
        wine_id = card_wine_id(card)
        (share,) = [b for b in card.inline_buttons if b["text"] == T.share_button]
        switch = share["switch_inline_query_chosen_chat"]
        assert switch["query"] == f"wine:{wine_id.hex}"
        assert switch["allow_user_chats"] and switch["allow_group_chats"]
        assert all(
            len(b["callback_data"].encode()) <= 64
            for b in card.inline_buttons
            if "callback_data" in b
        )

        # The picker sends that query: exactly this wine, as a compact card with a deep link.
        answer = await inline(h, PERSON, switch["query"])
        assert result_ids(answer) == [wine_id]
        sent = h.tg.send_inline_result(FRIEND_CHAT, answer["_query_id"], wine_id.hex)
        (wine,) = (await wines_by_id(seeded, [wine_id])).values()
        assert wine.name in sent["text"] and "₽" in sent["text"]
        me = await h.bot.me()
        link = f"https://t.me/{me.username}?start=wine_{wine_id.hex}"
        assert link in [b["url"] for row in sent["reply_markup"]["inline_keyboard"] for b in row]

        # The friend opens the link: the age gate first, then that wine's card.
        await h.say(STRANGER, f"/start wine_{wine_id.hex}")
        (gate,) = await h.wait_messages(STRANGER, 1)
        assert gate.visible_text == T.age_question
        await adult(h, STRANGER)
        await h.say(STRANGER, f"/start wine_{wine_id.hex}")
        await h.idle()
        (opened,) = cards(h.tg.sent(chat_id=STRANGER))
        assert card_wine_id(opened) == wine_id
        assert h.tg.rejected == []


async def test_empty_query_gives_todays_picks_that_follow_the_taste_profile(
    seeded: Runtime,
) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        for question, value in (("colour", "red"), ("sweetness", "dry"), ("budget", "2000")):
            await h.services.quiz.answer(PERSON, question, value)
        picks = await inline(h, PERSON, "")
        assert picks["is_personal"] and picks["cache_time"] == 0
        wines = await wines_by_id(seeded, result_ids(picks))
        first = wines[result_ids(picks)[0]]
        assert first.wine_type == WineType.red and first.sweetness == Sweetness.dry
        assert all(w.price_rub <= Decimal(2000) for w in wines.values())
