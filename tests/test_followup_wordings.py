"""Follow-ups said in the customer's own words keep the conversation going: indifference to
the place («без разницы откуда») gives the place up instead of reading as a question; «не
шампанское» after sparkling rules out Champagne, not sparkling wine."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.kinds import MessageKind
from core.language.negation import negated_filters
from core.language.reading import read
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    "text",
    [
        "без разницы откуда, главное подешевле",
        "всё равно откуда, лишь бы дешевле",
        "неважно, откуда оно, подешевле бы",
    ],
)
def test_indifference_to_the_place_is_a_cheaper_request_from_anywhere(text: str) -> None:
    reading = read(text)
    assert reading.message.kind is MessageKind.request
    assert reading.followup.cheaper
    assert "country" in reading.followup.dropped


def test_a_real_question_about_a_difference_stays_a_question() -> None:
    assert read("в чём разница между брютом и экстра брютом?").message.kind is (
        MessageKind.wine_question
    )


async def test_cheaper_from_anywhere_leaves_the_country_behind(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4101, "французское белое")
        second = await _ask(chat, 4101, "без разницы откуда, главное подешевле")
    assert first.wines and second.wines
    assert {w.country for w in first.wines} == {"Франция"}
    assert max(w.price_rub for w in second.wines) < min(w.price_rub for w in first.wines)
    assert {w.country for w in second.wines} != {"Франция"}


def test_a_style_named_after_its_place_rules_the_place_out_too() -> None:
    assert negated_filters("и не шампанское, дорого").get("region") == "Шампань"
    assert negated_filters("только не бордоское").get("region") == "Бордо"
    assert "region" not in negated_filters("только не красное")


async def test_not_champagne_after_sparkling_keeps_sparkling(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await _ask(chat, 4102, "игристое брют")
        second = await _ask(chat, 4102, "только не шампанское, оно дорогое")
    assert second.wines
    assert {w.wine_type for w in second.wines} == {WineType.sparkling}
    assert all(w.region != "Шампань" for w in second.wines)


@pytest.mark.parametrize("text", ["а что-то менее сладкое?", "not so sweet", "не такое сладкое"])
def test_less_sweet_is_a_step_drier_not_a_sweet_wine_asked(text: str) -> None:
    reading = read(text)
    assert reading.followup.drier
    assert reading.query.filters.sweetness is None


async def test_less_sweet_after_semi_sweet_shows_drier_wines(seeded: Runtime) -> None:
    order = ["dry", "semi_dry", "semi_sweet", "sweet"]
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4103, "полусладкое красное")
        second = await _ask(chat, 4103, "а что-то менее сладкое?")
    assert first.wines and second.wines
    sweetest_before = max(order.index(w.sweetness) for w in first.wines)
    assert all(order.index(w.sweetness) < sweetest_before for w in second.wines)
