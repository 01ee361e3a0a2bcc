"""Every filter and handler the dispatcher holds runs in the event loop, not in a thread.

aiogram hands any plain callable (a bare `F.text` among them) to `asyncio.to_thread`: a thread
hop per filter per update, which the bot paid about eight times for every question
(bot/filters.py). A filter added without `InLoop` fails here, naming the router.
"""

from __future__ import annotations

from collections.abc import Iterator

from aiogram import Router
from aiogram.dispatcher.event.handler import CallableObject

from bot.coordination import Coordinator
from bot.factory import create_dispatcher
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.conftest import make_settings
from tests.serving import with_settings


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


async def test_no_filter_or_handler_runs_in_a_worker_thread(runtime: Runtime) -> None:
    settings = make_settings(admin_ids="1")
    services = build_services(with_settings(runtime, settings))
    try:
        dp, _ = create_dispatcher(settings, services, Coordinator(services.ledger))
        found = list(_callables(dp))
    finally:
        await services.close()
    in_threads = [where for where, obj in found if not obj.awaitable]
    assert len(found) > 40  # the walk reached the routers' handlers and filters
    assert in_threads == []
