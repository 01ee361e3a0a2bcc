"""Free text → the sommelier → intro, one card per wine, closing. And /new."""

from __future__ import annotations

import json
import logging
import time

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import Message
from aiogram.utils.chat_action import ChatActionSender

from bot.delivery import send_recommendation
from bot.texts import T
from services.chat_service import ChatService
from sommelier.settings import Settings

log = logging.getLogger("sommelier.answers")
router = Router(name="conversation")


@router.message(Command("new"))
async def new_conversation(message: Message, chat: ChatService) -> None:
    if message.from_user is None:
        return
    await chat.new_conversation(message.from_user.id)
    await message.answer(T.new_conversation)


@router.message(F.text & ~F.text.startswith("/"))
async def question(message: Message, chat: ChatService, bot: Bot, settings: Settings) -> None:
    if message.from_user is None or message.text is None:
        return
    text = _clean(message.text)
    if not text:
        await message.answer(T.empty_text)
        return
    if len(text) > settings.max_message_chars:
        await message.answer(T.too_long.format(limit=settings.max_message_chars))
        return
    started = time.perf_counter()
    async with ChatActionSender.typing(bot=bot, chat_id=message.chat.id):
        rec = await chat.answer(message.from_user.id, text)
    await send_recommendation(bot, message.chat.id, rec)
    log.info(
        json.dumps(
            {
                "event": "answer",
                "user_id": message.from_user.id,
                "path": rec.path,
                "tools": rec.tools_called,
                "llm_calls": rec.llm_calls,
                "tokens": rec.usage.total_tokens or None,
                "wines": len(rec.wines),
                "ms": round((time.perf_counter() - started) * 1000),
            },
            ensure_ascii=False,
        )
    )


def _clean(text: str) -> str:
    """Drop control and zero-width characters that carry no meaning for a question."""
    kept = "".join(
        ch
        for ch in text
        if ch in "\n\t" or (ch.isprintable() and ch not in "\u200b\u200c\u200d\u2060\ufeff")
    )
    return kept.strip()
