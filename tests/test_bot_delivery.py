"""Long answers, markup-heavy text and photo cards reach the user intact."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from bot.telegram_html import CAPTION_LIMIT
from fakes.openai_server import FakeOpenAIServer, Step, call, reply, responder, tool_calls
from fakes.telegram_server import SentCall
from repositories.models import Wine
from services.agent._answer_format import MAX_INTRO, MAX_WHY
from services.agent._wine_handles import handle
from services.app.runtime import Runtime
from tests.agent_fixtures import formatted
from tests.bot_harness import running_bot
from tests.bot_helpers import (
    JSONDict,
    adult,
    ask,
    card_wine_id,
    cards,
    current_tool_wines,
    fake_llm,
    is_card,
    llm_settings,
    no_space,
    wines_by_id,
)

CHAT = 717001
PHOTO_PREFIX = "https://shop.example.com/images/"
# Paragraphs full of characters that must be escaped for Telegram HTML.
PARAGRAPH = (
    # markup-heavy, and no fact the grounding check would hold to the row (a sum of sugar
    # in g/l is one, and a sentence claiming it is dropped)
    "Вино <из погреба> & с историей: «танины > кислотность», а сладость < кислотности & ниже. "
    # no dish: the grounded-prose check holds a dish to the wine's pairings
    "Подойдет к беседе & долгому вечеру, к историям <негромким> и к разговору до утра. "
)


def _targeted(wine: Wine, why: str, intro: str = "Вот мой выбор.") -> Any:
    """A fake model that finds `wine` with search_wines and recommends exactly it."""

    def respond(body: JSONDict) -> Step:
        found = current_tool_wines(body)
        if not found:
            price = float(wine.price_rub)
            args = {
                "wine_type": wine.wine_type.value,
                "price_min": price,
                "price_max": price,
                "include_shown": True,  # it may be a wine shown before («повторите то вино»)
            }
            return tool_calls(call("search_wines", args))
        assert handle(wine.id) in [w["id"] for w in found]
        return reply(formatted([(handle(wine.id), why)], intro, "Приятного вечера!"))

    return respond


async def _pick_wine(runtime: Runtime, offset: int = 0) -> Wine:
    async with runtime.sessions() as s:
        return (await s.scalars(select(Wine).order_by(Wine.slug).offset(offset).limit(1))).one()


def _answer(llm: FakeOpenAIServer, wine: Wine, why: str, intro: str = "Вот мой выбор.") -> None:
    model = responder(_targeted(wine, why, intro))
    llm.script(model, model)


def _card_parts(sent: list[SentCall]) -> list[SentCall]:
    """The messages of the one photo card in `sent`: from its photo up to its keyboard."""
    start = next(i for i, c in enumerate(sent) if c.method == "sendPhoto")
    end = next(i for i, c in enumerate(sent) if is_card(c))
    return sent[start : end + 1]


async def test_long_markup_heavy_intro_is_delivered_clipped(seeded: Runtime) -> None:
    wine = await _pick_wine(seeded)
    paragraphs = [f"{n}. {PARAGRAPH * 3}" for n in range(1, 40)]
    intro = "\n\n".join(paragraphs)
    intro = intro[: intro.rfind(" ", 0, 6000)]
    assert len(intro) > 5500
    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)
        _answer(llm, wine, "Короткая причина & <без> тегов.", intro)
        sent = await ask(h, CHAT, "Расскажите подробно, что взять к ужину?")

        assert not h.tg.rejected
        card_at = next(i for i, c in enumerate(sent) if is_card(c))
        shown_intro = "".join(c.visible_text or "" for c in sent[:card_at])
        # The answer format caps the intro: what arrives is its beginning, cut at a sentence
        # end and marked, with every <, > and & shown as typed.
        assert shown_intro.endswith("…")
        assert len(shown_intro) <= MAX_INTRO + 1
        assert no_space(intro).startswith(no_space(shown_intro[:-1]))
        assert len(shown_intro) > MAX_INTRO // 2
        assert "<из погреба> &" in shown_intro
        card = sent[card_at].visible_text or ""
        assert wine.name in card and "Короткая причина & <без> тегов." in card
        assert sent[-1].visible_text == "Приятного вечера!"
        assert llm.errors == []


async def test_photo_cards_caption_limit_split_and_rejected_photo(seeded: Runtime) -> None:
    wine = await _pick_wine(seeded, 0)
    long_wine = await _pick_wine(seeded, 1)
    blend = [
        "гренаш",
        "сира",
        "мурведр",
        "синсо",
        "каунуаз",
        "ваккарез",
        "терре нуар",
        "мускарден",
        "клерет",
        "пикпуль",
        "пикардан",
        "бурбуленк",
        "руссан",
    ]
    async with seeded.sessions() as s:
        await s.execute(
            update(Wine)
            .where(Wine.id.in_([wine.id, long_wine.id]))
            .values(image_url=func.concat(PHOTO_PREFIX, Wine.slug, ".jpg"))
        )
        # A Châteauneuf-du-Pape-like card: thirteen grapes and a long appellation.
        await s.execute(
            update(Wine)
            .where(Wine.id == long_wine.id)
            .values(
                name="Château de Beaucastel Châteauneuf-du-Pape Rouge «Hommage à Jacques Perrin»",
                grape_varieties=blend,
                region="Южная долина Роны, Шатонёф-дю-Пап, лье-дит Ла Крау и Мон-Редон, "
                "террасы с крупной речной галькой на красной глине",
            )
        )
        await s.commit()
    wines = await wines_by_id(seeded, [wine.id, long_wine.id])
    wine, long_wine = wines[wine.id], wines[long_wine.id]
    assert wine.image_url and long_wine.image_url

    async with fake_llm() as llm, running_bot(seeded, **llm_settings(llm)) as h:
        await adult(h, CHAT)

        # A short card with a photo: one sendPhoto, the whole card as its caption.
        _answer(llm, wine, "Причина & <коротко>.")
        sent = await ask(h, CHAT, "Что взять к ужину?")
        (photo,) = [c for c in sent if c.method == "sendPhoto"]
        assert photo.params["photo"] == wine.image_url
        assert is_card(photo) and card_wine_id(photo) == wine.id
        caption = photo.visible_text or ""
        assert len(caption) <= CAPTION_LIMIT
        assert wine.name in caption and "Причина & <коротко>." in caption

        # A card too long for a caption: the photo carries its beginning, the text the rest,
        # and the buttons come with the last part.
        why = (PARAGRAPH * 10)[: MAX_WHY - 5].rsplit(" ", 1)[0] + "."
        _answer(llm, long_wine, why)
        sent = await ask(h, CHAT, "А что-нибудь к утке?")
        parts = _card_parts(sent)
        assert parts[0].method == "sendPhoto" and len(parts) >= 2
        assert len(parts[0].visible_text or "") <= CAPTION_LIMIT
        assert [is_card(c) for c in parts] == [False] * (len(parts) - 1) + [True]
        assert card_wine_id(parts[-1]) == long_wine.id
        whole = no_space("".join(c.visible_text or "" for c in parts))
        for piece in (long_wine.name, long_wine.producer, long_wine.region or "", why, *blend):
            assert no_space(piece) in whole, piece
        assert not h.tg.rejected

        # Telegram cannot fetch the photo: the card still arrives, as text with its buttons.
        h.tg.fail_next("sendPhoto", 400, "Bad Request: wrong file identifier/HTTP URL specified")
        _answer(llm, wine, "Причина & <снова>.")
        sent = await ask(h, CHAT, "Повторите, пожалуйста, то первое вино")
        (rejected,) = h.tg.rejected
        assert rejected.method == "sendPhoto"
        assert not [c for c in sent if c.method == "sendPhoto"]
        (card,) = cards(sent)
        assert card.method == "sendMessage" and card_wine_id(card) == wine.id
        assert wine.name in (card.visible_text or "")
        assert "Причина & <снова>." in (card.visible_text or "")
        assert llm.errors == []
