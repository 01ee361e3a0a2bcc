"""The merged taste is kept with the person (migration 0018): people who had votes or quiz
answers before it get their merge by the same rule, so their next turn reads the same taste."""

from __future__ import annotations

import json

from sqlalchemy import text

from core.settings import Settings
from core.taste import taste_profile
from repositories.migrations import migrate
from services.app.runtime import open_runtime

SCRATCH = "sommelier_taste_kept"
VOTES = {"styles": {"white:dry": 2}, "grapes": {"рислинг": 1}, "votes": 2}
QUIZ = {"colour": "red", "sweetness": "dry", "budget": 2000}


async def test_people_from_before_the_kept_taste_get_it_by_the_same_rule(
    settings: Settings,
) -> None:
    async with open_runtime(settings, database=SCRATCH) as rt:
        async with rt.engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
        await migrate(rt.maintenance, "0017", settings.embedding_dim)
        async with rt.engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO users (id, taste_profile) VALUES "
                    "(1, CAST(:votes AS jsonb)), (2, '{}'), (3, CAST(:votes AS jsonb)), (4, '{}')"
                ),
                {"votes": json.dumps(VOTES, ensure_ascii=False)},
            )
            await conn.execute(
                text(
                    "INSERT INTO quiz_answers (user_id, answers) VALUES "
                    "(1, CAST(:quiz AS jsonb)), (2, CAST(:quiz AS jsonb))"
                ),
                {"quiz": json.dumps(QUIZ)},
            )
        await migrate(rt.maintenance, "head", settings.embedding_dim)
        async with rt.engine.connect() as conn:
            kept = dict((await conn.execute(text("SELECT id, taste FROM users ORDER BY id"))).all())
    assert kept == {
        1: taste_profile(VOTES, QUIZ),  # votes and quiz
        2: taste_profile({}, QUIZ),  # the quiz alone
        3: VOTES,  # votes alone
        4: {},  # nothing yet
    }
    assert kept[1]["styles"] == {"white:dry": 2, "red:dry": 2} and kept[1]["budget"] == 2000
