"""Follow-ups written the way people complain or ask in passing (issue 40, a fifth round of my
own phrasings, none taken from the language sets): «приторно» and «кисловато» step the
sweetness away from what was shown, «за полторы» is a budget, the kind of a dish said after it
(«сыр, но с плесенью») is the dish, and a dish whose classic wines are sweet or fortified gets
them even when no type was named."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import WineType
from core.language.followups import read_followup
from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_chat


@pytest.mark.parametrize(
    "text", ["приторно как-то", "сладковато для меня", "too sweet for me", "можно покислее?"]
)
def test_a_wine_found_too_sweet_steps_drier(text: str) -> None:
    step = read_followup(text)
    assert step.drier and not step.sweeter


@pytest.mark.parametrize(
    "text", ["кисловатое какое-то", "слишком кислое для жены", "это too dry, честно"]
)
def test_a_wine_found_too_sour_or_dry_steps_sweeter(text: str) -> None:
    step = read_followup(text)
    assert step.sweeter and not step.drier


@pytest.mark.parametrize(
    ("text", "ceiling"),
    [
        ("а за две что посоветуешь?", Decimal(2000)),
        ("есть что за полторы?", Decimal(1500)),
        ("хочу уложиться в двушку", Decimal(2000)),
        ("до трёшки что-нибудь", Decimal(3000)),
    ],
)
def test_a_bare_sum_of_thousands_is_a_budget(text: str, ceiling: Decimal) -> None:
    assert read(text).query.filters.price_max == ceiling


@pytest.mark.parametrize("text", ["за две бутылки сколько выйдет?", "за три дня до праздника"])
def test_a_count_of_things_is_no_budget(text: str) -> None:
    assert read(text).query.filters.price_max is None


@pytest.mark.parametrize(
    ("text", "dish"),
    [
        ("будет сыр, причём с плесенью", "голубые сыры"),
        ("рыба, а точнее лосось", "лосось"),
        ("к мясу, скорее к стейку", "стейк"),
    ],
)
def test_the_kind_of_a_dish_said_after_it_is_the_dish(text: str, dish: str) -> None:
    assert read(text).query.filters.food_pairing == dish


async def test_blue_cheese_gets_the_sweet_and_fortified_wines_made_for_it(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        answer = await chat.turns.answer(471, "что открыть к горгонзоле?")
    shown = await rows_shown(seeded, answer)
    assert len(shown) >= 2
    assert all("голубые сыры" in w.food_pairings for w in shown)
    assert any(w.wine_type in (WineType.dessert, WineType.fortified) for w in shown)


async def test_cheese_in_general_still_gets_still_wines(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        answer = await chat.turns.answer(472, "что-нибудь к сырной тарелке")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(w.wine_type in (WineType.red, WineType.white, WineType.rose) for w in shown)


@pytest.mark.parametrize(
    "text",
    ["а если взять подороже, что получится?", "ну а если раскошелиться, что будет дороже"],
)
def test_a_step_asked_as_what_would_follow_is_a_request(text: str) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.dearer


async def test_a_slang_verb_is_no_wine_name_heard_by_ear(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(473, "красное сухое до 1000")
        then = await chat.turns.answer(473, "а если задонатить побольше, что будет дороже")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.red for w in shown)
    assert min(w.price_rub for w in shown) > max(w.price_rub for w in before)


async def test_dearer_than_the_dearest_for_the_dish_gives_the_dish_up_and_says_so(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(474, "игристое брют к закускам")
        then = await chat.turns.answer(474, "а подороже?")
        last = await chat.turns.answer(474, "а ещё дороже можно?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    again = await rows_shown(seeded, last)
    assert before and shown
    assert all(w.wine_type is WineType.sparkling for w in shown)
    assert min(w.price_rub for w in shown) > max(w.price_rub for w in before)
    assert "блюдо" in (then.intro or "")
    # nothing dearer still: the dearest of the style again, not picks of any kind
    assert again and all(w.wine_type is WineType.sparkling for w in again)
    assert max(w.price_rub for w in again) == max(w.price_rub for w in shown)


async def test_not_brut_keeps_the_sparkling_and_leaves_the_dryness(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(475, "игристое на праздник")
        then = await chat.turns.answer(475, "только не брют, что-нибудь послаще")
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.sparkling for w in shown)
    assert all(w.sweetness.value != "dry" for w in shown)


async def test_a_sweetness_given_up_for_another_keeps_the_other(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(476, "белое сухое к рыбе")
        then = await chat.turns.answer(476, "можно и не сухое, лучше полусладкое")
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.sweetness.value == "semi_sweet" for w in shown)


@pytest.mark.parametrize("text", ["а белого полусладкого нет?", "испанского красного совсем нет?"])
def test_a_wine_asked_for_by_its_absence_is_a_request(text: str) -> None:
    assert read(text).is_request


@pytest.mark.parametrize("text", ["осадка в вине нет?", "в брюте сахара нет?"])
def test_an_absence_in_a_wine_is_a_question(text: str) -> None:
    assert not read(text).is_request
