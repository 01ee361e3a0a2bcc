"""A condition given up by what it is about («пофиг на цвет», «регион любой», «price doesn't
matter», «any country») gives way; «любое красное» gives nothing up. Wordings of our own."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.giving_up import dropped_conditions
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    ("text", "given_up"),
    [
        ("пофиг на цвет, лишь бы к сыру", {"wine_type"}),
        ("страна любая, но до 2000", {"country", "region"}),
        ("сладость без разницы", {"sweetness"}),
        ("price doesn't matter to me", {"price_min", "price_max"}),
        ("any country is fine", {"country", "region"}),
        ("сорт не важен", {"grape_variety"}),
    ],
)
def test_a_condition_named_by_what_it_is_about_gives_way(text: str, given_up: set[str]) -> None:
    assert given_up <= set(dropped_conditions(text))


@pytest.mark.parametrize("text", ["любое красное до 2000", "any red under 2000", "важный ужин"])
def test_any_wine_of_a_kind_gives_nothing_up(text: str) -> None:
    assert dropped_conditions(text) == ()


async def test_the_country_given_up_keeps_the_rest(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4701, "испанское красное до 1600")
        second = await _ask(chat, 4701, "пофиг на страну, ещё варианты до 1600")
    assert first.wines and second.wines
    assert {w.wine_type for w in second.wines} == {WineType.red}
    assert all(w.price_rub <= 1600 for w in second.wines)
    assert {w.country for w in second.wines} != {"Испания"}
