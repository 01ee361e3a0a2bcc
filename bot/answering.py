"""An answer in a chat, as it comes: the progress (a live draft in private chats, else the
typing indicator), then the answer itself."""

from __future__ import annotations

from collections.abc import AsyncIterator

from aiogram import Bot
from aiogram.enums import ChatType
from aiogram.types import Message

from bot.coordination import Delivery
from bot.delivery import send_recommendation
from bot.drafts import DraftProgress
from core.recommendation import Recommendation
from services.agent import AgentEvent, Final


def is_private(message: Message) -> bool:
    """Drafts and the streamed intro are for private chats; a group gets the typing only."""
    return message.chat.type == ChatType.PRIVATE


async def answer(
    message: Message, bot: Bot, events: AsyncIterator[AgentEvent], delivery: Delivery | None
) -> None:
    rec: Recommendation | None = None
    async with DraftProgress(bot, message.chat.id, enabled=is_private(message)) as progress:
        async for event in events:
            await progress.on_event(event)
            if isinstance(event, Final):
                rec = event.result
    if rec is None:
        raise RuntimeError("the answer stream ended without a final event")
    await send_recommendation(bot, message.chat.id, rec, delivery)
