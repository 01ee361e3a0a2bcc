"""Free text → the sommelier → intro, one card per wine, closing. And /new."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import Message

from bot.delivery import send_recommendation
from bot.drafts import DraftProgress
from bot.filters import InLoop
from bot.texts import T
from core.recommendation import Recommendation
from core.settings import Settings
from core.text import clean_user_text
from services.agent import Final
from services.app.chat import ChatService


async def new_conversation(message: Message, chat: ChatService) -> None:
    if message.from_user is None:
        return
    await chat.new_conversation(message.from_user.id)
    await message.answer(T.new_conversation)


async def question(message: Message, chat: ChatService, bot: Bot, settings: Settings) -> None:
    if message.from_user is None or message.text is None:
        return
    text = clean_user_text(message.text)
    if not text:
        chat.refused(message.from_user.id, "empty")
        await message.answer(T.empty_text)
        return
    if len(text) > settings.max_message_chars:
        chat.refused(message.from_user.id, "too_long")
        await message.answer(T.too_long.format(limit=settings.max_message_chars))
        return
    rec: Recommendation | None = None
    private = message.chat.type == ChatType.PRIVATE
    async with DraftProgress(bot, message.chat.id, enabled=private) as progress:
        async for event in chat.stream(message.from_user.id, text, stream_answer=private):
            await progress.on_event(event)
            if isinstance(event, Final):
                rec = event.result
    if rec is None:
        raise RuntimeError("the agent stream ended without a final event")
    await send_recommendation(bot, message.chat.id, rec)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="conversation")
    router.message.register(new_conversation, Command("new"))
    router.message.register(question, InLoop(F.text & ~F.text.startswith("/")))
    return router
