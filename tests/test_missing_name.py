"""A wine asked for by a name the catalog does not have is said to be missing before anything
else is offered (issue 40: «привет» or a name must never pass for what was found)."""

from __future__ import annotations

from services.app.runtime import Runtime
from tests.test_conversation import offline_chat


async def test_a_name_the_shop_lacks_is_said_to_be_missing(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        missing = await chat.turns.answer(495, "а Opus One у вас есть?")
        present = await chat.turns.answer(496, "а Sassicaia у вас есть?")
        english = await chat.turns.answer(497, "Hello! Red wine for a steak, please")
        aside = await chat.turns.answer(498, "посоветуй красное для Instagram поста")
    assert missing.intro.startswith("Такого вина в каталоге нет.") and missing.wines
    assert "Opus" not in missing.intro  # the person's words are not repeated back
    assert "в каталоге нет" not in present.intro
    assert [w.name for w in present.wines] == ["Sassicaia"]
    assert "в каталоге нет" not in english.intro and english.wines
    assert "в каталоге нет" not in aside.intro and aside.wines  # a Latin word, not a wine asked
