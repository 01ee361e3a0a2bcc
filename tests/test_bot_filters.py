"""Every filter and handler the dispatcher holds runs in the event loop, not in a thread.

aiogram hands any plain callable (a bare `F.text` among them) to `asyncio.to_thread`: a thread
hop per filter per update, which the bot paid about eight times for every question
(bot/filters.py). A filter added without `InLoop` fails here, naming the router.
"""

from __future__ import annotations

from collections.abc import Iterator

from aiogram import Router
from aiogram.dispatcher.event.handler import CallableObject

from services.app.runtime import Runtime
from tests.bot_harness import running_bot
from tests.bot_helpers import adult, is_card, messages

CHAT = 919377


def _callables(router: Router) -> Iterator[tuple[str, CallableObject]]:
    for event, observer in router.observers.items():
        where = f"{router.name}.{event}"
        for flt in observer._handler.filters or ():
            yield f"{where} router filter {flt.callback!r}", flt
        for handler in observer.handlers:
            yield f"{where} handler {handler.callback!r}", handler
            for flt in handler.filters or ():
                yield f"{where} filter {flt.callback!r}", flt
    for sub in router.sub_routers:
        yield from _callables(sub)


async def test_no_filter_or_handler_runs_in_a_worker_thread(seeded: Runtime) -> None:
    async with running_bot(seeded) as h:
        found = list(_callables(h.dp))
        in_threads = [where for where, obj in found if not obj.awaitable]
        await adult(h, CHAT)
        await h.say(CHAT, "красное сухое к стейку до 2000")
        await h.wait_messages(CHAT, 5)
        await h.idle()
        cards = [m for m in messages(h.tg.sent(chat_id=CHAT)) if is_card(m)]
    assert len(found) > 40  # the walk reached the routers' handlers and filters
    assert in_threads == []
    assert len(cards) == 3  # and a question still reaches its handler through them
