"""Magic filters (`F.text`, `F.photo`, ...) checked in the event loop.

aiogram runs every plain callable filter in a worker thread (`asyncio.to_thread`), and a magic
filter's `resolve` is a plain callable: a private text message passed through about seven
thread hops before its handler ran. `InLoop(F.text)` is the same check as an awaitable
`Filter`, which aiogram awaits in place. The dispatcher test keeps every filter awaitable.
"""

from __future__ import annotations

from typing import Any

from aiogram.filters import Filter
from aiogram.types import TelegramObject
from magic_filter import MagicFilter


class InLoop(Filter):
    def __init__(self, magic: MagicFilter) -> None:
        self.magic = magic

    async def __call__(self, event: TelegramObject) -> Any:
        # The resolved value, as aiogram's own magic-filter check returns it: truthiness
        # decides, and a dict (from `.as_(...)`) is passed on to the handler.
        return self.magic.resolve(event)

    def __str__(self) -> str:
        return f"InLoop({self.magic!r})"
