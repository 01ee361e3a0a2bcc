"""Free text → the sommelier → intro, one card per wine, closing. And /new."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command
from aiogram.types import Message

from bot.coordination import Delivery
from bot.delivery import send_recommendation
from bot.drafts import DraftProgress
from bot.filters import InLoop
from core.recommendation import Recommendation
from services.agent.events import Final
from services.app.people.people import People
from services.app.texts import T
from services.app.turns.admission import Admission
from services.app.turns.turns import Turns


async def new_conversation(message: Message, people: People) -> None:
    if message.from_user is None:
        return
    await people.new_conversation(message.from_user.id)
    await message.answer(T.new_conversation)


async def question(
    message: Message,
    admission: Admission,
    turns: Turns,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    if message.from_user is None or message.text is None:
        return
    admitted = admission.admit(message.text, who=message.from_user.id)
    if not admitted.ok:
        await message.answer(T.refusal(admitted))
        return
    rec: Recommendation | None = None
    private = message.chat.type == ChatType.PRIVATE
    with_turn = delivery.plan_with_turn if delivery is not None else None
    async with DraftProgress(bot, message.chat.id, enabled=private) as progress:
        events = turns.stream(
            message.from_user.id, admitted.text, stream_answer=private, with_turn=with_turn
        )
        async for event in events:
            await progress.on_event(event)
            if isinstance(event, Final):
                rec = event.result
    if rec is None:
        raise RuntimeError("the agent stream ended without a final event")
    await send_recommendation(bot, message.chat.id, rec, delivery)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="conversation")
    router.message.register(new_conversation, Command("new"))
    router.message.register(question, InLoop(F.text & ~F.text.startswith("/")))
    return router
