"""Everything else: unknown commands and messages that are not text."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import Message

from bot.texts import T

router = Router(name="fallback")


@router.message(F.text.startswith("/"))
async def unknown_command(message: Message) -> None:
    await message.answer(T.unknown_command)


@router.message()
async def not_text(message: Message) -> None:
    await message.answer(T.only_text)
