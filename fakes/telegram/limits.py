"""Telegram's limits as the fake Bot API keeps them: about 30 messages a second per bot, one a
second per private chat and twenty a minute per group (after a short burst, which Telegram
tolerates), answered with 429 and `parameters.retry_after` past them; and 403 for a chat whose
person blocked the bot.

What counts is a new message (sendMessage, sendPhoto, …), as with Telegram; chat actions,
drafts, edits and callback answers do not. A call refused with 429 does not count either.
Both paces are token buckets (GCRA): the bot's `per_second` with a clump of `bot_burst`
tolerated, a chat's `chat_burst` messages at once, then one per `chat_seconds`
(`group_seconds` in a group). The tolerances stand for Telegram's "or so": they absorb the
network's jitter and this server's own stalls on a busy machine (requests that waited for its
event loop are read together), never a sender that keeps a faster pace.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from fakes.telegram.wire import ApiError

#: Bot API methods that put a new message into a chat.
COUNTED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendVoice",
        "sendAudio",
        "sendVideo",
        "sendAnimation",
        "sendSticker",
        "sendMediaGroup",
        "sendLocation",
        "sendPoll",
        "copyMessage",
        "forwardMessage",
    }
)


@dataclass
class TelegramLimits:
    enabled: bool = True
    per_second: int = 30
    bot_burst: int = 10
    chat_seconds: float = 1.0
    group_seconds: float = 3.0
    chat_burst: int = 5
    slack: float = 0.25
    #: Chats whose person blocked the bot (every call naming them gets 403).
    blocked: set[int] = field(default_factory=set)
    #: Every 429 given: (method, chat_id, retry_after, why: "bot" | "chat").
    refusals: list[tuple[str, int, int, str]] = field(default_factory=list)
    _bot_next: float = 0.0
    _chat_next: dict[int, float] = field(default_factory=dict)

    def check(
        self, method: str, chat_id: int | str | None, at: float | None = None
    ) -> ApiError | None:
        """The error Telegram would answer this call with, or None (and then it counts).
        `at`: when the call arrived (an injected delay does not make it later)."""
        if isinstance(chat_id, int) and chat_id in self.blocked:
            if chat_id > 0:
                return ApiError(403, "Forbidden: bot was blocked by the user")
            return ApiError(403, "Forbidden: bot was kicked from the group chat")
        if not self.enabled or method not in COUNTED_METHODS or not isinstance(chat_id, int):
            return None
        now = time.monotonic() if at is None else at
        slot = 1.0 / self.per_second
        bot_next = max(self._bot_next, now)
        if bot_next - now > (self.bot_burst - 1) * slot:
            return self._refuse(method, chat_id, bot_next - now, "bot")
        interval = self.chat_seconds if chat_id > 0 else self.group_seconds
        next_at = self._chat_next.get(chat_id, now)
        early = next_at - now - (self.chat_burst - 1) * interval
        if early > self.slack:
            return self._refuse(method, chat_id, early, "chat")
        self._bot_next = bot_next + slot
        self._chat_next[chat_id] = max(next_at, now) + interval
        return None

    def _refuse(self, method: str, chat_id: int, seconds: float, why: str) -> ApiError:
        retry_after = max(1, math.ceil(seconds))
        self.refusals.append((method, chat_id, retry_after, why))
        return ApiError(429, f"Too Many Requests: retry after {retry_after}", retry_after)
