"""Group chats through the fake Bot API: guest mode (answerGuestQuery) and member mentions."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select

from core.domain import Sweetness, WineType
from core.recommendation import MAX_WINES
from repositories.models import Answer, Conversation, Message, User
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import adult, count_on_sale, wines_by_id

CALLER = 818001
MINOR = 818002
GUEST_GROUP = -818100
MEMBER_GROUP = -100818200
BOT = "@sommelier_test_bot"
PHOTO = b"\xff\xd8\xff\xe0 fake jpeg of a dish"
VOICE = b"OggS fake opus voice"


def wine_ids(message: dict[str, Any]) -> list[uuid.UUID]:
    urls = [e["url"] for e in message.get("entities", []) if e["type"] == "text_link"]
    return [uuid.UUID(hex=m[1]) for u in urls if (m := re.search(r"start=wine_([0-9a-f]{32})", u))]


async def summon_guest(
    h: BotHarness, user_id: int, text: str, reply_to: dict[str, Any] | None = None
) -> dict[str, Any]:
    update = h.tg.guest_message_update(GUEST_GROUP, text, user_id=user_id, reply_to=reply_to)
    query_id = update["guest_message"]["guest_query_id"]
    h.tg.push_update(update)
    await h.tg.wait_for(lambda _calls: query_id in h.tg.guest_answers, 15)
    await h.idle()
    return h.tg.guest_answers[query_id]


def mention(text: str) -> list[dict[str, Any]]:
    return [{"type": "mention", "offset": text.index(BOT), "length": len(BOT)}]


async def in_group(h: BotHarness, user_id: int, text: str, **extra: Any) -> list[dict[str, Any]]:
    """A member group's message; returns the bot's messages sent in reply."""
    before = len(h.tg.sent("sendMessage", chat_id=MEMBER_GROUP))
    update = h.tg.message_update(
        MEMBER_GROUP, text, user_id=user_id, chat_type="supergroup", **extra
    )
    h.tg.push_update(update)
    await h.idle()
    sent = h.tg.sent("sendMessage", chat_id=MEMBER_GROUP)[before:]
    by_id = {m["message_id"]: m for m in h.tg.chat_messages(MEMBER_GROUP)}
    return [by_id[c.message_id] for c in sent if c.ok and c.message_id]


async def test_guest_mention_gets_one_answer_with_catalog_picks(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CALLER)
        answer = await summon_guest(h, CALLER, f"{BOT} красное сухое до 2000")
        ids = wine_ids(answer)
        matching = await count_on_sale(
            seeded, {"wine_type": "red", "sweetness": "dry", "price_max": 2000}
        )
        assert matching > 0 and len(ids) == min(MAX_WINES, matching)
        for wine in (await wines_by_id(seeded, ids)).values():
            assert wine.wine_type == WineType.red and wine.sweetness == Sweetness.dry
            assert wine.price_rub <= Decimal(2000)
            assert wine.name in answer["text"]
        assert "По запросу «красное сухое до 2000»" in answer["text"]
        assert len(h.tg.sent("answerGuestQuery")) == 1
        assert h.tg.rejected == []

        # The replied-to message is part of the request: «к стейку» + «@bot что взять?».
        steak = h.tg.message_update(GUEST_GROUP, "у нас будет стейк, бюджет до 3000")["message"]
        answer = await summon_guest(h, CALLER, f"{BOT} что взять?", reply_to=steak)
        assert wine_ids(answer), answer["text"]
        for wine in (await wines_by_id(seeded, wine_ids(answer))).values():
            assert wine.price_rub <= Decimal(3000)
        # Nothing from the group was stored: no conversation for the caller.
        async with seeded.sessions() as s:
            stored = await s.scalar(
                select(func.count()).select_from(Conversation).where(Conversation.user_id == CALLER)
            )
        assert stored == 0


async def test_guest_reply_asking_cheaper_refines_the_bots_guest_answer(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CALLER)
        first = await summon_guest(h, CALLER, f"{BOT} красное сухое до 5000")
        shown = await wines_by_id(seeded, wine_ids(first))
        assert shown

        cheaper = await summon_guest(h, CALLER, f"{BOT} а подешевле", reply_to=first)
        found = await wines_by_id(seeded, wine_ids(cheaper))
        assert found and not set(found) & set(shown)
        cheapest_before = min(w.price_rub for w in shown.values())
        for wine in found.values():
            assert wine.wine_type == WineType.red and wine.sweetness == Sweetness.dry
            assert wine.price_rub < cheapest_before
        assert h.tg.rejected == []


async def test_guest_caller_without_the_age_check_gets_the_confirm_button(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        answer = await summon_guest(h, MINOR, f"{BOT} красное к стейку")
        assert answer["text"] == T.group_age_needed
        (button,) = [b for row in answer["reply_markup"]["inline_keyboard"] for b in row]
        assert button["url"] == "https://t.me/sommelier_test_bot?start=age"
        assert wine_ids(answer) == []
        async with seeded.sessions() as s:
            assert await s.get(User, MINOR) is None  # not even a user row
        assert h.tg.rejected == []


async def test_member_group_answers_mentions_and_refines_its_reply(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CALLER)

        text = f"{BOT} красное сухое до 5000"
        (first,) = await in_group(h, CALLER, text, entities=mention(text))
        shown = await wines_by_id(seeded, wine_ids(first))
        assert shown and all(w.wine_type == WineType.red for w in shown.values())

        # «а подешевле» in reply to that answer: cheaper red dry wines, none shown before.
        (cheaper,) = await in_group(h, CALLER, "а подешевле", reply_to_message=first)
        found = await wines_by_id(seeded, wine_ids(cheaper))
        assert found
        assert not set(found) & set(shown)
        cheapest_before = min(w.price_rub for w in shown.values())
        for wine in found.values():
            assert wine.wine_type == WineType.red and wine.sweetness == Sweetness.dry
            assert wine.price_rub < cheapest_before

        # A caller without the age check, mentioning the bot: the confirm button.
        text = f"{BOT} белое к рыбе"
        (refused,) = await in_group(h, MINOR, text, entities=mention(text))
        assert refused["text"] == T.group_age_needed
        assert h.tg.rejected == []


async def stored_for(runtime: Runtime, user_id: int) -> dict[str, int]:
    """What the database holds from this person: conversations, their messages, answers."""
    async with runtime.sessions() as s:
        conversations = await s.scalar(
            select(func.count()).select_from(Conversation).where(Conversation.user_id == user_id)
        )
        messages = await s.scalar(
            select(func.count())
            .select_from(Message)
            .join(Conversation, Message.conversation_id == Conversation.id)
            .where(Conversation.user_id == user_id)
        )
        answers = await s.scalar(
            select(func.count()).select_from(Answer).where(Answer.user_id == user_id)
        )
    return {"conversations": conversations or 0, "messages": messages or 0, "answers": answers or 0}


async def test_member_group_messages_not_for_the_bot_get_no_answer_and_store_nothing(
    seeded: Runtime,
) -> None:
    """With privacy mode off (or as an admin) the bot reads every group message: those not
    addressed to it — text, a photo, a voice message, another bot's command or mention, a
    reply to someone else — get nothing, and nothing of them is stored anywhere."""
    nothing = {"conversations": 0, "messages": 0, "answers": 0}
    async with running_bot(seeded) as h:
        await adult(h, CALLER)
        group = {"user_id": CALLER, "chat_type": "supergroup"}
        other = "@other_wine_bot красное к стейку"
        someone = h.tg.message_update(
            MEMBER_GROUP, "у нас стейк", user_id=MINOR, chat_type="supergroup"
        )
        updates = [
            h.tg.message_update(MEMBER_GROUP, "красное сухое к стейку до 2000", **group),
            h.tg.message_update(
                MEMBER_GROUP,
                other,
                entities=[{"type": "mention", "offset": 0, "length": len("@other_wine_bot")}],
                **group,
            ),
            h.tg.message_update(MEMBER_GROUP, "/help@other_wine_bot", **group),
            h.tg.message_update(
                MEMBER_GROUP, "а к нему что?", reply_to_message=someone["message"], **group
            ),
            h.tg.photo_update(MEMBER_GROUP, PHOTO, caption="что к этому выпить?", **group),
            h.tg.voice_update(MEMBER_GROUP, VOICE, **group),
            h.tg.message_update(
                MEMBER_GROUP, "белое к рыбе", user_id=MINOR, chat_type="supergroup"
            ),
        ]
        for update in updates:
            h.tg.push_update(update)
        await h.idle()
        assert h.tg.sent(chat_id=MEMBER_GROUP) == []  # no message, photo, typing or draft
        assert await stored_for(seeded, CALLER) == nothing
        async with seeded.sessions() as s:
            assert await s.get(User, MINOR) is None

        # Addressed to the bot, the same group still gets its answers (and stores nothing).
        text = f"{BOT} красное сухое до 5000"
        (answer,) = await in_group(h, CALLER, text, entities=mention(text))
        assert wine_ids(answer)
        caption = f"{BOT} белое к рыбе"
        photo = h.tg.photo_update(MEMBER_GROUP, PHOTO, caption=caption, **group)
        photo["message"]["caption_entities"] = mention(caption)
        h.tg.push_update(photo)
        await h.idle()
        replies = h.tg.sent("sendMessage", chat_id=MEMBER_GROUP)
        assert len(replies) == 2 and "белое к рыбе" in (replies[1].visible_text or "")
        assert (await stored_for(seeded, CALLER)) == nothing
        assert h.tg.rejected == []
