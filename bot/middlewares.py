"""Dispatcher middlewares: per-chat ordering, in-flight tracking and the admission of a
question's words (the age gate and the per-user rate limit: bot/factory.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware, Bot
from aiogram.dispatcher.event.bases import UNHANDLED, CancelHandler, SkipHandler
from aiogram.dispatcher.flags import get_flag
from aiogram.types import ErrorEvent, Message, TelegramObject, Update

from bot.coordination import Coordinator, Delivery
from bot.delivery import send_planned
from core.errors import DatabaseUnavailableError, LeaseLostError
from core.failpoints import failpoint
from services.app.texts import T
from services.app.turns.admission import Admission

log = logging.getLogger(__name__)
Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


def chat_id_of(update: Update) -> int | None:
    if update.message is not None:
        return update.message.chat.id
    if update.callback_query is not None and update.callback_query.message is not None:
        return update.callback_query.message.chat.id
    if update.edited_message is not None:
        return update.edited_message.chat.id
    return None


DELIVERY_KEY = "delivery"
MUST_WAIT_KEY = "must_wait"


def user_id_of(update: Update) -> int | None:
    for event in (update.message, update.callback_query, update.edited_message):
        if event is not None and event.from_user is not None:
            return int(event.from_user.id)
    return None


class ChatOrderMiddleware(BaseMiddleware):
    """Answers one chat's updates in update_id order across every process sharing the
    database (different chats run in parallel), resends what is missing of an answer a dead
    process began, and marks each update finished.

    Updates reach it stored and leased by `bot.intake.UpdateWorker` (the `delivery` in the
    handler data); one without (the database could not store it) is answered from memory.
    """

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        delivery = data.get(DELIVERY_KEY)
        if not isinstance(event, Update) or not isinstance(delivery, Delivery):
            return await _with_error_handlers(handler, event, data)
        return await self._in_turn(handler, event, data, delivery)

    async def _in_turn(
        self, handler: Handler, update: Update, data: dict[str, Any], delivery: Delivery
    ) -> Any:
        chat_id = chat_id_of(update)
        keep_open = False  # stopped past its grace, or taken over: another process finishes it
        try:
            await self.coordinator.finish_unfinished()
            if chat_id is not None and data.get(MUST_WAIT_KEY, True):
                await self.coordinator.wait_turn(
                    update.update_id, chat_id, before_each_check=self.coordinator.finish_unfinished
                )
            if delivery.plan is not None and chat_id is not None:
                # A process died while sending this answer: send the rest of the same answer.
                await send_planned(data["bot"], chat_id, delivery)
                return None
            if delivery.is_takeover and chat_id is not None and _is_request(update):
                await self._notice_once(data["bot"], chat_id, update.update_id)
            return await _with_error_handlers(handler, update, data)
        except asyncio.CancelledError:
            # Stopped past the shutdown grace: its lease goes to another process, which sends
            # what is missing of the answer; finished here, the update would go unanswered.
            keep_open = True
            raise
        except LeaseLostError:
            # Frozen past the process timeout, this process was taken for dead: the process
            # that took the update over answers it (and finishes it); this one says no more.
            keep_open = True
            log.warning("update %s was taken over by another process; stopping", update.update_id)
            return None
        finally:
            if not keep_open:
                await self._finish(update.update_id)

    async def _finish(self, update_id: int) -> None:
        failpoint("before_finish")
        try:
            await self.coordinator.finish(update_id)
        except Exception as exc:  # the database may be down: finish it once it is back
            self.coordinator.unfinished.add(update_id)
            log.warning("could not mark update %s finished: %s", update_id, type(exc).__name__)

    async def _notice_once(self, bot: Bot, chat_id: int, update_id: int) -> None:
        """«The answer is late» once per update, however many takeovers it takes: a takeover
        that died before its answer was planned leaves the next one to start over, and the
        person was already told. Claimed before it is sent: a process killed in between
        leaves the notice out rather than sending it twice."""
        try:
            first = await self.coordinator.claim_notice(update_id)
        except DatabaseUnavailableError:
            first = True
        if first:
            await bot.send_message(chat_id, T.answer_again)


def _is_request(update: Update) -> bool:
    """A message in a private chat: the person is waiting for an answer to it."""
    message = update.message
    return message is not None and message.chat.type == "private"


async def _with_error_handlers(handler: Handler, update: Update, data: dict[str, Any]) -> Any:
    """Run the dispatcher's error handlers here rather than in aiogram's ErrorsMiddleware, which
    sits outside this one: the apology (or marking a blocked user) is then part of the update's
    turn — before the chat's next update, and counted in flight for a graceful shutdown."""
    try:
        return await handler(update, data)
    except (SkipHandler, CancelHandler, LeaseLostError):
        raise
    except Exception as exc:
        dispatcher = data.get("dispatcher")
        if dispatcher is None:
            raise
        response = await dispatcher.propagate_event(
            update_type="error", event=ErrorEvent(update=update, exception=exc), **data
        )
        if response is UNHANDLED:
            raise
        return response


ADMIT_FLAG = "admit"  # a handler's flag: "text" (a message's text) or "caption" (a photo's)


class AdmissionMiddleware(BaseMiddleware):
    """A question's words admitted before its handler runs (the handlers that ask for it with
    the flag `admit`): empty or too long words get the refusal here, and the handler gets
    `admitted`, the words cleaned."""

    def __init__(self, admission: Admission) -> None:
        self.admission = admission

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        what = get_flag(data, ADMIT_FLAG)
        if what is None or not isinstance(event, Message) or event.from_user is None:
            return await handler(event, data)
        words = (event.caption if what == "caption" else event.text) or ""
        admitted = self.admission.admit(words, who=event.from_user.id, caption=what == "caption")
        if not admitted.ok:
            await event.answer(T.refusal(admitted))
            return None
        data["admitted"] = admitted
        return await handler(event, data)
