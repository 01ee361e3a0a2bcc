"""Dispatcher middlewares: per-chat ordering, in-flight tracking and the per-user rate limit."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import Message, TelegramObject, Update

from bot.texts import T
from services.rate_limit import SlidingWindowLimiter

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
    """Updates of one chat are handled one at a time, in arrival order; chats run in parallel.

    asyncio.Lock wakes waiters first-in first-out, which preserves the arrival order.
    Also counts updates in flight so that shutdown can wait for them.
    """

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, int] = {}
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        self.in_flight += 1
        self._idle.clear()
        try:
            chat_id = chat_id_of(event) if isinstance(event, Update) else None
            if chat_id is None:
                return await handler(event, data)
            lock = self._locks.setdefault(chat_id, asyncio.Lock())
            self._waiting[chat_id] = self._waiting.get(chat_id, 0) + 1
            try:
                async with lock:
                    return await handler(event, data)
            finally:
                self._waiting[chat_id] -= 1
                if self._waiting[chat_id] == 0:
                    del self._waiting[chat_id]
                    del self._locks[chat_id]
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self._idle.set()

    async def wait_idle(self, grace_seconds: float) -> bool:
        try:
            await asyncio.wait_for(self._idle.wait(), grace_seconds)
        except TimeoutError:
            return False
        return True


class RateLimitMiddleware(BaseMiddleware):
    """At most N messages per user per minute reach the sommelier; the rest get a polite note."""

    def __init__(self, per_minute: int) -> None:
        self.limiter = SlidingWindowLimiter(per_minute, 60.0)

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        user = event.from_user if isinstance(event, Message) else None
        if user is not None and not self.limiter.allow(user.id):
            await event.answer(T.rate_limited)  # type: ignore[union-attr]
            return None
        return await handler(event, data)
