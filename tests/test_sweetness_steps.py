"""«Посуше» and «послаще» move past the wines shown to whatever sweetness lies that way, not one
notch only, and a dessert wine's kind gives way when a drier one is asked for (issue 40)."""

from __future__ import annotations

from core.domain import Sweetness
from services.app.runtime import Runtime
from tests.agent_fixtures import wines_by_id
from tests.test_conversation import offline_chat

_ORDER = [s.value for s in Sweetness]  # from the driest


async def test_sweeter_skips_a_level_the_catalog_lacks_and_keeps_colour_and_dish(
    seeded: Runtime,
) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(461, "красное сухое к шашлыку")
        then = await chat.turns.answer(461, "а можно чуть послаще?")
    shown = await wines_by_id(seeded, [w.id for w in then.wines])
    assert first.wines and shown
    assert {w.id for w in first.wines}.isdisjoint(shown)
    for wine in shown.values():
        assert wine.wine_type.value == "red"
        assert _ORDER.index(wine.sweetness.value) > _ORDER.index("dry")
        assert any("шашлык" in p for p in wine.food_pairings)


async def test_drier_than_a_dessert_wine_leaves_the_dessert_kind_behind(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await chat.turns.answer(462, "десертное сладкое к фуа-гра")
        then = await chat.turns.answer(462, "слишком приторно, есть что-то посуше?")
    before = await wines_by_id(seeded, [w.id for w in first.wines])
    shown = await wines_by_id(seeded, [w.id for w in then.wines])
    assert before and all(w.sweetness.value == "sweet" for w in before.values())
    assert shown and all(w.sweetness.value != "sweet" for w in shown.values())
