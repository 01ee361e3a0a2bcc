"""«Второе подробнее», «первое что за вино?», «tell me about the last one»: asking what one of
the wines shown is like answers with that wine; a wine or a place named is not one shown.
Wordings of our own."""

from __future__ import annotations

import pytest

from core.language.about_shown import points_at_shown
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    ("text", "pick"),
    [
        ("третье поподробнее, пожалуйста", 3),
        ("а первое что за вино такое?", 1),
        ("опиши второе", 2),
        ("какое последнее на вкус?", -1),
        ("tell me more about the first one", 1),
        ("расскажи подробнее про Тоскану", None),
        ("что за вино рислинг?", None),
    ],
)
def test_asking_what_a_shown_wine_is_like_points_at_it(text: str, pick: int | None) -> None:
    assert points_at_shown(text) == pick


async def test_the_wine_asked_about_is_the_one_shown_there(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 4801, "белое к курице")
        second = await _ask(chat, 4801, "второе поподробнее, пожалуйста")
    assert len(first.wines) >= 2
    assert [w.id for w in second.wines] == [first.wines[1].id]
