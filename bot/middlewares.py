"""Dispatcher middlewares: per-chat ordering, in-flight tracking and the per-user rate limit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject, Update

from bot.texts import T
from services.coordination import Coordinator

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
        claimed_on_receipt = bool(data.get("update_claimed"))  # webhook claims before its 200
        if not claimed_on_receipt and not await self.coordinator.claim(update.update_id, chat_id):
            log.info("update %s was already handled; skipping the duplicate", update.update_id)
            return None
        try:
            if chat_id is not None:
                await self.coordinator.wait_turn(update.update_id, chat_id)
            return await handler(update, data)
        finally:
            try:
                await self.coordinator.finish(update.update_id)
            except Exception as exc:  # the database may be down; the chat unblocks when stale
                log.warning(
                    "could not mark update %s finished: %s", update.update_id, type(exc).__name__
                )

    async def wait_idle(self, grace_seconds: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), grace_seconds)
        except TimeoutError:
            return False
        return True


class RateLimitMiddleware(BaseMiddleware):
    """At most N messages per user per minute reach the sommelier; the rest get a polite note."""

    def __init__(self, coordinator: Coordinator, per_minute: int) -> None:
        self.coordinator = coordinator
        self.per_minute = per_minute

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = event.from_user if isinstance(event, Message) else None
        if user is not None and not await self.coordinator.allow(f"tg:{user.id}", self.per_minute):
            await event.answer(T.rate_limited)  # type: ignore[union-attr]
            return None
        return await handler(event, data)
