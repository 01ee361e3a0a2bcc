"""Free text → the sommelier → intro, one card per wine, closing. And /new."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.answering import ChatAnswer
from bot.coordination import Delivery, plan_with_turn
from bot.filters import InLoop
from bot.middlewares import ADMIT_FLAG
from services.app.people.people import People
from services.app.texts import T
from services.app.turns.admission import Admitted
from services.app.turns.turns import Turns


async def new_conversation(message: Message, people: People) -> None:
    if message.from_user is None:
        return
    await people.new_conversation(message.from_user.id)
    await message.answer(T.new_conversation)


async def question(
    message: Message,
    admitted: Admitted,
    turns: Turns,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    """The words reach here admitted (bot/middlewares.py, AdmissionMiddleware)."""
    if message.from_user is None:
        return
    shown = ChatAnswer(message, bot, delivery)
    await shown.show(
        turns.stream(
            message.from_user.id,
            admitted.text,
            stream_answer=shown.private,
            with_turn=plan_with_turn(delivery),
        )
    )


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="conversation")
    router.message.register(new_conversation, Command("new"))
    router.message.register(
        question, InLoop(F.text & ~F.text.startswith("/")), flags={ADMIT_FLAG: "text"}
    )
    return router
