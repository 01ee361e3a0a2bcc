"""A message about the wines just shown — the difference between them, what to cook for them,
the first of them — is answered with those wines again, not with new picks or nothing; a
message that names a new condition is read as the request it is."""

from __future__ import annotations

import pytest

from core.language.about_shown import points_at_shown
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


@pytest.mark.parametrize(
    ("text", "pick"),
    [
        ("а в чём между ними разница?", 0),
        ("чем эти два отличаются друг от друга?", 0),
        ("что к ним подать на ужин?", 0),
        ("беру обе. что приготовить?", 0),
        ("how do these differ?", 0),
        ("which of them would you pick?", 0),
        ("второе звучит неплохо, к чему его подать?", 2),
        ("the last one sounds nice, what does it go with?", -1),
        ("второе какое по крепости?", 2),
        ("а у третьего какой урожай?", 3),
        ("первое откуда вообще?", 1),
        ("красное к стейку до 2000", None),
        ("второе место на конкурсе", None),
        ("они у меня любят сухое", None),
    ],
)
def test_what_points_at_the_wines_shown(text: str, pick: int | None) -> None:
    assert points_at_shown(text) == pick


async def test_a_question_about_the_wines_shown_shows_them_again(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 301, "белое сухое к рыбе до 3000")
        differ = await _ask(chat, 301, "а в чём между ними разница?")
        cook = await _ask(chat, 301, "что к ним подать на ужин?")
    shown = {w.id for w in first.wines}
    assert len(shown) >= 2
    assert {w.id for w in differ.wines} == shown
    assert {w.id for w in cook.wines} == shown


async def test_the_nth_wine_shown_is_that_wine(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 302, "красное к стейку до 3000")
        second = await _ask(chat, 302, "второе звучит неплохо, к чему его подать?")
    assert len(first.wines) >= 2
    assert [w.id for w in second.wines] == [first.wines[1].id]


async def test_a_new_condition_about_them_is_a_request(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        first = await _ask(chat, 303, "красное к стейку до 3000")
        white = await _ask(chat, 303, "а к ним есть что-то белое?")
    assert white.wines and all(w.wine_type == "white" for w in white.wines)
    assert not {w.id for w in first.wines} & {w.id for w in white.wines}


async def test_the_nth_wine_of_the_last_list_after_one_was_shown(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        listed = await _ask(chat, 304, "красное к стейку до 3000")
        first = await _ask(chat, 304, "первое откуда вообще?")
        third = await _ask(chat, 304, "а третье из какой страны?")
    assert len(listed.wines) == 3
    assert [w.id for w in first.wines] == [listed.wines[0].id]
    assert [w.id for w in third.wines] == [listed.wines[2].id]
