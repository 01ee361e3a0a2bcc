"""The console's per-day rollups against the facts they summarise: people of a period from
HyperLogLog registers, latency percentiles from the histogram, and /forget's days recomputed."""

from __future__ import annotations

import random

from sqlalchemy import text

from services.app.console.reports import ConsoleService, window
from services.app.database import Database
from services.app.facts.recorder import person_hash
from services.app.runtime import Runtime
from tests.conftest import make_settings

PEOPLE = 3000


async def _fill(runtime: Runtime, people: int, latencies: list[int]) -> None:
    async with runtime.engine.begin() as conn:
        for i, latency in enumerate(latencies):
            user = 1_000_000 + i % people
            await conn.execute(
                text(
                    "INSERT INTO answer_facts (id, user_id, person, path, match, latency_ms) "
                    "VALUES (gen_random_uuid(), :u, :p, :path, 'free', :l)"
                ),
                {"u": user, "p": person_hash("k", user), "path": "agent", "l": latency},
            )


async def test_people_and_latency_come_back_from_the_rollups(clean_db: Runtime) -> None:
    rng = random.Random(7)
    latencies = [int(rng.lognormvariate(7.5, 0.6)) for _ in range(PEOPLE * 2)]
    await _fill(clean_db, PEOPLE, latencies)
    console = ConsoleService(Database(clean_db.sessions), make_settings())
    data = await console.overview(window(7))
    assert data["answers"] == PEOPLE * 2
    assert data["series"][-1]["people"] == PEOPLE  # a day's people: exact
    assert abs(data["people"] - PEOPLE) <= PEOPLE * 0.15  # a period's: the estimate
    ordered = sorted(latencies)
    for key, fraction in (("p50", 0.5), ("p95", 0.95)):
        true = ordered[int(fraction * len(ordered)) - 1]
        assert true <= data[key] <= true * 1.15 + 1, (key, true, data[key])


async def test_a_few_people_are_counted_exactly_and_forget_recomputes_the_day(
    clean_db: Runtime,
) -> None:
    await _fill(clean_db, 3, [500] * 6)
    console = ConsoleService(Database(clean_db.sessions), make_settings())
    assert (await console.overview(window(30)))["people"] == 3
    async with clean_db.sessions() as s:  # what /forget does before deleting the facts
        from repositories.fact_rollup import forget_days

        await forget_days(s, 1_000_000)
        await s.execute(text("DELETE FROM answer_facts WHERE user_id = 1000000"))
        await s.commit()
    data = await console.overview(window(30))
    assert data["people"] == 2 and data["answers"] == 4
