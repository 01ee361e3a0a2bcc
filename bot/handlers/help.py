"""/help."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from services.app.texts import T


async def help_command(message: Message) -> None:
    await message.answer(T.help)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="help")
    router.message.register(help_command, Command("help"))
    return router
