"""An answer in a chat, as it comes: the progress, then the answer itself.

The progress: live drafts in private chats through sendMessageDraft (Bot API 9.5+). Short
status lines from tool calls, then the intro as it streams (the agent's answer deltas are the
intro alone, without format markers). Throttled to one update per second, the latest text
shown once the second is over; any refusal turns drafts off for the rest of the run. The typing
indicator runs until the first draft is shown (and throughout in groups, or once drafts are
refused). Nothing of the progress ever raises into the handler. The answer itself goes out
through bot/delivery.py once the turn's final event (the turn stored) has come.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator
from typing import Any

from aiogram import Bot
from aiogram.enums import ChatType
from aiogram.types import Message
from aiogram.utils.chat_action import ChatActionSender

from bot.coordination import Delivery
from bot.delivery import send_recommendation
from core.recommendation import Recommendation
from services.agent import AgentEvent, AnswerDelta, Final, ToolInvoked, without_links
from services.app.texts import T

log = logging.getLogger(__name__)

MIN_INTERVAL_SECONDS = 1.0
MAX_DRAFT_CHARS = 1000


def is_private(message: Message) -> bool:
    """Drafts and the streamed intro are for private chats; a group gets the typing only."""
    return message.chat.type == ChatType.PRIVATE


class ChatAnswer:
    """The answer to one message in its chat: made before the turn starts (whether the chat
    gets the intro streamed depends on it), then shown as the turn's events come."""

    def __init__(self, message: Message, bot: Bot, delivery: Delivery | None) -> None:
        self.bot = bot
        self.chat_id = message.chat.id
        self.private = is_private(message)
        self.delivery = delivery

    async def show(self, events: AsyncIterator[AgentEvent]) -> None:
        """The progress while the events come, then the answer of the final one."""
        rec: Recommendation | None = None
        async with DraftProgress(self.bot, self.chat_id, enabled=self.private) as progress:
            async for event in events:
                await progress.on_event(event)
                if isinstance(event, Final):
                    rec = event.result
        if rec is None:
            raise RuntimeError("the answer stream ended without a final event")
        await send_recommendation(self.bot, self.chat_id, rec, self.delivery)


def status_line(tool: str, args: dict[str, Any]) -> str:
    """«Ищу красные сухие до 2000 ₽…» from a tool call's arguments."""
    if tool == "semantic_search" and args.get("query"):
        return T.searching_described_as.format(query=str(args["query"])[:80])
    words = [
        T.type_plural.get(str(args.get("wine_type")), ""),
        T.sweetness_plural.get(str(args.get("sweetness")), ""),
    ]
    what = " ".join(w for w in words if w) or T.searching_wines
    parts = [T.searching.format(what=what)]
    if args.get("grape_variety"):
        parts.append(T.searching_grape.format(grape=args["grape_variety"]))
    if args.get("country"):
        parts.append(T.searching_country.format(country=args["country"]))
    if args.get("food_pairing"):
        parts.append(T.searching_dish.format(dish=args["food_pairing"]))
    if args.get("price_max"):
        parts.append(T.searching_budget.format(amount=_amount(args["price_max"])))
    return " ".join(parts) + "…"


def _amount(value: Any) -> str:
    try:
        return f"{int(float(value)):,}".replace(",", " ")
    except (TypeError, ValueError):
        return str(value)


class QuietChatActionSender(ChatActionSender):
    """The typing indicator, which never fails or delays anything.

    aiogram's sender runs in a task of its own; when Telegram refuses a chat action (the user
    blocked the bot mid-answer, the chat is gone, retries are spent) that task dies with an
    exception nobody retrieves, and on exit it waits for a chat action still in flight — a
    slow Telegram would hold the answer back. Here a refusal just stops the indicator, and
    leaving stops it at once.
    """

    async def _worker(self) -> None:
        try:
            await super()._worker()
        except Exception as exc:
            log.info("typing indicator stopped (%s)", type(exc).__name__)

    async def _stop(self) -> None:
        task, self._task = self._task, None
        self._close_event.set()
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def typing_indicator(bot: Bot, chat_id: int) -> ChatActionSender:
    return QuietChatActionSender(bot=bot, chat_id=chat_id, action="typing")


class DraftProgress:
    def __init__(self, bot: Bot, chat_id: int, enabled: bool) -> None:
        self.bot = bot
        self.chat_id = chat_id
        self.enabled = enabled
        self.draft_id = random.randint(1, 2**31 - 1)
        self._last_sent = 0.0
        self._last_text = ""
        self._pending: str | None = None  # the latest text, waiting for its second to come
        self._flush: asyncio.Task[None] | None = None
        self._intro = ""
        self._typing: ChatActionSender | None = None

    async def __aenter__(self) -> DraftProgress:
        # The typing indicator runs in every chat; drafts add detail where Telegram allows.
        await self._start_typing()
        return self

    async def __aexit__(self, *exc: object) -> None:
        flush, self._flush = self._flush, None
        if flush is not None and not flush.done():
            flush.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flush
        await self._stop_typing()

    async def _stop_typing(self) -> None:
        typing, self._typing = self._typing, None
        if typing is not None:
            with contextlib.suppress(Exception):
                await typing.__aexit__(None, None, None)

    async def _start_typing(self) -> None:
        if self._typing is None:
            self._typing = typing_indicator(self.bot, self.chat_id)
            with contextlib.suppress(Exception):
                await self._typing.__aenter__()

    async def on_event(self, event: AgentEvent) -> None:
        if not self.enabled:
            return
        if isinstance(event, ToolInvoked):
            await self._show(status_line(event.tool, event.input))
        elif isinstance(event, AnswerDelta):
            self._intro += event.text
            await self._show(without_links(self._intro.strip())[:MAX_DRAFT_CHARS])

    async def _show(self, text: str) -> None:
        if not text:
            return
        self._pending = text
        if self._flush is not None:
            return  # the update already waiting shows the latest text
        wait = self._last_sent + MIN_INTERVAL_SECONDS - time.monotonic()
        if wait > 0:
            self._flush = asyncio.create_task(self._show_later(wait))
        else:
            await self._send_pending()

    async def _show_later(self, wait: float) -> None:
        """Shows the latest text once its second has come, and again while it changes."""
        try:
            while self._pending is not None and self.enabled:
                await asyncio.sleep(wait)
                await self._send_pending()
                wait = MIN_INTERVAL_SECONDS
        finally:
            self._flush = None

    async def _send_pending(self) -> None:
        text, self._pending = self._pending, None
        if text is None or text == self._last_text or not self.enabled:
            return
        self._last_sent = time.monotonic()
        self._last_text = text
        try:
            await self.bot.send_message_draft(
                chat_id=self.chat_id, draft_id=self.draft_id, text=text, parse_mode=None
            )
        except Exception as exc:  # drafts are a nicety; never fail the answer for them
            log.info(
                "drafts refused (%s); falling back to the typing indicator", type(exc).__name__
            )
            self.enabled = False
            await self._start_typing()
            return
        # The draft shows the progress now: the typing indicator's calls would add nothing.
        await self._stop_typing()
