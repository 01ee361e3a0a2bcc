"""The meal or the occasion told mid-conversation («у нас на ужин будет плов», «будем жарить
рыбу», «это маме на юбилей») adds to the request in force instead of starting a new one; a
message that names a style of wine as well is a request of its own. Wordings of our own."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.followups import is_new_request, word_count
from core.language.reading import read
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    "text",
    [
        "у нас на ужин будет плов",
        "будем жарить рыбу на гриле",
        "это маме на юбилей",
        "готовлю курицу с грибами",
        "we're having grilled salmon",
    ],
)
def test_the_meal_told_refines(text: str) -> None:
    reading = read(text)
    assert reading.followup.refines
    assert not is_new_request(reading.query.filters, reading.followup, word_count(reading.proper))


def test_a_style_named_with_the_meal_is_a_request_of_its_own() -> None:
    reading = read("у нас будет рыба, посоветуйте белое сухое")
    assert not reading.followup.refines


async def test_the_meal_told_keeps_colour_and_country(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await _ask(chat, 4501, "итальянское красное")
        second = await _ask(chat, 4501, "у нас на ужин будет пицца")
    assert second.wines
    for wine in second.wines:
        assert wine.wine_type is WineType.red and wine.country == "Италия"
