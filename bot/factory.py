"""Building the aiogram Bot and Dispatcher with every router, middleware and dependency."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot, Dispatcher, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramForbiddenError
from aiogram.types import CallbackQuery, ErrorEvent, Message, TelegramObject

import bot.responses  # noqa: F401  (keeps the Bot API reply models built)
from bot.coordination import Coordinator
from bot.delivery import ReliableRequests
from bot.handlers import (
    admin,
    alerts,
    catalog_import,
    console,
    conversation,
    fallback,
    favourites,
    feedback,
    group,
    help,
    inline,
    link,
    media,
    privacy,
    profile,
    quiz,
    start,
)
from bot.heartbeat import Heartbeat
from bot.keyboards import age_gate
from bot.middlewares import (
    AdmissionMiddleware,
    ChatOrderMiddleware,
    chat_id_of,
    user_id_of,
)
from bot.telegram_session import JsonBodySession
from core.errors import DatabaseUnavailableError, SettingsError
from core.settings import Settings
from services.app.container import Services
from services.app.ops.rate_limits import RateLimits
from services.app.people.people import People, UserState
from services.app.texts import T
from services.app.turns.turns import Turns

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


def create_bot(settings: Settings) -> Bot:
    if not settings.telegram_bot_token:
        raise SettingsError(
            "TELEGRAM_BOT_TOKEN is not set: put the bot's token from @BotFather in it"
        )
    api = (
        TelegramAPIServer.from_base(settings.telegram_api_url)
        if settings.telegram_api_url
        else None
    )
    session = (
        JsonBodySession(api=api, timeout=settings.telegram_timeout_seconds)
        if api
        else JsonBodySession(timeout=settings.telegram_timeout_seconds)
    )
    session.middleware(ReliableRequests())
    session.middleware(Heartbeat(settings.health_file))
    return Bot(
        settings.telegram_bot_token,
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML, link_preview_is_disabled=True),
    )


class AgeGateMiddleware(BaseMiddleware):
    """Nothing about wine before the user has confirmed being 18 or older. With `limits`, at
    most N messages per user per minute pass too (the rest get a polite note), counted in the
    statement that reads the gate."""

    def __init__(self, limits: RateLimits | None = None) -> None:
        self.limits = limits

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = getattr(event, "from_user", None)
        if user is None:
            return await handler(event, data)
        allowed = True
        if self.limits is not None:
            allowed, access = await self.limits.allow_with_access(f"tg:{user.id}", user.id)
            state = UserState.read(user.id, access)
        else:
            people: People = data["people"]
            state = await people.state(user.id)
        if state is None or not state.age_confirmed:
            if isinstance(event, CallbackQuery):
                await event.answer(T.age_required)
            elif isinstance(event, Message):
                await event.answer(T.age_question, reply_markup=age_gate())
            return None
        if not allowed:
            await event.answer(T.rate_limited)  # type: ignore[attr-defined]
            return None
        return await handler(event, data)


def _gated(router: Router, limits: RateLimits | None = None) -> Router:
    """The age gate in front of the router's messages and buttons; with `limits`, its messages
    are rate-limited as well."""
    router.message.middleware(AgeGateMiddleware(limits))
    router.callback_query.middleware(AgeGateMiddleware())
    return router


def create_dispatcher(
    settings: Settings, services: Services, coordinator: Coordinator
) -> tuple[Dispatcher, ChatOrderMiddleware]:
    # No FSM: nothing here uses states, and aiogram's in-memory FSM storage keeps a record for
    # every user it ever sees, for the life of the process.
    # Each service under its own name: a handler names the ones it needs as parameters.
    dp = Dispatcher(
        disable_fsm=True,
        settings=settings,
        people=services.people,
        visitors=services.visitors,
        admission=services.admission,
        turns=services.turns,
        media=services.media,
        taste=services.taste,
        quiz=services.quiz,
        favourites=services.favourites,
        similar=services.similar,
        welcome=services.welcome,
        quick_picks=services.quick_picks,
        group_table=services.group_table,
        console_access=services.console_access,
        health=services.health,
        rate_limits=services.rate_limits,
        ledger=services.ledger,
        catalog_admin=services.catalog_admin,
        orders=services.orders,
        housekeeping=services.housekeeping,
        alerts=services.alerts,
    )
    order = ChatOrderMiddleware(coordinator)
    dp.update.outer_middleware(order)

    # Fresh routers for every Dispatcher: a router joins one parent only, and the middlewares
    # (with the rate limiter's state) must not pile up on shared module-level routers.
    questions = _gated(conversation.build_router(), services.rate_limits)
    questions.message.middleware(AdmissionMiddleware(services.admission))
    # Photos and voice are questions too: the same 18+ gate, the same per-user limit, and a
    # photo's caption is admitted like a message's words.
    media_questions = _gated(media.build_router(), services.rate_limits)
    media_questions.message.middleware(AdmissionMiddleware(services.admission))
    # Link codes are guessed only as fast as a person may write.
    linking = _gated(link.build_router(), services.rate_limits)
    dp.include_routers(
        group.build_router(),
        privacy.build_router(),
        start.build_router(),
        _gated(help.build_router()),
        admin.build_admin_router(settings.admin_id_set),
        catalog_import.build_import_router(settings.admin_id_set),
        console.build_console_router(settings.admin_id_set),
        _gated(profile.build_router()),
        _gated(quiz.build_router()),
        _gated(feedback.build_router()),
        _gated(favourites.build_router()),
        _gated(alerts.build_router()),
        linking,
        questions,
        inline.build_router(),
        media_questions,
        fallback.build_router(),
    )
    dp.errors.register(_on_error)
    return dp, order


async def _on_error(event: ErrorEvent, people: People, turns: Turns, bot: Bot) -> bool:
    update = event.update
    chat_id = chat_id_of(update)
    exc = event.exception
    if isinstance(exc, TelegramForbiddenError):
        user_id = user_id_of(update)
        log.info("user %s blocked the bot; marking inactive (update %s)", user_id, update.update_id)
        if user_id is not None:
            with contextlib.suppress(Exception):
                await people.set_active(user_id, False)
        return True
    if isinstance(exc, DatabaseUnavailableError):
        log.warning(
            "database unavailable while handling update %s: %s",
            update.update_id,
            type(exc).__name__,
        )
        reply = T.unavailable
        turns.refused(user_id_of(update), "database_unavailable")
    else:
        log.error("error handling update %s", update.update_id, exc_info=exc)
        reply = T.apology
    if chat_id is not None:
        try:
            await bot.send_message(chat_id, reply)
        except Exception as send_error:  # Telegram refused this too: the log is all that is left
            log.warning(
                "update %s: the person could not be told either (%s)",
                update.update_id,
                type(send_error).__name__,
            )
    return True
