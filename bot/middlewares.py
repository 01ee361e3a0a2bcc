"""Dispatcher middlewares: per-chat ordering, in-flight tracking and the per-user rate limit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.dispatcher.event.bases import UNHANDLED, CancelHandler, SkipHandler
from aiogram.types import ErrorEvent, Message, TelegramObject, Update

from bot.texts import T
from services.app.coordination import Coordinator
from services.app.rate_limit import RateLimiter

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


class ChatOrderMiddleware(BaseMiddleware):
    """Each update is handled once, and one chat's updates in update_id order, across every
    replica sharing the database; different chats run in parallel.

    Also counts updates in flight so that shutdown can wait for them.
    """

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # Arrival order within this process (long polling). Polling starts one task per update
        # in update_id order and each reaches this middleware before its first await, so a FIFO
        # lock taken here keeps that order; without it a later update whose claim round trip is
        # faster checks the ledger before an earlier update of its chat is even claimed, and
        # overtakes it. Webhook updates are claimed on receipt, so the ledger alone orders them.
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}
        # Updates handled while the database was unreachable: their ledger rows still say
        # "in progress" and would hold their chats back until they count as abandoned.
        self._unfinished: set[int] = set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.in_flight += 1
        self._idle.clear()
        try:
            if not isinstance(event, Update):
                return await handler(event, data)
            return await self._ordered(handler, event, data)
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    async def _ordered(self, handler: Handler, update: Update, data: dict[str, Any]) -> Any:
        chat_id = chat_id_of(update)
        if chat_id is None or data.get("update_claimed"):
            return await self._claimed(handler, update, data, chat_id)
        lock = self._locks.setdefault(chat_id, asyncio.Lock())
        self._waiting[chat_id] = self._waiting.get(chat_id, 0) + 1
        try:
            async with lock:
                return await self._claimed(handler, update, data, chat_id)
        finally:
            self._waiting[chat_id] -= 1
            if self._waiting[chat_id] == 0:
                del self._waiting[chat_id]
                del self._locks[chat_id]

    async def _claimed(
        self, handler: Handler, update: Update, data: dict[str, Any], chat_id: int | None
    ) -> Any:
        claimed_on_receipt = bool(data.get("update_claimed"))  # webhook claims before its 200
        must_wait = True
        if not claimed_on_receipt:
            await self._finish_unfinished()
            if chat_id is None:
                claimed = await self.coordinator.claim(update.update_id, None)
                must_wait = False
            else:  # the claim and the first look at the chat's turn in one round trip
                claimed, must_wait = await self.coordinator.claim_in_turn(update.update_id, chat_id)
            if not claimed:
                log.info("update %s was already handled; skipping the duplicate", update.update_id)
                return None
        try:
            if chat_id is None:
                await self._finish_unfinished()
            elif must_wait:
                await self.coordinator.wait_turn(
                    update.update_id, chat_id, before_each_check=self._finish_unfinished
                )
            return await _with_error_handlers(handler, update, data)
        finally:
            try:
                await self.coordinator.finish(update.update_id)
            except Exception as exc:  # the database may be down: finish it once it is back
                self._unfinished.add(update.update_id)
                log.warning(
                    "could not mark update %s finished: %s", update.update_id, type(exc).__name__
                )

    async def _finish_unfinished(self) -> None:
        """Mark finished what could not be marked while the database was away."""
        for update_id in sorted(self._unfinished):
            try:
                await self.coordinator.finish(update_id)
            except Exception:
                return
            self._unfinished.discard(update_id)

    async def wait_idle(self, grace_seconds: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), grace_seconds)
        except TimeoutError:
            return False
        return True


async def _with_error_handlers(handler: Handler, update: Update, data: dict[str, Any]) -> Any:
    """Run the dispatcher's error handlers here rather than in aiogram's ErrorsMiddleware, which
    sits outside this one: the apology (or marking a blocked user) is then part of the update's
    turn — before the chat's next update, and counted in flight for a graceful shutdown."""
    try:
        return await handler(update, data)
    except (SkipHandler, CancelHandler):
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


class RateLimitMiddleware(BaseMiddleware):
    """At most N messages per user per minute reach the sommelier; the rest get a polite note."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = event.from_user if isinstance(event, Message) else None
        if user is not None and not await self.limiter.allow(f"tg:{user.id}"):
            await event.answer(T.rate_limited)  # type: ignore[union-attr]
            return None
        return await handler(event, data)
