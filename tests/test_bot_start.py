"""The 18+ gate and the /start welcome, end to end against the fake Telegram server."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bot.callbacks import AgeCallback
from core.domain import WINE_TYPE_RU
from fakes.openai_server import JSONDict, Step, reply, responder
from repositories.models import Wine
from services.agent._day_context import MOSCOW_TZ, build_day_context
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from services.app.texts import T
from tests.agent_fixtures import catalog_ids, catalog_lines
from tests.bot_harness import running_bot
from tests.bot_helpers import (
    adult,
    callback_answer,
    card_wine_id,
    cards,
    fake_llm,
    feedback_rows,
    llm_settings,
    messages,
    no_space,
    press,
    similar_data,
    user_row,
    vote_data,
    wines_by_id,
)

MINOR = 515001
ADULT = 515002
# A summer weekday far from any holiday, so the welcome's picks are reproducible.
SUMMER_EVENING = datetime(2026, 7, 15, 19, 0, tzinfo=MOSCOW_TZ)


def _wine_free(text: str) -> bool:
    return "₽" not in text and "💰" not in text


async def test_age_gate_shows_nothing_about_wine_until_confirmed(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        async with seeded.sessions() as s:
            any_wine = (await s.scalars(select(Wine.id).limit(1))).one()

        await h.say(MINOR, "/start")
        (gate,) = await h.wait_messages(MINOR, 1)
        assert gate.visible_text == T.age_question
        assert [b["text"] for b in gate.inline_buttons] == [T.age_yes, T.age_no]

        # Free text, /profile and /new are answered with the gate again, never with wine.
        for text in ("красное сухое к стейку до 2000", "/profile", "/new"):
            before = len(h.texts(MINOR))
            await h.say(MINOR, text)
            await h.idle()
            replies = h.texts(MINOR)[before:]
            assert replies == [T.age_question], text
            latest = messages(h.tg.sent(chat_id=MINOR))[-1]
            assert [b["text"] for b in latest.inline_buttons] == [T.age_yes, T.age_no]

        # Buttons of a wine card (e.g. from a forwarded message) do nothing but re-ask.
        sent_before = len(h.tg.sent(chat_id=MINOR))
        for data in (vote_data(any_wine, 1), similar_data(any_wine)):
            query = await press(h, MINOR, data, gate.message_id or 0)
            assert await callback_answer(h, query) == T.age_required
        await h.idle()
        assert messages(h.tg.sent(chat_id=MINOR)[sent_before:]) == []
        assert await feedback_rows(seeded, MINOR) == []

        assert all(_wine_free(t) for t in h.texts(MINOR))
        assert not cards(h.tg.sent(chat_id=MINOR))
        user = await user_row(seeded, MINOR)
        assert user is not None and not user.age_confirmed

        # "Мне нет 18" (tapped twice): a polite refusal in place of the question, nothing stored.
        for _ in range(2):
            query = await press(h, MINOR, AgeCallback(adult=False).pack(), gate.message_id or 0)
        await callback_answer(h, query)
        await h.idle()
        gate_now = next(m for m in h.tg.chat_messages(MINOR) if m["message_id"] == gate.message_id)
        assert gate_now["text"] == T.age_refused
        assert "reply_markup" not in gate_now  # no buttons left to press
        assert not cards(h.tg.sent(chat_id=MINOR))
        user = await user_row(seeded, MINOR)
        assert user is not None and not user.age_confirmed
        assert all(_wine_free(t) for t in h.texts(MINOR))

        # Confirming on the latest gate (a double tap) stores it and opens the bot, once.
        latest_gate = messages(h.tg.sent(chat_id=MINOR))[-1]
        queries = [
            await press(h, MINOR, AgeCallback(adult=True).pack(), latest_gate.message_id or 0)
            for _ in range(2)
        ]
        assert [await callback_answer(h, q) for q in queries] == [T.age_confirmed] * 2
        await h.idle()
        assert T.apology not in h.texts(MINOR)
        user = await user_row(seeded, MINOR)
        assert user is not None and user.age_confirmed and user.age_confirmed_at is not None
        state = await h.services.people.state(MINOR)
        assert state is not None and state.age_confirmed
        assert len(cards(h.tg.sent(chat_id=MINOR))) == 3
        # The second taps re-edited messages already showing that text; nothing else failed.
        assert [c.method for c in h.tg.rejected] == ["editMessageText"] * 2
        assert all("message is not modified" in (c.error or "") for c in h.tg.rejected)


def _welcome_answer(body: JSONDict) -> Step:
    """What a model would write: an intro naming the day and a reason per listed wine."""
    ids = catalog_ids(body)
    lines = catalog_lines(body)
    names = [ln.split(" | ")[1] for ln in lines]
    intro = "Добрый вечер! Сегодня предлагаю три вина: " + "; ".join(names) + "."
    parts = [f"[INTRO]\n{intro}"]
    parts += [
        f"[WINE:{i}]\nПочему {n}: оно хорошо к летнему ужину."
        for i, n in zip(ids, names, strict=True)
    ]
    parts.append("[CLOSING]\nСпросите меня о любом поводе!")
    return reply("\n".join(parts))


async def test_start_welcome_is_written_by_the_llm(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        h.services.sommelier.clock = lambda: SUMMER_EVENING
        llm.script(responder(_welcome_answer))
        await h.say(ADULT, "/start")
        (gate,) = await h.wait_messages(ADULT, 1)
        await press(h, ADULT, AgeCallback(adult=True).pack(), gate.message_id or 0)
        await h.wait_messages(ADULT, 6)
        await h.idle()

        (request,) = llm.requests
        listed = catalog_ids(request)
        assert len(listed) == 3
        welcome = messages(h.tg.sent(chat_id=ADULT))[1:]
        shown = cards(welcome)
        assert [handle(card_wine_id(c)) for c in shown] == listed
        wines = await wines_by_id(seeded, [card_wine_id(c) for c in shown])
        for card in shown:
            wine = wines[card_wine_id(card)]
            text = card.visible_text or ""
            assert wine.name in text and f"Почему {wine.name}" in text
        # The intro is the model's text, naming exactly the wines on the cards.
        intro = welcome[0].visible_text or ""
        assert intro.startswith("Добрый вечер!")
        assert all(wines[card_wine_id(c)].name in intro for c in shown)
        assert welcome[-2].visible_text == "Спросите меня о любом поводе!"
        # Then the optional taste quiz, in one message of its own.
        assert (welcome[-1].visible_text or "").startswith("Анкета вкуса")
        assert T.quiz_skip in [b["text"] for b in welcome[-1].inline_buttons]
        assert llm.errors == []
        assert not h.tg.rejected


async def test_start_welcome_without_llm_is_templated(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        h.services.sommelier.clock = lambda: SUMMER_EVENING
        day = build_day_context(SUMMER_EVENING)
        await adult(h, ADULT)
        await h.say(ADULT, "/start")
        await h.idle()

        welcome = messages(h.tg.sent(chat_id=ADULT))
        shown = cards(welcome)
        assert len(shown) == 3
        ids = [card_wine_id(c) for c in shown]
        assert len(set(ids)) == 3
        wines = await wines_by_id(seeded, ids)
        # One pick per wine type suggested for a summer evening, in that order.
        assert [wines[i].wine_type for i in ids] == day.suggested_wine_types()[:3]
        for card in shown:
            wine = wines[card_wine_id(card)]
            assert wine.name in (card.visible_text or "")
            assert WINE_TYPE_RU[wine.wine_type].capitalize() in (card.visible_text or "")
        intro = welcome[0].visible_text or ""
        assert day.weekday in intro
        assert no_space(intro)
        assert not h.tg.rejected
