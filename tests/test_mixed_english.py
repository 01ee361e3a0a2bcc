"""English words of a mixed message («doesn't matter», «something special for tonight») are
not heard as a wine's name by their sound («matter» — Mateus); the name itself still is.
Wordings of our own."""

from __future__ import annotations

from core.domain import WineType
from services.app.runtime import Runtime
from tests.test_conversation import _ask, offline_chat


async def test_english_filler_names_no_wine(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        await _ask(chat, 4901, "белое сухое до 2000")
        second = await _ask(chat, 4901, "the region doesn't matter, something special for tonight")
    assert second.wines
    assert {w.wine_type for w in second.wines} == {WineType.white}
    assert all("Mateus" not in w.name for w in second.wines)


async def test_the_name_itself_is_still_heard(seeded: Runtime) -> None:
    async with offline_chat(seeded) as chat:
        rec = await _ask(chat, 4902, "матеуш розовое есть?")
    assert [w.name for w in rec.wines] == ["Mateus Rosé"]
