"""A web chat visitor who also uses the bot: «Связать с Telegram» shows a one-time code, `/link
CODE` in the bot moves the visitor's votes, favourites, quiz answers and conversations onto the
Telegram user, and the web chat goes on as that user."""

from __future__ import annotations

import re

from sqlalchemy import text

from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, ask, feedback_rows, user_row
from tests.web_chat_harness import final_of, serving_chat, visitor

CHAT = 929001


async def test_link_moves_the_visitors_taste_to_the_telegram_user(seeded: Runtime) -> None:
    async with serving_chat(seeded) as site, visitor(site.base) as v, running_bot(seeded) as h:
        await v.open()
        await v.confirm_age()
        assert (await v.post("link"))[1]["code"]  # a code is made for a visitor…
        wines = [w["id"] for w in final_of(await v.ask("красное к стейку"))["wines"]]
        await v.post("vote", {"wine_id": wines[0], "vote": 1})
        await v.post("favourite", {"wine_id": wines[1]})
        async with seeded.sessions() as s:
            visitor_id = await s.scalar(text("SELECT user_id FROM visitors"))
        await site.services.quiz.answer(visitor_id, "colour", "white")
        await site.services.quiz.answer(visitor_id, "sweetness", "dry")
        status, made = await v.post("link")  # …and a new one replaces it
        assert status == 200 and made["minutes"] == 15
        code = made["code"]
        assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)

        await adult(h, CHAT)
        await site.services.quiz.answer(CHAT, "colour", "red")
        await site.services.quiz.answer(CHAT, "budget", "2000")
        assert (await ask(h, CHAT, "/link"))[0].visible_text == T.link_usage
        assert (await ask(h, CHAT, "/link AAAA-2222"))[0].visible_text == T.link_unknown
        assert (await ask(h, CHAT, f"/link {code.lower()}"))[0].visible_text == T.link_done
        # Once only.
        assert (await ask(h, CHAT, f"/link {code}"))[0].visible_text == T.link_unknown

        assert [vote for _, vote in await feedback_rows(seeded, CHAT)] == [1]
        assert await site.services.favourites.contains(CHAT, wines[1])
        # The quiz: the visitor's answers fill the gaps, the person's own answers in Telegram win.
        quiz = await site.services.quiz.answers(CHAT)
        assert quiz == {"colour": "red", "sweetness": "dry", "budget": 2000}
        row = await user_row(seeded, CHAT)
        assert row is not None and row.taste_profile.get("votes") == 2
        assert await user_row(seeded, visitor_id) is None
        async with seeded.sessions() as s:
            moved = await s.scalar(
                text("SELECT count(*) FROM conversations WHERE user_id = :u"), {"u": CHAT}
            )
            assert moved == 1

        # The web chat is now the Telegram user: their answers, nothing more to link.
        assert (await v.post("link"))[1] == {"linked": True}
        final_of(await v.ask("белое к рыбе"))
        async with seeded.sessions() as s:
            owners = (await s.scalars(text("SELECT DISTINCT user_id FROM conversations"))).all()
        assert owners == [CHAT]


async def test_an_expired_code_links_nothing(seeded: Runtime) -> None:
    async with serving_chat(seeded) as site, visitor(site.base) as v:
        await v.open()
        await v.confirm_age()
        code = (await v.post("link"))[1]["code"]
        async with seeded.sessions() as s:
            await s.execute(text("UPDATE visitors SET link_expires_at = now() - interval '1 s'"))
            await s.commit()
        result = await site.services.visitors.link(code, CHAT)
        assert not result.linked and result.reason == "unknown"
