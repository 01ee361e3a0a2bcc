"""/profile: what came from the taste quiz and what from 👍/👎, each with its reset button."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import ProfilePartResetCallback, ProfileResetCallback
from bot.keyboards import profile_parts_reset, profile_reset
from bot.telegram_html import escape
from bot.texts import T
from core.taste import ProfileSummary
from services.app.chat import ChatService

PROFILE_TITLE = "<b>Ваш вкусовой профиль</b>"


def render_profile(summary: ProfileSummary) -> str:
    return "\n".join([PROFILE_TITLE, *vote_lines(summary)])


def vote_lines(summary: ProfileSummary) -> list[str]:
    """What the 👍/👎 taught, one line per kind."""
    lines: list[str] = []
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
    return lines


async def profile(message: Message, chat: ChatService) -> None:
    if message.from_user is None:
        return
    user_id = message.from_user.id
    summary = await chat.profile(user_id)
    quiz = chat.quiz_words(await chat.quiz_answers(user_id))
    if summary.empty and not quiz:
        await message.answer(T.profile_empty)
        return
    if not quiz:
        await message.answer(render_profile(summary), reply_markup=profile_reset())
        return
    lines = [PROFILE_TITLE, T.profile_from_quiz.format(what=escape(", ".join(quiz)))]
    if not summary.empty:
        lines += ["", T.profile_from_votes, *vote_lines(summary)]
    text = "\n".join(lines)
    await message.answer(text, reply_markup=profile_parts_reset(votes=not summary.empty))


async def reset_part(
    query: CallbackQuery, callback_data: ProfilePartResetCallback, chat: ChatService
) -> None:
    if callback_data.part == "quiz":
        await chat.reset_quiz(query.from_user.id)
        done = T.profile_quiz_reset_done
    else:
        await chat.reset_profile(query.from_user.id)
        done = T.profile_votes_reset_done
    await query.answer(done)
    if query.message is not None:
        await query.message.answer(done)  # type: ignore[union-attr]


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
    router.callback_query.register(reset_part, ProfilePartResetCallback.filter())
    return router
