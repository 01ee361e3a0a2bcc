"""Live drafts in a private chat (sendMessageDraft): status lines, then the intro as it streams."""

from __future__ import annotations

import asyncio

from fakes.openai_server import Step, call, responder, stream_paused, tool_calls
from fakes.telegram_server import SentCall
from services.app.runtime import Runtime
from tests.agent_fixtures import formatted
from tests.bot_harness import running_bot
from tests.bot_helpers import (
    JSONDict,
    adult,
    cards,
    current_tool_wines,
    fake_llm,
    llm_settings,
    messages,
    why_text,
)

CHAT = 617001
QUESTION = "Красное сухое к утке до 3000"
SEARCH = {"wine_type": "red", "sweetness": "dry", "price_max": 3000}
INTRO = (
    "К утке с вишневым соусом нужны красные с живой кислотностью и мягкими танинами, "
    "поэтому я выбрал три бутылки из каталога, каждая по-своему хороша к этому блюду."
)
FIRST_WORDS = "К утке с вишневым соусом"


def drafts(calls: list[SentCall]) -> list[str]:
    return [c.text or "" for c in calls if c.method == "sendMessageDraft" and c.chat_id == CHAT]


async def test_the_draft_shows_the_intro_as_it_streams_without_markers(seeded: Runtime) -> None:
    resume = asyncio.Event()
    written: list[str] = []

    def model(body: JSONDict) -> Step:
        wines = current_tool_wines(body)
        if not wines:
            return tool_calls(call("search_wines", SEARCH))
        answer = formatted([(w["id"], why_text(w)) for w in wines[:3]], INTRO, "Приятного!")
        written.append(answer)
        # The stream stops just after the start of the first wine's marker: «…блюду.\n[WI».
        return stream_paused(answer, answer.index("[WINE") + 3, resume)

    async with fake_llm() as llm:
        llm.script(responder(model), responder(model))
        async with running_bot(seeded, **{**llm_settings(llm), "llm_timeout_seconds": 30}) as h:
            await adult(h, CHAT)
            await h.say(CHAT, QUESTION)
            # While the answer is still being written, the draft shows its intro.
            await h.tg.wait_for(lambda calls: any(FIRST_WORDS in d for d in drafts(calls)), 30)
            assert messages(h.tg.sent(chat_id=CHAT)) == []  # nothing final yet
            resume.set()
            await h.wait_messages(CHAT, 5, timeout=30)
            await h.idle()
            sent = messages(h.tg.sent(chat_id=CHAT))
    shown = drafts(h.tg.sent())
    assert shown[0].startswith("Ищу красные сухие до 3 000 ₽")  # the status line first
    intro_drafts = [d for d in shown if FIRST_WORDS in d]
    assert intro_drafts
    for draft in intro_drafts:
        assert INTRO.startswith(draft)  # the intro's words only: no marker, nothing after it
    assert not [d for d in shown if "[" in d or "WINE" in d or "INTRO" in d]
    assert written and INTRO in (sent[0].visible_text or "")
    assert len(cards(sent)) == 3
    assert llm.errors == []
