"""A conversation's turns keep to what the person asked (issue 40), on the offline path over the
demo catalog: the dish itself before a dish of its kind, the conditions in force carried over,
a negation that reaches only what it rules out."""

from __future__ import annotations

from core.recommendation import Recommendation
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_chat


async def _pairs_with(runtime: Runtime, rec: Recommendation, *dishes: str) -> bool:
    wines = await rows_shown(runtime, rec)
    return all(any(d in p for d in dishes for p in w.food_pairings) for w in wines)


async def test_a_dish_brings_the_wines_paired_with_it_before_those_of_its_kind(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        grill = await chat.turns.answer(401, "посоветуй красное на барбекю, жарим на даче")
        pasta = await chat.turns.answer(402, "что открыть к спагетти болоньезе?")
    assert len(grill.wines) == 3 and await _pairs_with(seeded, grill, "барбекю")
    assert len(pasta.wines) >= 2 and await _pairs_with(seeded, pasta, "паста")


async def test_a_dish_after_the_course_is_the_one_to_pair(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(403, "а на десерт будет что-нибудь к горькому шоколаду")
    assert rec.wines and await _pairs_with(seeded, rec, "шоколад")


async def test_a_red_for_fish_is_one_paired_with_fish(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(404, "хочу именно красное, но чтобы подошло к рыбе")
    assert rec.wines and all(w.wine_type == "red" for w in rec.wines)
    assert await _pairs_with(seeded, rec, "рыб", "лосос")


async def test_a_grape_ruled_out_names_no_wine_by_its_second_word(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(405, "красное к говядине на ужин")
        rec = await chat.turns.answer(405, "только без каберне совиньон")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.wine_type.value == "red" for w in wines)
    assert all("каберне совиньон" not in w.grape_varieties for w in wines)


async def test_each_country_ruled_out_stays_out_and_a_name_after_a_dash_is_asked_for(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(406, "нужно сухое игристое")
        rec = await chat.turns.answer(406, "не французское и не итальянское — может, кава?")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.country == "Испания" for w in wines)


async def test_a_verb_that_sounds_like_a_region_names_no_wine(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(407, "белое сухое к роллам")
        rec = await chat.turns.answer(407, "а может лучше розовое к роллам?")
    assert rec.wines and all(w.wine_type == "rose" for w in rec.wines)


async def test_asking_whether_such_a_wine_exists_mid_conversation_shows_one(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(408, "красное к утке, пино нуар")
        rec = await chat.turns.answer(408, "а шампанское из пино нуара бывает?")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.wine_type.value == "sparkling" for w in wines)
    assert all("пино нуар" in w.grape_varieties for w in wines)


async def test_what_the_person_likes_adds_to_the_budget_in_force(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(409, "ищу подарок тестю, бюджет от 5000 до 9000")
        rec = await chat.turns.answer(409, "он обожает красное итальянское")
    assert rec.wines
    for wine in rec.wines:
        assert wine.wine_type == "red" and 5000 <= wine.price_rub <= 9000


async def test_a_budget_with_the_money_named_first_is_kept(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(410, "красное сухое к ужину")
        rec = await chat.turns.answer(410, "а подешевле есть, рублей 900?")
    assert rec.wines and all(w.price_rub <= 900 for w in rec.wines)


async def test_sweet_at_large_is_answered_by_a_semi_sweet_wine_too(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(411, "она любит сладкое, что-нибудь до 1000 рублей")
    assert rec.wines
    for wine in rec.wines:
        assert wine.sweetness in ("semi_sweet", "sweet") and wine.price_rub <= 1000


async def test_a_budget_said_again_for_the_next_course_outlasts_its_colour(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(412, "белое к курице до 1000")
        rec = await chat.turns.answer(412, "а к десерту что-нибудь сладкое, тоже до тысячи")
    assert rec.wines
    for wine in rec.wines:
        assert wine.sweetness in ("semi_sweet", "sweet") and wine.price_rub <= 1000


async def test_a_still_wine_shown_before_comes_again_rather_than_a_sparkling_one(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(413, "сухой рислинг, пожалуйста")
        rec = await chat.turns.answer(413, "а из российских рислингов что-то есть?")
    assert any(w.country == "Россия" for w in first.wines)
    assert rec.wines and all(w.wine_type == "white" for w in rec.wines)


async def test_a_catalog_name_in_latin_letters_alone_is_asked_for(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(414, "tsinandali сколько?")
    assert rec.wines and all("Tsinandali" in w.name for w in rec.wines)


async def test_a_region_said_twice_names_no_one_wine_of_it(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(415, "любим Крым — какое крымское сухое посоветуете?")
    wines = await rows_shown(seeded, rec)
    assert wines and all(w.region == "Крым" and w.sweetness.value == "dry" for w in wines)


async def test_an_occasion_in_english_names_no_wine(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(416, "a semi-sweet sparkling for the New Year party")
    assert rec.wines
    assert all(w.wine_type == "sparkling" and w.sweetness == "semi_sweet" for w in rec.wines)


async def test_a_country_only_capitals_name_survives_the_price_reading(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await chat.turns.answer(417, "any NZ sauvignon blanc, not too expensive?")
    assert rec.wines and all(w.country == "Новая Зеландия" for w in rec.wines)
