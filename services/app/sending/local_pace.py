"""This process's own pacing for the moments the database is away: the same limits as the
shared permit (`Pace`), kept by one process alone. Better than none: a burst of «service
unavailable» notices during an outage would otherwise meet Telegram's per-chat limit."""

from __future__ import annotations

import time

from repositories.telegram_limits import Pace

MAX_CHATS = 10_000  # chats remembered; the ones whose burst has refilled go first


class LocalPace:
    def __init__(self, pace: Pace) -> None:
        self._pace = pace
        self._next_bot = 0.0
        self._hold_until = 0.0
        self._chats: dict[int, tuple[float, float]] = {}  # chat -> (burst left, when)

    def hold(self, seconds: float) -> None:
        self._hold_until = max(self._hold_until, time.monotonic() + seconds)

    def wait(self, chat_id: int) -> float:
        """Seconds until this message may go; its slot is taken."""
        now = time.monotonic()
        interval = self._pace.chat_seconds(chat_id)
        burst = float(max(1, self._pace.chat_burst))
        left, when = self._chats.get(chat_id, (burst, now))
        left = min(burst, left + (now - when) / interval)
        chat_ready = now if left >= 1 else now + (1 - left) * interval
        send_at = max(chat_ready, self._next_bot, self._hold_until)
        self._next_bot = send_at + self._pace.bot_seconds
        self._chats[chat_id] = (left - 1, now)
        if len(self._chats) > MAX_CHATS:
            self._forget_refilled(now, burst)
        return send_at - now

    def _forget_refilled(self, now: float, burst: float) -> None:
        self._chats = {
            chat: (left, when)
            for chat, (left, when) in self._chats.items()
            if left + (now - when) / self._pace.chat_seconds(chat) < burst
        }
