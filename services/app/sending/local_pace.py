"""This process's own count of what it sent: the same limits as the shared permit (`Pace`),
counted where each message goes. While the database is away it paces alone (a burst of
«service unavailable» notices would otherwise meet Telegram's per-chat limit); once it is back,
the shared permit is given this count as a floor (`chat_ready_in`, `bot_ready_in`), since it
knows nothing of what was sent meanwhile, nor of a 429's hold this process could not share."""

from __future__ import annotations

import asyncio
import contextlib
import time

from repositories.telegram_limits import Pace

MAX_CHATS = 10_000  # chats remembered; past that, the ones that hold nothing back go
# The longest a message waits for the one before it to the same chat to be answered (each is
# answered or fails within the session's timeout; this only bounds a count gone wrong).
IN_FLIGHT_WAIT_SECONDS = 5.0
# Messages (to any chats) that may leave at the same moment; past them, they leave the bot's
# slot apart by the clock they actually go at. Slots are taken before a wait, and a stalled loop
# wakes every message whose slot passed meanwhile at once: Telegram counts the clump it gets.
SEND_CLUMP = 5


class LocalPace:
    """Telegram's count as a GCRA, the fake Bot API's and the permit's too: each chat's next
    theoretical slot, `chat_burst` of them allowed ahead of the clock; and the bot's."""

    def __init__(self, pace: Pace) -> None:
        self._pace = pace
        self._next_bot = 0.0
        self._hold_until = 0.0
        self._chats: dict[int, float] = {}  # chat -> its next theoretical slot (monotonic)
        # The same count from Telegram's answers, which come after each message arrived: a
        # message slot reserved ahead (several waiting at once) goes only when the answers
        # before it allow it too, however late a stalled loop sent them.
        self._answers: dict[int, float] = {}
        self._in_flight: dict[int, int] = {}  # chat -> messages sent, not yet answered
        self._idle: dict[int, asyncio.Event] = {}  # chat -> set when none is in flight
        self._next_send = 0.0  # the bot's next slot, counted when its messages actually left

    def hold(self, seconds: float) -> None:
        self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    def held_for(self) -> float:
        """Seconds left of a 429's hold (0 or less: none)."""
        return self._hold_until - time.monotonic()

    def chat_ready_in(self, chat_id: int) -> float:
        """Seconds before the chat's pace lets this process send to it (nothing taken)."""
        now = time.monotonic()
        return max(0.0, self._chat_ready_at(chat_id, now) - now)

    def bot_ready_in(self) -> float:
        """Seconds before the bot's pace, or a hold, lets this process send (nothing taken)."""
        return max(0.0, self._next_bot - time.monotonic(), self.held_for())

    def take(self, chat_id: int, at: float) -> None:
        """A message goes to the chat at `at` (monotonic): count it there."""
        self._chats[chat_id] = max(self._chats.get(chat_id, at), at) + self._interval(chat_id)
        self._next_bot = max(self._next_bot, at) + self._pace.bot_seconds
        if len(self._chats) > MAX_CHATS:
            now = time.monotonic()
            self._chats = {chat: next_at for chat, next_at in self._chats.items() if next_at > now}
            self._answers = {chat: at for chat, at in self._answers.items() if at > now}

    def answered(self, chat_id: int, at: float) -> None:
        """Telegram answered a message to the chat at `at`: it arrived no later than that, so
        the chat's next slot is no earlier than `at` plus its interval. A stalled event loop
        (here or at Telegram's end) can send a message later than it was counted; counted
        from its answer too, the next one never arrives early."""
        interval = self._interval(chat_id)
        self._chats[chat_id] = max(self._chats.get(chat_id, at), at + interval)
        self._answers[chat_id] = max(self._answers.get(chat_id, at), at) + interval
        left = self._in_flight.get(chat_id, 0) - 1
        if left > 0:
            self._in_flight[chat_id] = left
        elif chat_id in self._in_flight:
            del self._in_flight[chat_id]
            self._idle.pop(chat_id).set()

    async def settle(self, chat_id: int) -> None:
        """Wait until the messages to the chat still in flight are answered (at most
        `IN_FLIGHT_WAIT_SECONDS`), the answers' count lets one more arrive, and the bot's count
        of what actually left lets one more go; `sending` must follow with no await between,
        so that two messages never both pass."""
        deadline = time.monotonic() + IN_FLIGHT_WAIT_SECONDS
        while True:
            idle = self._idle.get(chat_id)
            if idle is not None and (left := deadline - time.monotonic()) > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(idle.wait(), left)
                continue  # another message may have gone meanwhile: look again
            now = time.monotonic()
            burst_ahead = self._interval(chat_id) * (max(1, self._pace.chat_burst) - 1)
            gap = max(
                self._answers.get(chat_id, now) - burst_ahead - now,
                self._next_send - (SEND_CLUMP - 1) * self._pace.bot_seconds - now,
            )
            if gap <= 0:
                return
            await asyncio.sleep(gap)

    def sending(self, chat_id: int) -> None:
        """A message to the chat goes now; `answered` counts it back."""
        self._next_send = max(self._next_send, time.monotonic()) + self._pace.bot_seconds
        self._in_flight[chat_id] = self._in_flight.get(chat_id, 0) + 1
        self._idle.setdefault(chat_id, asyncio.Event())

    def reserve(self, chat_id: int) -> float:
        """The database is away: seconds until this message's slot, taken at once (so that
        the next message, to any chat, counts it)."""
        now = time.monotonic()
        at = max(self._chat_ready_at(chat_id, now), self._next_bot, self._hold_until)
        self.take(chat_id, at)
        return at - now

    def _chat_ready_at(self, chat_id: int, now: float) -> float:
        burst_ahead = self._interval(chat_id) * (max(1, self._pace.chat_burst) - 1)
        return max(now, self._chats.get(chat_id, now) - burst_ahead)

    def _interval(self, chat_id: int) -> float:
        return self._pace.chat_seconds(chat_id)
