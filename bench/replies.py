"""What each update got, counted from what the fake Bot API accepted (not from the bot's logs).

A bot's log says what it meant to send; the fake Telegram server records what arrived. Summed
over a run, "answered once" from log lines hides an update answered twice beside one never
answered. Here every message a chat was shown (an accepted sendMessage or sendPhoto) is put to
the update it answers, and each update is judged on its own: lost when nothing reached its
chat, duplicated when one message reached it twice.

A message is put to its update by a mark on the call itself: the bot processes of both soaks
run with `mark_calls_with_their_update()`, which adds the id of the update being handled to
every Bot API call made for it (one parameter more; Telegram ignores parameters it does not
know, and the fake records them). Whatever path made the message — the model's answer, the
catalog's fallback, a refusal, an apology, the resent rest of an answer a killed process began
— it carries the update it answers.
"""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

from fakes.telegram_server import SentCall

SHOWN = ("sendMessage", "sendPhoto")  # the calls that put a message in front of the person
#: The Bot API parameter a marked bot process adds to each call: the update it handles.
MARK = "bench_update_id"

_handling: ContextVar[int | None] = ContextVar("bench_handling", default=None)


def mark_calls_with_their_update() -> None:
    """In a bot process, before the bot starts: every Bot API call made while the dispatcher
    handles an update carries that update's id (MARK). Only this process's aiogram dispatcher
    and Bot API session are wrapped; what the bot sends is otherwise unchanged. Tasks started
    while handling (typing, drafts) inherit the mark."""
    from aiogram import Bot, Dispatcher
    from aiogram.methods import TelegramMethod
    from aiogram.types import Update

    from bot.telegram_session import JsonBodySession

    feed_update = Dispatcher.feed_update
    make_request = JsonBodySession.make_request

    async def feed_marked(self: Dispatcher, bot: Bot, update: Update, **kwargs: Any) -> Any:
        token = _handling.set(update.update_id)
        try:
            return await feed_update(self, bot, update, **kwargs)
        finally:
            _handling.reset(token)

    async def request_marked(
        self: JsonBodySession, bot: Bot, method: TelegramMethod[Any], timeout: int | None = None
    ) -> Any:
        if (update_id := _handling.get()) is not None:
            setattr(method, MARK, update_id)  # an extra field: sent with the others
        return await make_request(self, bot, method, timeout)

    Dispatcher.feed_update = feed_marked  # type: ignore[method-assign]
    JsonBodySession.make_request = request_marked  # type: ignore[assignment,method-assign]


def marked_update(call: SentCall) -> int | None:
    """The update a call was marked with (None: made outside any update's handling)."""
    update_id = call.params.get(MARK)
    return update_id if isinstance(update_id, int) else None


class Replies:
    """The messages shown for each update, by its id."""

    def __init__(self, attribute: Callable[[SentCall], int | None] = marked_update) -> None:
        self.attribute = attribute
        self.by_update: defaultdict[int, Counter[str]] = defaultdict(Counter)
        self.unattributed: Counter[str] = Counter()  # shown, but for no update we know of
        self._added = asyncio.Event()

    def add(self, calls: Iterable[SentCall]) -> None:
        for call in calls:
            if not call.ok or call.method not in SHOWN:
                continue
            kind = "card" if call.reply_markup else call.method  # a card: the text with buttons
            shown = f"{kind}: {call.visible_text or ''}"
            update_id = self.attribute(call)
            if update_id is None:
                self.unattributed[shown[:80]] += 1
            else:
                self.by_update[update_id][shown] += 1
        self._added.set()

    async def until_shown(self, update_ids: list[int]) -> None:
        """Return once each of `update_ids` was shown something."""
        while self.lost(update_ids):
            self._added.clear()
            await self._added.wait()

    def of(self, update_id: int) -> Counter[str]:
        return self.by_update.get(update_id, Counter())

    def lost(self, update_ids: Iterable[int]) -> list[int]:
        """Updates whose chat was shown nothing at all for them."""
        return sorted(u for u in update_ids if not self.of(u))

    def duplicated(self, update_ids: Iterable[int]) -> list[int]:
        """Updates whose chat was shown one of their messages more than once."""
        return sorted(u for u in update_ids if any(n > 1 for n in self.of(u).values()))

    def example(self, update_id: int) -> str:
        shown = ", ".join(f"{n}× {text[:60]!r}" for text, n in self.of(update_id).items())
        return f"update {update_id}: {shown or 'nothing shown'}"


def some_ids(update_ids: list[int]) -> str:
    """«0», or «2 [17, 40]» (the count, then the first twenty ids)."""
    return f"{len(update_ids)} {update_ids[:20]}" if update_ids else "0"
