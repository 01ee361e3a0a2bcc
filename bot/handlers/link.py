"""/link CODE: the web chat's visitor becomes this Telegram user — the code is shown in the
web chat («Связать с Telegram»), works once and for 15 minutes; the visitor's votes,
favourites, quiz answers and conversations move here, and the web chat goes on as this user."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command, CommandObject
from aiogram.types import Message

from services.app.people.visitors import Visitors
from services.app.texts import T


async def link(message: Message, command: CommandObject, visitors: Visitors) -> None:
    if message.from_user is None:
        return
    code = (command.args or "").strip()
    if not code:
        await message.answer(T.link_usage)
        return
    result = await visitors.link(code[:40], message.from_user.id)
    if result.linked:
        await message.answer(T.link_done)
    elif result.reason == "same":
        await message.answer(T.link_same)
    else:
        await message.answer(T.link_unknown)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="link")
    router.message.register(link, Command("link"))
    return router
