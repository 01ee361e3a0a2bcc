"""Every command runs on uvloop unless EVENT_LOOP=asyncio asks for the standard loop."""

from __future__ import annotations

import asyncio

import pytest

from core.errors import SettingsError
from core.settings import Settings
from sommelier import event_loop


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_commands_run_on_uvloop_by_default() -> None:
    assert Settings().event_loop == "auto"
    assert event_loop.run(_loop_module(), "auto").startswith("uvloop")
    assert event_loop.run(_loop_module(), "uvloop").startswith("uvloop")


def test_event_loop_asyncio_keeps_the_standard_loop() -> None:
    assert event_loop.run(_loop_module(), "asyncio").startswith("asyncio")


def test_asking_for_uvloop_where_it_is_missing_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop now raises ImportError
    with pytest.raises(SettingsError, match="uvloop is not installed"):
        event_loop.run(_loop_module(), "uvloop")
    assert event_loop.run(_loop_module(), "auto").startswith("asyncio")
