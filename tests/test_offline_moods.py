"""Without an LLM, a request that names no colour, grape, dish or budget is decided by its
words (the full-text index) before any generic picks."""

from __future__ import annotations

import pytest

from core.recommendation import Recommendation
from services.agent._run import UserContext
from services.app.runtime import Runtime
from tests.agent_fixtures import agent_settings, sommelier_service, wines_by_id

MOODS = [
    "вино с ягодными нотами",
    "что-то освежающее на лето",
    "вино с нотами вишни и табака",
    "хочу что-то пряное и согревающее",
    "что-то минеральное и свежее",
]


async def _ask(runtime: Runtime, text: str) -> Recommendation:
    async with sommelier_service(runtime, agent_settings(None, llm_api_key=None)) as service:
        return await service.generate_response(UserContext(), text)


@pytest.mark.parametrize("text", ["вино с ягодными нотами", "хочется вина с ягодными нотками"])
async def test_berry_notes_find_wines_whose_notes_mention_berries(
    seeded: Runtime, text: str
) -> None:
    rec = await _ask(seeded, text)
    assert rec.path == "offline" and len(rec.wines) == 3
    rows = await wines_by_id(seeded, [w.id for w in rec.wines])
    for wine in rows.values():
        assert "ягод" in f"{wine.description} {wine.tasting_notes}".lower(), wine.name


async def test_different_moods_get_different_picks(seeded: Runtime) -> None:
    picks = [frozenset(w.id for w in (await _ask(seeded, mood)).wines) for mood in MOODS]
    assert all(len(p) == 3 for p in picks)
    assert len(set(picks)) >= 4
