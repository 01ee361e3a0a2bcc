"""Sending the welcome picks (after /start, the 18+ gate or the taste quiz)."""

from __future__ import annotations

from aiogram import Bot

from bot.answering import typing_indicator
from bot.coordination import Delivery, plan_with_turn
from bot.delivery import send_recommendation
from services.app.picks.welcome import WelcomePicks


async def send_welcome(
    bot: Bot, chat_id: int, user_id: int, welcome: WelcomePicks, delivery: Delivery | None
) -> None:
    with_turn = plan_with_turn(delivery)
    async with typing_indicator(bot, chat_id):
        rec = await welcome.welcome(user_id, with_turn)
    await send_recommendation(bot, chat_id, rec, delivery)
