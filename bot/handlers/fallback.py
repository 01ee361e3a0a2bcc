"""Everything else: unknown commands and messages that are not text."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import Message

from bot.filters import InLoop
from services.app.texts import T


async def unknown_command(message: Message) -> None:
    await message.answer(T.unknown_command)


async def not_text(message: Message) -> None:
    await message.answer(T.only_text)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="fallback")
    router.message.register(unknown_command, InLoop(F.text.startswith("/")))
    router.message.register(not_text)
    return router
