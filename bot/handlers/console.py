"""/console (admins only): a one-time link to the shop's console. For anyone else the
handler does not match, and the message falls through to the unknown-command reply."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.filters import InLoop
from bot.telegram_html import escape
from services.app.console.access import LINK_MINUTES, ConsoleAccess
from services.app.texts import T


async def console(message: Message, console_access: ConsoleAccess) -> None:
    assert message.from_user is not None
    link = console_access.link(message.from_user.id)
    if link is None:
        await message.answer(T.console_no_public_url)
        return
    await message.answer(T.console_link.format(link=escape(link), minutes=LINK_MINUTES))


def build_console_router(admin_ids: frozenset[int]) -> Router:
    router = Router(name="console")
    router.message.filter(InLoop(F.from_user.id.in_(admin_ids)))
    router.message.register(console, Command("console"))
    return router
