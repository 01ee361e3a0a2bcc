"""A per-key sliding-window rate limit (in-process)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Hashable


class SlidingWindowLimiter:
    def __init__(self, per_window: int, window_seconds: float = 60.0) -> None:
        self.per_window = per_window
        self.window = window_seconds
        self._events: dict[Hashable, deque[float]] = {}

    def allow(self, key: Hashable) -> bool:
        now = time.monotonic()
        events = self._events.setdefault(key, deque())
        while events and now - events[0] > self.window:
            events.popleft()
        if len(events) >= self.per_window:
            return False
        events.append(now)
        if len(self._events) > 100_000:
            self._forget_idle(now)
        return True

    def _forget_idle(self, now: float) -> None:
        for key in [k for k, e in self._events.items() if not e or now - e[-1] > self.window]:
            del self._events[key]
