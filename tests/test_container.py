"""Every application service is built once, by the container, and no adapter builds its own.

The constructions of every class the application layer defines (and of the clients and agent
the container wires in) are counted: building the container makes each service exactly once;
then building every adapter on it — the bot's dispatcher and worker, the HTTP API, the web chat
and console, and the terminal's command — makes none.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import pkgutil
from collections import Counter
from collections.abc import Iterator
from typing import Any, Protocol

import pytest
from pydantic import BaseModel

import services.app
import services.llm
from bot.factory import create_bot
from bot.runner import create_worker
from services.agent import SommelierService, WelcomeWriter
from services.app.container import Services, build_services
from services.app.database import DatabaseSessions
from services.app.runtime import Runtime
from sommelier import terminal
from sommelier.serve import build_served_app
from tests.conftest import make_settings
from tests.serving import with_settings

#: Not services: each `Database` opens the database four ways, one `DatabaseSessions` each.
PARTS_OF_A_SERVICE = {DatabaseSessions: 3}  # sessions, single, statements


def _modules(package: Any) -> Iterator[Any]:
    yield package
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        yield importlib.import_module(info.name)


def _counted_classes() -> list[type]:
    found: list[type] = [SommelierService, WelcomeWriter]
    for package in (services.app, services.llm):
        for module in _modules(package):
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ != module.__name__ or cls in found:
                    continue
                if issubclass(cls, enum.Enum | BaseException | BaseModel | tuple | dict):
                    continue
                if Protocol in cls.__mro__ or getattr(cls, "_is_protocol", False):
                    continue
                found.append(cls)
    return found


@pytest.fixture
def constructions(monkeypatch: pytest.MonkeyPatch) -> Counter[type]:
    """How many instances of each counted class were made (a subclass's own count only)."""
    made: Counter[type] = Counter()
    for cls in _counted_classes():
        original = cls.__init__

        def counting(
            self: Any, *args: Any, _cls: type = cls, _init: Any = original, **kw: Any
        ) -> None:
            if type(self) is _cls:
                made[_cls] += 1
            _init(self, *args, **kw)

        monkeypatch.setattr(cls, "__init__", counting)
    return made


async def test_each_service_is_built_once_and_no_adapter_builds_one(
    runtime: Runtime, constructions: Counter[type]
) -> None:
    settings = make_settings(
        telegram_bot_token="123456:TEST-token", admin_ids="1", public_url="https://bot.example"
    )
    rt = with_settings(runtime, settings)

    constructions.clear()
    services = build_services(rt)
    built = dict(constructions)
    members = {type(getattr(services, f.name)) for f in dataclasses.fields(Services)}
    for cls in members & set(_counted_classes()):
        assert built.get(cls) == 1, f"{cls.__name__} built {built.get(cls, 0)} times"
    twice = {cls.__name__: n for cls, n in built.items() if n != PARTS_OF_A_SERVICE.get(cls, 1)}
    assert twice == {}, "the container builds these more than once"
    assert len(built) >= 25  # the walk found the services

    constructions.clear()
    bot = create_bot(settings)
    try:
        create_worker(bot, settings, services)  # the bot: its dispatcher, handlers and worker
        build_served_app(settings, services)  # the HTTP API, the web chat and the console
    finally:
        await bot.session.close()
        await services.close()
    by_adapters = {cls.__name__: n for cls, n in constructions.items()}
    assert by_adapters == {}, "an adapter builds services of its own"

    constructions.clear()
    assert await terminal.ask(rt, "", False, None) == 2  # refused before any answer
    by_terminal = {cls: n for cls, n in constructions.items() if cls in built}
    assert by_terminal == built, "the terminal builds services beside its container"
    values = [cls for cls in constructions if cls not in built]
    assert all(dataclasses.is_dataclass(cls) for cls in values), values  # an Admission
