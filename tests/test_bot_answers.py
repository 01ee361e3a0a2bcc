"""Answers through the agent, 👍/👎 and the taste profile, and «Похожие» — end to end."""

from __future__ import annotations

import json
import logging
import re
import uuid

import pytest
from sqlalchemy import text

from bot.callbacks import ProfileResetCallback
from core.domain import SWEETNESS_RU, WINE_TYPE_RU
from fakes.openai_server import responder
from repositories.models import Wine
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from services.app.texts import T
from tests.agent_fixtures import system_text
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import (
    JSONDict,
    adult,
    agent_model,
    ask,
    button_data,
    callback_answer,
    card_wine_id,
    cards,
    empty_list_in,
    fake_llm,
    feedback_rows,
    llm_settings,
    no_space,
    press,
    user_row,
    wine_count,
    wines_by_id,
)

CHAT = 616001
QUESTION = "Посоветуйте красное сухое вино к утке, бюджет до 3000"
SEARCH = {"wine_type": "red", "sweetness": "dry", "price_max": 3000}


def _price(text: str) -> int:
    match = re.search(r"💰\s*([\d\s\u00a0]+)", text)
    assert match, text
    return int(re.sub(r"\D", "", match.group(1)))


def _style(wine: Wine) -> str:
    return f"{WINE_TYPE_RU[wine.wine_type]} {SWEETNESS_RU[wine.sweetness]}"


async def test_agent_answer_cards_buttons_and_log_line(
    seeded: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sommelier.answers")
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        llm.script(*[responder(agent_model(lambda _: SEARCH))] * 2)
        await adult(h, CHAT)
        sent = await ask(h, CHAT, QUESTION)

        _, second = llm.requests
        assert [c["function"]["name"] for c in llm_tool_calls(second)] == ["search_wines"]
        returned = [w["id"] for w in tool_result_wines(second)]
        shown = cards(sent)
        assert [handle(card_wine_id(c)) for c in shown] == returned[:3]
        assert len(shown) == 3

        wines = await wines_by_id(seeded, [card_wine_id(c) for c in shown])
        for card in shown:
            wine = wines[card_wine_id(card)]
            text = card.visible_text or ""
            assert wine.name in text
            assert wine.producer in text
            assert wine.country in text
            assert all(grape in text for grape in wine.grape_varieties)
            assert _style(wine).capitalize() in text
            assert _price(text) == int(wine.price_rub)
            assert f"{wine.name} — {wine.producer}: подходит к вашему запросу." in text
            # What was asked for: red, dry, within the budget.
            assert wine.wine_type.value == "red" and wine.sweetness.value == "dry"
            assert wine.price_rub <= SEARCH["price_max"]
            labels = [b["text"] for b in card.inline_buttons]
            assert labels == ["👍", "👎", T.similar_button, T.favourite_button, T.share_button]
            assert all(
                len(b["callback_data"].encode()) <= 64
                for b in card.inline_buttons
                if "callback_data" in b
            )
        assert sent[0].visible_text == f"Подборка по запросу «{QUESTION}»"
        assert sent[-1].visible_text == "Хорошего вечера!"

        records = [r for r in caplog.records if r.name == "sommelier.answers"]
        assert len(records) == 1
        line = records[0].getMessage()
        logged = json.loads(line)
        assert logged["user_id"] == CHAT
        assert logged["path"] == "agent"
        assert logged["tools"] == ["search_wines"]
        assert logged["llm_calls"] == len(llm.requests) == 2
        assert isinstance(logged["ms"], int) and logged["ms"] >= 0
        assert logged["wines"] == 3
        # Nothing the user wrote ends up in the log.
        assert QUESTION not in line
        assert not any(word in line for word in ("утке", "Посоветуйте", "бюджет"))
        assert llm.errors == []
        assert not h.tg.rejected


def llm_tool_calls(body: JSONDict) -> list[JSONDict]:
    return [
        c for m in body["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []
    ]


def tool_result_wines(body: JSONDict) -> list[JSONDict]:
    return [
        w
        for m in body["messages"]
        if m["role"] == "tool"
        for w in json.loads(m["content"])["wines"]
    ]


async def _profile(h: BotHarness, chat_id: int) -> str:
    (reply,) = await ask(h, chat_id, "/profile")
    return reply.visible_text or ""


async def test_votes_shape_the_profile_and_the_next_prompt(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        model = responder(agent_model(lambda _: SEARCH))
        llm.script(model, model)
        await adult(h, CHAT)
        shown = cards(await ask(h, CHAT, QUESTION))
        card = shown[0]
        wine_id = card_wine_id(card)
        wine = (await wines_by_id(seeded, [wine_id]))[wine_id]
        # The first prompt knows nothing about this user's taste.
        assert "Вкусовой профиль" not in system_text(llm.requests[0])
        assert await _profile(h, CHAT) == T.profile_empty

        like = button_data(card, "👍")
        query = await press(h, CHAT, like, card.message_id or 0)
        assert await callback_answer(h, query) == T.vote_saved[1]
        await h.idle()
        assert await feedback_rows(seeded, CHAT) == [(wine_id, 1)]
        liked_profile = (await user_row(seeded, CHAT)).taste_profile  # type: ignore[union-attr]
        assert liked_profile["votes"] == 1
        assert _keyboard_labels(h, CHAT, card.message_id)[:2] == ["👍 ✓", "👎"]

        # The same 👍 again: nothing is counted twice, and the user is told so.
        query = await press(h, CHAT, like, card.message_id or 0)
        assert await callback_answer(h, query) == T.vote_same
        await h.idle()
        assert await feedback_rows(seeded, CHAT) == [(wine_id, 1)]
        assert (await user_row(seeded, CHAT)).taste_profile == liked_profile  # type: ignore[union-attr]
        liked_text = await _profile(h, CHAT)
        assert _style(wine) in liked_text and "Нравится" in liked_text
        assert f"{int(wine.price_rub)}–{int(wine.price_rub)}₽" in no_space(liked_text)

        # 👎 afterwards changes the vote instead of adding one.
        query = await press(h, CHAT, button_data(card, "👎"), card.message_id or 0)
        assert await callback_answer(h, query) == T.vote_changed
        await h.idle()
        assert await feedback_rows(seeded, CHAT) == [(wine_id, -1)]
        profile = (await user_row(seeded, CHAT)).taste_profile  # type: ignore[union-attr]
        assert profile["votes"] == 1
        assert _keyboard_labels(h, CHAT, card.message_id)[:2] == ["👍", "👎 ✓"]
        disliked_text = await _profile(h, CHAT)
        assert "Нравится" not in disliked_text
        disliked_line = next(ln for ln in disliked_text.splitlines() if ln.startswith("👎"))
        assert _style(wine) in disliked_line
        assert all(grape in disliked_line for grape in wine.grape_varieties[:3])

        # The next question's system prompt carries the profile.
        before = len(llm.requests)
        llm.script(model, model)
        await ask(h, CHAT, "А что-нибудь еще?")
        prompt = system_text(llm.requests[before])
        assert "Вкусовой профиль пользователя" in prompt
        profile_lines = prompt[prompt.index("Вкусовой профиль") :].splitlines()
        disliked_prompt = next(ln for ln in profile_lines if "не понравилось" in ln)
        assert _style(wine) in disliked_prompt

        # The reset button under /profile forgets everything.
        before_reset = len(h.tg.sent(chat_id=CHAT))
        await ask(h, CHAT, "/profile")
        profile_msg = h.tg.sent(chat_id=CHAT)[before_reset]
        reset = profile_msg.inline_buttons[0]
        assert reset["text"] == T.profile_reset_button
        assert reset["callback_data"] == ProfileResetCallback(confirm=True).pack()
        query = await press(h, CHAT, reset["callback_data"], profile_msg.message_id or 0)
        assert await callback_answer(h, query) == T.profile_reset_done
        await h.idle()
        assert await feedback_rows(seeded, CHAT) == []
        assert (await user_row(seeded, CHAT)).taste_profile == {}  # type: ignore[union-attr]
        assert await _profile(h, CHAT) == T.profile_empty
        before = len(llm.requests)
        llm.script(model, model)
        await ask(h, CHAT, "Еще вариант, пожалуйста")
        assert "Вкусовой профиль" not in system_text(llm.requests[before])
        assert llm.errors == []
        assert not h.tg.rejected


def _keyboard_labels(h: BotHarness, chat_id: int, message_id: int | None) -> list[str]:
    message = next(m for m in h.tg.chat_messages(chat_id) if m["message_id"] == message_id)
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [b["text"] for row in rows for b in row]


async def test_similar_shows_only_wines_not_seen_yet(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        await adult(h, CHAT)
        first = cards(await ask(h, CHAT, "красное сухое вино к мясу"))
        assert first
        seen: set[uuid.UUID] = {card_wine_id(c) for c in first}
        base = first[0]
        base_id = card_wine_id(base)
        base_wine = (await wines_by_id(seeded, [base_id]))[base_id]
        batches: list[set[uuid.UUID]] = []
        # Pressing «Похожие» again and again: always new wines, until the catalog runs out.
        for _ in range(await wine_count(seeded) // 3 + 2):
            before = len(h.tg.sent(chat_id=CHAT))
            query = await press(h, CHAT, button_data(base, T.similar_button), base.message_id or 0)
            await callback_answer(h, query)
            await h.idle()
            reply = [c for c in h.tg.sent(chat_id=CHAT)[before:] if c.method == "sendMessage"]
            new = [card_wine_id(c) for c in cards(reply)]
            assert reply and base_wine.name in (reply[0].visible_text or "")
            if not new:
                break
            assert len(new) <= 3 and len(set(new)) == len(new)
            assert not set(new) & seen, "a wine already shown in this conversation came back"
            batches.append(set(new))
            seen |= set(new)
        else:
            pytest.fail("«Похожие» kept showing wines after the catalog ran out")
        assert len(batches) >= 2, "«Похожие» found nothing new on the first or second press"
        # Similar to a red wine means red wines.
        found = await wines_by_id(seeded, set().union(*batches))
        assert {w.wine_type for w in found.values()} == {base_wine.wine_type}
        assert not h.tg.rejected


async def test_a_wine_without_grapes_gets_no_empty_grape_list_on_its_card(seeded: Runtime) -> None:
    """A feed without a grape column: the offline answer's cards and «Похожие» name no grapes
    (never «сорта: .» or «Италия, .»)."""
    async with seeded.sessions() as s:
        await s.execute(text("UPDATE wines SET grape_varieties = '{}'"))
        await s.commit()
    async with running_bot(seeded) as h:
        await adult(h, CHAT)
        first = cards(await ask(h, CHAT, "белое сухое"))
        assert first
        before = len(h.tg.sent(chat_id=CHAT))
        query = await press(
            h, CHAT, button_data(first[0], T.similar_button), first[0].message_id or 0
        )
        await callback_answer(h, query)
        await h.idle()
        similar = cards(h.tg.sent(chat_id=CHAT)[before:])
    assert similar
    for card in first + similar:
        shown = card.visible_text or ""
        assert empty_list_in(shown) is None, shown
