"""Photos and voice through the bot (issue 17), over the fake Bot API and the fake model:
a label of a catalog wine → its card; an unknown label → «нет в магазине» + close wines;
a dish photo and a voice message → pairing cards; no vision / no transcription → what to do."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from fakes.openai_server import responder
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import BotHarness, running_bot
from tests.bot_helpers import (
    adult,
    agent_model,
    card_wine_id,
    cards,
    empty_list_in,
    fake_llm,
    last_user_text,
    llm_settings,
    messages,
    wines_by_id,
)

CHAT = 917001
PHOTO = b"\xff\xd8\xff\xe0 fake jpeg of a label"
VOICE = b"OggS fake opus voice"
STEAK = {"wine_type": "red", "food_pairing": "стейк"}

CATENA_LABEL = {
    "kind": "label",
    "producer": "Catena Zapata",
    "name": "Malbec",
    "vintage": 2021,
    "region": "Мендоса, Аргентина",
    "grapes": ["мальбек"],
    "wine_type": "red",
}
UNKNOWN_LABEL = {
    "kind": "label",
    "producer": "Château Pontet-Canet",
    "name": "Pauillac Grand Cru Classé",
    "vintage": 2015,
    "region": "Бордо, Франция",
    "grapes": ["каберне совиньон", "мерло"],
    "wine_type": "red",
}


async def send_photo(h: BotHarness, caption: str | None = None, **size: int) -> list[Any]:
    return await push_and_wait(h, h.tg.photo_update(CHAT, PHOTO, caption=caption, **size))


async def push_and_wait(h: BotHarness, update: dict[str, Any]) -> list[Any]:
    before = len(h.tg.sent(chat_id=CHAT))
    h.tg.push_update(update)
    await h.idle(30)
    return messages(h.tg.sent(chat_id=CHAT)[before:])


async def send_voice(h: BotHarness, duration: int = 4, note: bool = False) -> list[Any]:
    before = len(h.tg.sent(chat_id=CHAT))
    build = h.tg.video_note_update if note else h.tg.voice_update
    h.tg.push_update(build(CHAT, VOICE, duration=duration))
    await h.idle(30)
    return messages(h.tg.sent(chat_id=CHAT)[before:])


def texts_of(replies: list[Any]) -> list[str]:
    return [r.visible_text or "" for r in replies]


def image_url_of(body: dict[str, Any]) -> str:
    parts = body["messages"][-1]["content"]
    return next(p["image_url"]["url"] for p in parts if p["type"] == "image_url")


def text_part_of(body: dict[str, Any]) -> str:
    parts = body["messages"][-1]["content"]
    return " ".join(p["text"] for p in parts if p["type"] == "text")


async def test_label_of_a_catalog_wine_yields_its_card(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(CATENA_LABEL)
        update = h.tg.photo_update(CHAT, PHOTO, width=4000, height=3000)
        replies = await push_and_wait(h, update)
        assert llm.errors == []
    [card] = cards(replies)
    wine = (await wines_by_id(seeded, [card_wine_id(card)]))[card_wine_id(card)]
    assert wine.name == "Catena Malbec"
    intro = texts_of(replies)[0]
    assert "Есть у нас" in intro and "Catena Zapata Malbec 2021" in intro
    # The image went to the model as a data: URL, no larger than ~1600 px (not the original).
    [vision] = llm.vision_requests
    assert image_url_of(vision).startswith("data:image/jpeg;base64,")
    [asked] = [c.params["file_id"] for c in h.tg.calls if c.method == "getFile"]
    chosen = next(p for p in update["message"]["photo"] if p["file_id"] == asked)
    assert (chosen["width"], chosen["height"]) == (1280, 960)  # not the 4000 px original


async def test_unknown_label_says_not_in_the_shop_and_offers_close_wines(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(UNKNOWN_LABEL)
        replies = await send_photo(h, caption="что-то похожее, до 2000")
        # «Сообщить, когда появится» under the closing: the label's wine, subscribed.
        closing = replies[-1]
        [offer] = [b for b in closing.inline_buttons if b["text"] == T.alert_offer_button]
        await h.press(CHAT, offer["callback_data"], closing.message_id or 0)
        await h.idle()
        [subscription] = await h.services.alerts.list(CHAT)
        assert subscription.kind == "name" and "Pontet-Canet" in subscription.title
    intro = texts_of(replies)[0]
    assert "нет в магазине" in intro and "Pontet-Canet" in intro
    found = cards(replies)
    assert found
    wines = await wines_by_id(seeded, [card_wine_id(c) for c in found])
    for card in found:
        wine = wines[card_wine_id(card)]
        close = {"каберне совиньон", "мерло"} & set(
            wine.grape_varieties
        ) or wine.country == "Франция"
        assert close, wine.name
        assert wine.price_rub <= 2000  # the caption's budget
        assert "Тот же сорт" in (card.visible_text or "") or "Франция" in (card.visible_text or "")
    # The caption reached the model with the photo.
    assert "до 2000" in text_part_of(llm.vision_requests[0])


async def test_dish_photo_names_the_dish_and_pairs_through_the_agent(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision({"kind": "dish", "dish": "стейк рибай с овощами гриль"})
        model = responder(agent_model(lambda _: {**STEAK, "price_max": 3000}))
        llm.script(model, model)
        replies = await send_photo(h, caption="к этому, до 3000")
        assert llm.errors == []
    assert texts_of(replies)[0] == T.photo_dish.format(dish="стейк рибай с овощами гриль")
    assert texts_of(replies)[1].startswith("Подборка по запросу")  # the agent's own answer
    found = cards(replies)
    assert len(found) == 3
    agent_requests = [r for r in llm.requests if r not in llm.vision_requests]
    question = last_user_text(agent_requests[0])
    assert "стейк рибай" in question and "до 3000" in question
    wines = await wines_by_id(seeded, [card_wine_id(c) for c in found])
    assert all(w.wine_type == "red" and w.price_rub <= 3000 for w in wines.values())


async def test_wine_list_photo_finds_the_listed_wines_we_have(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(
            {
                "kind": "wine_list",
                "wines": [
                    {"producer": "Unknown Estate", "name": "Reserva Especial", "price_rub": 4000},
                    {"producer": "Trapiche", "name": "Oak Cask Malbec", "vintage": 2022},
                ],
            }
        )
        replies = await send_photo(h)
    [card] = cards(replies)
    wine = (await wines_by_id(seeded, [card_wine_id(card)]))[card_wine_id(card)]
    assert wine.name == "Trapiche Oak Cask Malbec"
    assert "есть" in texts_of(replies)[0].lower()


async def test_voice_is_heard_shown_and_answered_with_cards(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_transcript("красное сухое к стейку")
        model = responder(agent_model(lambda _: STEAK))
        llm.script(model, model)
        replies = await send_voice(h)
        llm.script_transcript("что-нибудь к шашлыку")
        llm.script(model, model)
        note_replies = await send_voice(h, note=True)
        assert llm.errors == []
    assert texts_of(replies)[0] == "🎙 Услышал: «красное сухое к стейку»"
    assert texts_of(replies)[1] == "Подборка по запросу «красное сухое к стейку»"
    assert len(cards(replies)) == 3
    assert texts_of(note_replies)[0] == "🎙 Услышал: «что-нибудь к шашлыку»"
    assert cards(note_replies)
    first, second = llm.transcription_requests
    assert first["model"] == "whisper-1" and first["filename"] == "voice.ogg"
    assert second["filename"] == "video_note.mp4"
    assert first["size"] == len(VOICE)
    assert last_user_text(llm.requests[0]) == "красное сухое к стейку"


async def test_too_long_voice_is_refused_before_download(seeded: Runtime) -> None:
    async with (
        fake_llm() as llm,
        running_bot(seeded, max_voice_seconds=30, **llm_settings(llm)) as h,
    ):
        await adult(h, CHAT)
        replies = await send_voice(h, duration=31)
        assert texts_of(replies) == [T.voice_too_long.format(limit=30)]
        assert not [c for c in h.tg.calls if c.method == "getFile"]
        assert llm.transcription_requests == [] and llm.requests == []


async def test_photos_off_without_vision_explain_what_to_do(seeded: Runtime) -> None:
    async with (
        fake_llm() as llm,
        running_bot(seeded, vision_model="none", **llm_settings(llm)) as h,
    ):
        await adult(h, CHAT)
        replies = await send_photo(h, caption="к этому")
        assert texts_of(replies) == [T.photo_off]
        assert not [c for c in h.tg.calls if c.method == "getFile"]
        assert llm.requests == []


async def test_model_without_vision_and_unknown_transcription_model_explain(
    seeded: Runtime,
) -> None:
    async with (
        fake_llm() as llm,
        running_bot(
            seeded, vision_model="text-only", transcription_model="no-such", **llm_settings(llm)
        ) as h,
    ):
        await adult(h, CHAT)
        llm.non_vision_models.add("text-only")
        photo_replies = await send_photo(h)
        voice_replies = await send_voice(h)
        unreadable = {"kind": "other"}
        llm.non_vision_models.clear()
        llm.script_vision(unreadable)
        nothing_replies = await send_photo(h)
    assert texts_of(photo_replies) == [T.photo_unreadable]
    assert texts_of(voice_replies) == [T.voice_unreadable]
    assert texts_of(nothing_replies) == [T.photo_nothing]
    assert any("image_url is only supported" in e for e in llm.errors)
    assert any("does not exist" in e for e in llm.errors)


async def test_without_an_llm_photo_and_voice_ask_for_words(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:  # no LLM: what `make run` gives everyone first
        await adult(h, CHAT)
        photo_replies = await send_photo(h)
        voice_replies = await send_voice(h)
        assert not [c for c in h.tg.calls if c.method == "getFile"]
    assert texts_of(photo_replies) == [T.photo_off]
    assert texts_of(voice_replies) == [T.voice_off]


async def test_photo_before_the_age_gate_gets_the_age_question(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        replies = await send_photo(h)
        assert texts_of(replies) == [T.age_question]
        assert llm.vision_requests == []


async def test_wine_list_without_our_wines_offers_the_closest_to_them(seeded: Runtime) -> None:
    listed = {
        "kind": "wine_list",
        "wines": [
            {"producer": "Achaval Ferrer", "name": "Quimera", "grapes": ["мальбек"]},
            {"producer": "Weingut Nowhere", "name": "Steillage", "grapes": ["рислинг"]},
        ],
    }
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(listed)
        replies = await send_photo(h)
    assert "нет" in texts_of(replies)[0]
    found = cards(replies)
    assert found
    wines = await wines_by_id(seeded, [card_wine_id(c) for c in found])
    for card in found:
        assert {"мальбек", "рислинг"} & set(wines[card_wine_id(card)].grape_varieties)
        assert "Похоже на «Achaval Ferrer Quimera»" in (card.visible_text or "") or (
            "Похоже на «Weingut Nowhere Steillage»" in (card.visible_text or "")
        )


async def test_the_same_unknown_label_twice_shows_other_close_wines(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(UNKNOWN_LABEL, UNKNOWN_LABEL)
        first = {card_wine_id(c) for c in cards(await send_photo(h))}
        second = {card_wine_id(c) for c in cards(await send_photo(h))}
    assert first and second and not first & second  # no repeats within the conversation


async def test_close_wines_without_grapes_get_no_empty_grape_list(seeded: Runtime) -> None:
    """A catalog without grapes, a label from nowhere the shop knows: «близкий стиль: Италия»,
    never «Италия, .»."""
    async with seeded.sessions() as s:
        await s.execute(text("UPDATE wines SET grape_varieties = '{}'"))
        await s.commit()
    label = {**UNKNOWN_LABEL, "region": "Атлантида", "grapes": ["саперави"]}
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_vision(label)
        found = cards(await send_photo(h))
    assert found
    for card in found:
        shown = card.visible_text or ""
        assert "Близкий стиль" in shown and empty_list_in(shown) is None, shown


async def test_silent_voice_asks_to_repeat(seeded: Runtime) -> None:
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        llm.script_transcript("   ")
        replies = await send_voice(h)
        assert llm.requests == []
    assert texts_of(replies) == [T.voice_nothing]


async def test_photos_count_against_the_rate_limit(seeded: Runtime) -> None:
    async with running_bot(seeded, rate_limit_per_minute=1) as h:
        await adult(h, CHAT)
        first = await send_photo(h)
        second = await send_photo(h)
        third = await send_voice(h)
    assert texts_of(first) == [T.photo_off]
    assert texts_of(second) == [T.rate_limited] and texts_of(third) == [T.rate_limited]
