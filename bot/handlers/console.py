"""/console (admins only): a one-time link to the shop's console. For anyone else the
handler does not match, and the message falls through to the unknown-command reply."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import Message

from bot.filters import InLoop
from bot.telegram_html import escape
from core.settings import Settings
from services.app.console.access import LINK_MINUTES, ConsoleAccess
from services.app.container import Services
from services.app.database import GuardedSessions
from services.app.signing import signing_key


def build_console_router(settings: Settings, services: Services) -> Router:
    router = Router(name="console")
    router.message.filter(InLoop(F.from_user.id.in_(settings.admin_id_set)))
    access = ConsoleAccess(
        GuardedSessions(services.chat.sessions), signing_key(settings), settings.public_base_url
    )

    @router.message(Command("console"))
    async def console(message: Message) -> None:
        assert message.from_user is not None
        link = access.link(message.from_user.id)
        if link is None:
            await message.answer(
                "Консоль открывается на HTTP-сервере бота, а у него нет публичного адреса: "
                "задайте PUBLIC_URL (или запустите бота с WEBHOOK_URL)."
            )
            return
        await message.answer(
            f'<a href="{escape(link)}">Открыть консоль магазина</a>\n'
            f"Ссылка одноразовая и действует {LINK_MINUTES} минут; не пересылайте ее.",
        )

    return router
