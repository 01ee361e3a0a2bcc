"""/help."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.texts import T

router = Router(name="help")


@router.message(Command("help"))
async def help_command(message: Message) -> None:
    await message.answer(T.help)
