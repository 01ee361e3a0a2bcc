"""An answer in a chat, as it comes: the progress (a live draft in private chats, else the
typing indicator), what a photo or a recording was read as, then the answer itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from html import escape

from aiogram import Bot
from aiogram.enums import ChatType
from aiogram.types import Message

from bot.coordination import Delivery
from bot.delivery import send_recommendation
from bot.drafts import DraftProgress
from core.recommendation import Recommendation
from services.agent.events import AgentEvent, Final, MediaRead
from services.app.texts import T

MAX_HEARD_CHARS = 200  # «Услышал» stays one short line


def is_private(message: Message) -> bool:
    """Drafts and the streamed intro are for private chats; a group gets the typing only."""
    return message.chat.type == ChatType.PRIVATE


async def answer(
    message: Message, bot: Bot, events: AsyncIterator[AgentEvent], delivery: Delivery | None
) -> None:
    rec: Recommendation | None = None
    async with DraftProgress(bot, message.chat.id, enabled=is_private(message)) as progress:
        async for event in events:
            if isinstance(event, MediaRead):
                note = _note(event)
                if note:
                    await message.answer(note)
                continue
            await progress.on_event(event)
            if isinstance(event, Final):
                rec = event.result
    if rec is None:
        raise RuntimeError("the answer stream ended without a final event")
    await send_recommendation(bot, message.chat.id, rec, delivery)


def _note(event: MediaRead) -> str | None:
    if event.source == "voice":
        heard = event.text
        if len(heard) > MAX_HEARD_CHARS:
            heard = heard[: MAX_HEARD_CHARS - 1].rstrip() + "…"
        return T.voice_heard.format(text=escape(heard))
    if event.kind == "dish":
        return T.photo_dish.format(dish=escape(event.text))
    return None
