"""/privacy: what is stored and for how long; /forget: delete everything about the person,
after a confirmation button."""

from __future__ import annotations

import contextlib

from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import CallbackQuery, Message

from bot.callbacks import ForgetCallback
from bot.keyboards import forget_confirmation
from core.settings import Settings
from services.app.people.people import People
from services.app.texts import T


async def privacy(message: Message, settings: Settings) -> None:
    days = settings.message_retention_days
    kept = T.retention_days.format(days=f"{days:g}") if days > 0 else T.retention_forever
    await message.answer(T.privacy.format(retention=kept))


async def forget(message: Message) -> None:
    await message.answer(T.forget_question, reply_markup=forget_confirmation())


async def forget_answered(
    query: CallbackQuery, callback_data: ForgetCallback, people: People
) -> None:
    with contextlib.suppress(TelegramBadRequest):
        await query.answer()
    if not callback_data.confirmed:
        text = T.forget_kept
    else:
        removed = await people.forget(query.from_user.id)
        what = ", ".join(f"{T.forgotten_tables.get(t, t)}: {n}" for t, n in removed.items())
        text = T.forget_done.format(what=what) if removed else T.forget_nothing
    if query.message is not None:
        with contextlib.suppress(TelegramBadRequest):
            await query.message.edit_text(text)  # type: ignore[union-attr]


def build_router() -> Router:
    """Open to everyone, also before the 18+ gate: a person may always delete their data."""
    router = Router(name="privacy")
    router.message.register(privacy, Command("privacy"))
    router.message.register(forget, Command("forget"))
    router.callback_query.register(forget_answered, ForgetCallback.filter())
    return router
