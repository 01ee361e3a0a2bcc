"""/profile: what came from the taste quiz and what from 👍/👎, each with its reset button."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import ProfilePartResetCallback, ProfileResetCallback
from bot.keyboards import profile_parts_reset, profile_reset
from bot.telegram_html import escape
from core.taste import ProfileSummary
from services.app.taste.profiles import TasteProfiles
from services.app.taste.quiz import Quiz
from services.app.texts import T


def render_profile(summary: ProfileSummary) -> str:
    return "\n".join([T.profile_title, *vote_lines(summary)])


def vote_lines(summary: ProfileSummary) -> list[str]:
    """What the 👍/👎 taught, one line per kind."""
    lines: list[str] = []
    if summary.liked_styles:
        lines.append(T.profile_liked.format(what=escape(", ".join(summary.liked_styles))))
    if summary.liked_grapes:
        lines.append(T.profile_grapes.format(what=escape(", ".join(summary.liked_grapes))))
    if summary.liked_countries:
        lines.append(T.profile_countries.format(what=escape(", ".join(summary.liked_countries))))
    disliked = summary.disliked_styles + summary.disliked_grapes
    if disliked:
        lines.append(T.profile_disliked.format(what=escape(", ".join(disliked))))
    if summary.price_range:
        low, high = (f"{p:,}".replace(",", " ") for p in summary.price_range)
        lines.append(T.profile_prices.format(low=low, high=high))
    return lines


async def profile(message: Message, taste: TasteProfiles, quiz: Quiz) -> None:
    if message.from_user is None:
        return
    user_id = message.from_user.id
    summary = await taste.summary(user_id)
    answered = quiz.words(await quiz.answers(user_id))
    if summary.empty and not answered:
        await message.answer(T.profile_empty)
        return
    if not answered:
        await message.answer(render_profile(summary), reply_markup=profile_reset())
        return
    lines = [T.profile_title, T.profile_from_quiz.format(what=escape(", ".join(answered)))]
    if not summary.empty:
        lines += ["", T.profile_from_votes, *vote_lines(summary)]
    text = "\n".join(lines)
    await message.answer(text, reply_markup=profile_parts_reset(votes=not summary.empty))


async def reset_part(
    query: CallbackQuery,
    callback_data: ProfilePartResetCallback,
    taste: TasteProfiles,
    quiz: Quiz,
) -> None:
    if callback_data.part == "quiz":
        await quiz.reset(query.from_user.id)
        done = T.profile_quiz_reset_done
    else:
        await taste.reset_votes(query.from_user.id)
        done = T.profile_votes_reset_done
    await query.answer(done)
    if query.message is not None:
        await query.message.answer(done)  # type: ignore[union-attr]


async def reset(query: CallbackQuery, taste: TasteProfiles) -> None:
    await taste.reset_votes(query.from_user.id)
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
