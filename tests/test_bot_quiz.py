"""The taste quiz through the fake Bot API: one message edited in place, and what it changes."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlalchemy import select

from bot.callbacks import AgeCallback
from core.domain import Sweetness, WineType
from fakes.openai_server import JSONDict, Step, call, reply, responder, tool_calls
from fakes.telegram_server import SentCall
from repositories.models import QuizAnswers, Wine
from services.agent._day_context import MOSCOW_TZ
from services.app.runtime import Runtime
from services.app.texts import T
from tests.agent_fixtures import catalog_ids, formatted, system_text
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import (
    adult,
    ask,
    card_wine_id,
    cards,
    current_tool_wines,
    fake_llm,
    llm_settings,
    messages,
    press,
    vote_data,
    why_text,
)

PERSON = 717001
OTHER = 717002
EVENING = "что-нибудь на вечер"
RED_DRY_FULL_2000 = ("🍷 Красное", "Сухое", "Полнотелое", T.quiz_skip, "до 2 000 ₽", T.quiz_skip)


def _summer_evening() -> datetime:
    return datetime(2026, 7, 15, 19, 0, tzinfo=MOSCOW_TZ)


async def _quiz_message(h: BotHarness, chat_id: int) -> SentCall:
    return next(
        c
        for c in reversed(messages(h.tg.sent(chat_id=chat_id)))
        if (c.visible_text or "").startswith("Анкета вкуса")
    )


def _current(h: BotHarness, chat_id: int, message_id: int) -> dict[str, object]:
    return next(m for m in h.tg.chat_messages(chat_id) if m["message_id"] == message_id)


async def take_quiz(h: BotHarness, chat_id: int, labels: tuple[str, ...]) -> int:
    """Tap one button per question by its label; returns the quiz message's id."""
    await h.say(chat_id, "/quiz")
    await h.idle()
    quiz = await _quiz_message(h, chat_id)
    message_id = quiz.message_id or 0
    for label in labels:
        current = _current(h, chat_id, message_id)
        rows = current["reply_markup"]["inline_keyboard"]  # type: ignore[index]
        (button,) = [b for row in rows for b in row if b["text"] == label]
        await press(h, chat_id, button["callback_data"], message_id)
        await h.idle()
    return message_id


async def _prices_and_styles(seeded: Runtime, shown: list[SentCall]) -> list[Wine]:
    ids = [card_wine_id(c) for c in shown]
    async with seeded.sessions() as s:
        found = {w.id: w for w in await s.scalars(select(Wine).where(Wine.id.in_(ids)))}
    return [found[i] for i in ids]


def _red_dry_within(wine: Wine) -> bool:
    return (
        wine.wine_type == WineType.red
        and wine.sweetness == Sweetness.dry
        and wine.price_rub <= Decimal(2000)
    )


async def test_quiz_is_one_message_edited_in_place_and_seeds_the_picks(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        h.services.sommelier.clock = _summer_evening
        # The gate, then the welcome and the optional quiz.
        await h.say(PERSON, "/start")
        (gate,) = await h.wait_messages(PERSON, 1)
        await press(h, PERSON, AgeCallback(adult=True).pack(), gate.message_id or 0)
        await h.idle()
        before_quiz = cards(h.tg.sent(chat_id=PERSON))
        assert len(before_quiz) == 3
        offered = await _quiz_message(h, PERSON)
        assert T.quiz_skip in [b["text"] for b in offered.inline_buttons]

        sent_before = len(messages(h.tg.sent(chat_id=PERSON)))
        message_id = await take_quiz(h, PERSON, RED_DRY_FULL_2000)
        # Every step edited the same message; the last one says what was understood.
        edits = [c for c in h.tg.sent("editMessageText", chat_id=PERSON) if c.ok]
        assert {c.params["message_id"] for c in edits[-6:]} == {message_id}
        final = _current(h, PERSON, message_id)
        assert "красное, сухое, полнотелое, до 2 000 ₽" in str(final["text"])
        async with seeded.sessions() as s:
            row = await s.get(QuizAnswers, PERSON)
        assert row is not None
        assert row.answers == {"colour": "red", "sweetness": "dry", "body": "full", "budget": 2000}

        # The picks that follow (and /start from now on) lean to red, dry, within 2000.
        after = cards(messages(h.tg.sent(chat_id=PERSON))[sent_before + 1 :])
        wines = await _prices_and_styles(seeded, after)
        assert len(wines) == 3 and _red_dry_within(wines[0])
        assert all(w.price_rub <= 2000 for w in wines)
        before = await _prices_and_styles(seeded, before_quiz)
        assert [w.id for w in before] != [w.id for w in wines]
        restart = cards(await ask(h, PERSON, "/start"))
        assert [card_wine_id(c) for c in restart] == [w.id for w in wines]

        # An open request without an LLM follows the quiz too.
        evening = await _prices_and_styles(seeded, cards(await ask(h, PERSON, EVENING)))
        assert evening and all(_red_dry_within(w) for w in evening)
        assert h.tg.rejected == []


async def test_without_the_quiz_an_open_request_is_not_steered(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, OTHER)
        evening = await _prices_and_styles(seeded, cards(await ask(h, OTHER, EVENING)))
        assert evening and not all(_red_dry_within(w) for w in evening)


def _taste_following_model(body: JSONDict) -> Step:
    """A model that keeps to the profile in its prompt: red dry within 2000 if the quiz says so."""
    system = system_text(body)
    wines = current_tool_wines(body)
    if not wines:
        if "по анкете вкуса: красное, сухое" in system and "до 2 000 ₽" in system:
            return tool_calls(
                call("search_wines", {"wine_type": "red", "sweetness": "dry", "price_max": 2000})
            )
        return tool_calls(call("search_wines", {"wine_type": "white"}))
    picks = [(w["id"], why_text(w)) for w in wines[:3]]
    return reply(formatted(picks, "Подборка на вечер", "Хорошего вечера!"))


def _welcome_model(body: JSONDict) -> Step:
    ids = catalog_ids(body)
    return reply(formatted([(i, "Хорошо к ужину.") for i in ids], "Добрый вечер!", "Спрашивайте!"))


async def test_quiz_steers_the_llm_path_too(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        h.services.sommelier.clock = _summer_evening
        await adult(h, PERSON)
        llm.script(*[responder(_taste_following_model)] * 2)
        plain = await _prices_and_styles(seeded, cards(await ask(h, PERSON, EVENING)))
        assert plain and all(w.wine_type == WineType.white for w in plain)

        await take_quiz(h, PERSON, (*RED_DRY_FULL_2000[:-1], T.quiz_stop))
        # /start with the model: the picks it is given follow the quiz.
        await h.services.people.new_conversation(PERSON)
        llm.script(responder(_welcome_model))
        welcome = await _prices_and_styles(seeded, cards(await ask(h, PERSON, "/start")))
        assert len(welcome) == 3 and _red_dry_within(welcome[0])
        assert all(w.price_rub <= 2000 for w in welcome)

        await h.services.people.new_conversation(PERSON)
        llm.script(*[responder(_taste_following_model)] * 2)
        steered = await _prices_and_styles(seeded, cards(await ask(h, PERSON, EVENING)))
        assert steered and all(_red_dry_within(w) for w in steered)
        prompt = system_text(llm.requests[-1])
        assert "по анкете вкуса: красное, сухое, полнотелое, до 2 000 ₽" in prompt
        assert llm.errors == []


async def test_profile_shows_quiz_and_votes_apart_and_resets_each(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        await take_quiz(h, PERSON, RED_DRY_FULL_2000)
        card = cards(await ask(h, PERSON, "белое сухое к рыбе"))[0]
        await press(h, PERSON, vote_data(card_wine_id(card), 1), card.message_id or 0)
        await h.idle()

        (shown,) = await ask(h, PERSON, "/profile")
        text = shown.visible_text or ""
        assert "Из анкеты: красное, сухое, полнотелое, до 2 000 ₽" in text
        assert T.profile_from_votes in text and "белое сухое" in text
        labels = {b["text"]: b["callback_data"] for b in shown.inline_buttons}
        assert set(labels) == {T.profile_reset_quiz_button, T.profile_reset_votes_button}

        await press(h, PERSON, labels[T.profile_reset_quiz_button], shown.message_id or 0)
        await h.idle()
        (again,) = await ask(h, PERSON, "/profile")
        assert "Из анкеты" not in (again.visible_text or "")
        assert "белое сухое" in (again.visible_text or "")
        async with seeded.sessions() as s:
            assert await s.get(QuizAnswers, PERSON) is None


async def test_skipping_every_question_stores_nothing_and_forget_removes_answers(
    seeded: Runtime,
) -> None:
    async with running_bot(seeded) as h:
        await adult(h, PERSON)
        message_id = await take_quiz(h, PERSON, (T.quiz_skip,) * 6)
        assert _current(h, PERSON, message_id)["text"] == T.quiz_done_empty
        assert await h.services.quiz.answers(PERSON) == {}

        await take_quiz(h, PERSON, ("🥂 Белое", T.quiz_stop))
        assert await h.services.quiz.answers(PERSON) == {"colour": "white"}
        removed = await h.services.people.forget(PERSON)
        assert removed.get("quiz_answers") == 1
        async with seeded.sessions() as s:
            assert await s.get(QuizAnswers, PERSON) is None
