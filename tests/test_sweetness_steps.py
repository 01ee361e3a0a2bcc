"""«Посуше» and «послаще» move past the wines shown to whatever sweetness lies that way, not one
notch only, and a dessert wine's kind gives way when a drier one is asked for (issue 40)."""

from __future__ import annotations

from core.domain import Sweetness
from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_chat

_ORDER = [s.value for s in Sweetness]  # from the driest


async def test_sweeter_skips_a_level_the_catalog_lacks_and_keeps_colour_and_dish(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(461, "красное сухое к шашлыку")
        then = await chat.turns.answer(461, "а можно чуть послаще?")
    shown = await rows_shown(seeded, then)
    assert first.wines and shown
    assert {str(w.id) for w in first.wines}.isdisjoint(str(w.id) for w in shown)
    for wine in shown:
        assert wine.wine_type.value == "red"
        assert _ORDER.index(wine.sweetness.value) > _ORDER.index("dry")
        assert any("шашлык" in p for p in wine.food_pairings)


async def test_drier_than_a_dessert_wine_leaves_the_dessert_kind_behind(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(462, "десертное сладкое к фуа-гра")
        then = await chat.turns.answer(462, "слишком приторно, есть что-то посуше?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and all(w.sweetness.value == "sweet" for w in before)
    assert shown and all(w.sweetness.value != "sweet" for w in shown)


async def test_a_level_named_with_the_step_is_the_one_asked_when_it_lies_that_way(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(463, "сухой рислинг посоветуй")
        asked = await chat.turns.answer(463, "а послаще, полусладкий есть?")
        await chat.turns.answer(464, "игристое брют к устрицам")
        moved = await chat.turns.answer(464, "брют для меня кисловат, есть слаще?")
    wanted = await rows_shown(seeded, asked)
    assert wanted and all(w.sweetness.value == "semi_sweet" for w in wanted)
    assert all("рислинг" in w.grape_varieties for w in wanted)
    sweeter = await rows_shown(seeded, moved)
    assert sweeter and all(w.sweetness.value != "dry" for w in sweeter)


async def test_one_trait_said_alone_changes_the_request_instead_of_starting_over(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        await chat.turns.answer(465, "рислинг с лёгкой сладостью")
        rec = await chat.turns.answer(465, "мне всё-таки сухой")
    shown = await rows_shown(seeded, rec)
    assert shown and all(w.sweetness.value == "dry" for w in shown)
    assert all("рислинг" in w.grape_varieties for w in shown)


def test_sweetness_said_in_everyday_words_is_read() -> None:
    said = {
        "белое без сахара к рыбе": "dry",
        "что-нибудь средне-сухое": "semi_dry",
        "семисвит розовое на вечер": "semi_sweet",
        "а с сахарком что-нибудь?": "semi_sweet",
        "красное средне сладкое": "semi_sweet",
    }
    read_as = {text: read(text).query.filters.sweetness for text in said}
    assert read_as == {text: Sweetness(level) for text, level in said.items()}
