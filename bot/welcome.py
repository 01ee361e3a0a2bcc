"""Sending the welcome picks (after /start, the 18+ gate or the taste quiz)."""

from __future__ import annotations

from aiogram import Bot

from bot.delivery import send_recommendation
from bot.drafts import typing_indicator
from services.app.chat import ChatService


async def send_welcome(bot: Bot, chat_id: int, user_id: int, chat: ChatService) -> None:
    async with typing_indicator(bot, chat_id):
        rec = await chat.welcome(user_id)
    await send_recommendation(bot, chat_id, rec)
