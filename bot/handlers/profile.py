"""/profile: what the bot has learned, with a reset button."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import ProfileResetCallback
from bot.keyboards import profile_reset
from bot.rendering import escape
from bot.texts import T
from core.taste import ProfileSummary
from services.app.chat import ChatService


def render_profile(summary: ProfileSummary) -> str:
    lines = ["<b>Ваш вкусовой профиль</b>"]
    if summary.liked_styles:
        lines.append("👍 Нравится: " + escape(", ".join(summary.liked_styles)))
    if summary.liked_grapes:
        lines.append("🍇 Любимые сорта: " + escape(", ".join(summary.liked_grapes)))
    if summary.liked_countries:
        lines.append("🌍 Страны: " + escape(", ".join(summary.liked_countries)))
    disliked = summary.disliked_styles + summary.disliked_grapes
    if disliked:
        lines.append("👎 Не понравилось: " + escape(", ".join(disliked)))
    if summary.price_range:
        low, high = summary.price_range
        lines.append(f"💰 Цены понравившихся вин: {low:,}–{high:,} ₽".replace(",", " "))
    return "\n".join(lines)


async def profile(message: Message, chat: ChatService) -> None:
    if message.from_user is None:
        return
    summary = await chat.profile(message.from_user.id)
    if summary.empty:
        await message.answer(T.profile_empty)
        return
    await message.answer(render_profile(summary), reply_markup=profile_reset())


async def reset(query: CallbackQuery, chat: ChatService) -> None:
    await chat.reset_profile(query.from_user.id)
    await query.answer(T.profile_reset_done)
    if query.message is not None:
        await query.message.answer(T.profile_reset_done)  # type: ignore[union-attr]


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="profile")
    router.message.register(profile, Command("profile"))
    router.callback_query.register(reset, ProfileResetCallback.filter(F.confirm))
    return router
