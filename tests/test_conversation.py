"""Conversations keep their thread (issue 12) on the offline path, through the services."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from core.recommendation import Recommendation
from repositories.wines import WineRepository
from services.app.container import Services, build_services
from services.app.runtime import Runtime
from tests.agent_fixtures import wines_by_id
from tests.conftest import make_settings
from tests.serving import with_settings

NEW_WORLD = {"США", "Чили", "Аргентина", "Австралия", "Новая Зеландия", "ЮАР"}


@asynccontextmanager
async def offline_chat(runtime: Runtime) -> AsyncIterator[Services]:
    services = build_services(with_settings(runtime, make_settings(llm_api_key=None)))
    try:
        yield services
    finally:
        await services.close()


async def offline_dialog(runtime: Runtime, user: int, *texts: str) -> list[Recommendation]:
    """The offline answers to `texts`, said in turn by one person."""
    async with offline_chat(runtime) as chat:
        return [await chat.turns.answer(user, text) for text in texts]


async def _ask(chat: Services, user_id: int, text: str) -> Recommendation:
    rec = await chat.turns.answer(user_id, text)
    assert rec.path == "offline"
    return rec


async def test_cheaper_keeps_the_request_and_undercuts_the_wines_shown(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 101, "красное сухое к стейку до 2000")
        second = await _ask(chat, 101, "а есть что-то подешевле?")
        third = await _ask(chat, 101, "покажи еще варианты")
    assert first.wines and second.wines and third.wines
    cheapest_before = min(w.price_rub for w in first.wines)
    for wine in second.wines:
        assert wine.wine_type == "red" and wine.sweetness == "dry"
        assert wine.price_rub < cheapest_before
    shown = {w.id for w in first.wines} | {w.id for w in second.wines}
    assert all(w.wine_type == "red" and w.id not in shown for w in third.wines)
    assert all(w.price_rub <= 2000 for w in third.wines)


async def test_more_is_the_same_request_without_repeats(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 102, "красное к пицце")
        more = await _ask(chat, 102, "покажи еще варианты")
    assert more.wines and all(w.wine_type == "red" for w in more.wines)
    assert not {w.id for w in first.wines} & {w.id for w in more.wines}


async def test_drier_riesling_is_still_riesling(seeded: Runtime) -> None:
    order = ["dry", "semi_dry", "semi_sweet", "sweet"]
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 103, "рислинг")
        drier = await _ask(chat, 103, "а посуше?")
    sweetest = max(order.index(w.sweetness) for w in first.wines)
    assert sweetest > 0, "the first answer had a riesling sweeter than dry to go from"
    assert drier.wines
    for wine in drier.wines:
        assert "рислинг" in wine.grape_varieties
        assert order.index(wine.sweetness) < sweetest


async def test_names_and_appellations_resolve_against_the_catalog(seeded: Runtime) -> None:
    cases = {
        "что-нибудь похожее на кьянти": "chianti",
        "есть амароне?": "amarone",
        "просекко": "prosecco",
        "Шабли к устрицам": "chablis",
        "винью верде": "vinho verde",
    }
    async with offline_chat(seeded) as chat:
        for number, (text, word) in enumerate(cases.items()):
            rec = await _ask(chat, 110 + number, text)
            assert rec.wines, text
            assert all(word in w.name.lower() for w in rec.wines), (text, rec.wines)
        champagne = await _ask(chat, 120, "шампанское на свадьбу")
    found = await wines_by_id(seeded, [w.id for w in champagne.wines])
    assert len(champagne.wines) == 3
    assert all(w.region == "Шампань" for w in found.values())


async def test_new_world_expands_to_countries(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await _ask(chat, 130, "что-то из Нового Света к барбекю")
    assert rec.wines and all(w.country in NEW_WORLD for w in rec.wines)


async def test_the_closing_asks_only_for_what_is_missing(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        full = await _ask(chat, 140, "красное сухое из Италии к пасте до 3000")
        partial = await _ask(chat, 141, "белое сухое до 2500")
    assert full.wines
    assert not any(word in full.closing for word in ("бюджет", "блюдо", "стран"))
    assert "бюджет" not in partial.closing and "блюдо" in partial.closing


async def test_a_wine_shown_is_not_shown_again(seeded: Runtime) -> None:
    seen: set[uuid.UUID] = set()
    async with offline_chat(seeded) as chat:
        for text in ("белое вино", "еще", "а другие?", "ещё варианты"):
            rec = await _ask(chat, 150, text)
            ids = {w.id for w in rec.wines}
            assert not ids & seen, text
            seen |= ids
    assert len(seen) >= 9, "three answers' worth of different white wines were shown"


async def test_mood_requests_reach_the_full_text_index(seeded: Runtime) -> None:
    """Issue 19: «вино с ягодными нотами» offline gets wines whose notes mention berries."""
    async with offline_chat(seeded) as chat:
        berries = await _ask(chat, 160, "вино с ягодными нотами")
        found = await wines_by_id(seeded, [w.id for w in berries.wines])
        assert berries.wines
        for wine in found.values():
            assert "ягод" in f"{wine.tasting_notes} {wine.description}".lower(), wine.name
        moods = [
            "вино с ягодными нотами",
            "что-то освежающее на лето",
            "вино с шоколадными нотами",
            "что-нибудь с цитрусовой свежестью",
            "вино с пряными нотами",
        ]
        picks = set()
        for number, mood in enumerate(moods):
            rec = await _ask(chat, 170 + number, mood)
            picks.add(frozenset(w.id for w in rec.wines))
    assert len(picks) >= 4


async def test_the_taste_profile_shapes_open_requests(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 180, "красное сухое")
        for wine in first.wines:
            await chat.taste.vote(180, wine.id, 1)
        await chat.people.new_conversation(180)
        rec = await _ask(chat, 180, "что-нибудь на вечер")
    assert rec.wines and all(w.wine_type == "red" and w.sweetness == "dry" for w in rec.wines)


async def test_the_cheapest_white_is_the_cheapest_on_sale_not_a_dearer_one(
    seeded: Runtime,
) -> None:
    async with seeded.sessions() as session:
        whites = await WineRepository(session).search({"wine_type": "white"}, order="price_asc")
    cheapest = whites[0].price_rub
    async with offline_chat(seeded) as chat:
        rec = await _ask(chat, 104, "покажи самое дешёвое белое")
        asked = await _ask(chat, 105, "самый дешёвый белый вариант какой?")
    for answer in (rec, asked):
        assert answer.wines and answer.wines[0].price_rub == cheapest
        # a wine a third dearer is not «the cheapest»
        assert all(
            w.wine_type == "white" and w.price_rub <= cheapest * 11 / 10 for w in answer.wines
        )
