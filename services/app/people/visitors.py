"""The web chat's visitors: anonymous people known by a random token in a cookie.

Why a table (`visitors`) and not an id computed from the cookie: after `/link CODE` the same
cookie has to stand for the person's Telegram id (their taste profile and conversations follow
them), and a link code has to be usable once — both are state the server keeps. Only the
token's SHA-256 is stored, so the table cannot be turned back into working cookies.

A new visitor's user id is a random negative number of at most -2^62. Telegram's user ids are
positive and its chat ids (groups are negative) fit in 53 bits, so a visitor never shares an id
with anything Telegram sends; everything keyed by user id — conversations, feedback,
favourites, the quiz, rate limits, retention, /forget, the shop's console — treats a visitor as
a user without knowing the difference. No personal data is asked for or kept.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import timedelta

from repositories.quiz import QuizRepository
from repositories.visitors import VisitorRepository, merge_person
from services.app.database import Database
from services.app.taste.profiles import rebuild_profile

VISITOR_ID_LIMIT = 2**62  # a visitor's id is at most -VISITOR_ID_LIMIT
LINK_CODE_VALID = timedelta(minutes=15)
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen
CODE_LENGTH = 8


def new_token() -> str:
    """The random value a visitor's cookie carries (256 bits)."""
    return secrets.token_urlsafe(32)


def new_visitor_id() -> int:
    return -(VISITOR_ID_LIMIT + secrets.randbelow(VISITOR_ID_LIMIT - 1))


def is_visitor(user_id: int) -> bool:
    return user_id <= -VISITOR_ID_LIMIT


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def normalize_code(code: str) -> str:
    """«abcd-efgh», «ABCD EFGH» → «ABCDEFGH»."""
    return "".join(c for c in code.upper() if c.isalnum())


def shown_code(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


@dataclass(frozen=True)
class LinkResult:
    linked: bool
    reason: str = ""  # "unknown" (no such code, used or expired), "same" (already this user)
    moved: dict[str, int] = field(default_factory=dict)


class Visitors:
    def __init__(self, database: Database) -> None:
        self._sessions = database.sessions

    async def user_of(self, token: str) -> int | None:
        """The user id the token stands for; None for a token never used to talk."""
        async with self._sessions() as s:
            return await VisitorRepository(s).user_of(_hash(token))

    async def open(self, token: str) -> int:
        """The token's user id, made on first use (a user row with a new visitor id)."""
        async with self._sessions() as s:
            repo = VisitorRepository(s)
            known = await repo.user_of(_hash(token))
            if known is not None:
                return known
            user_id = await repo.create(_hash(token), new_visitor_id())
            await s.commit()
            return user_id

    async def link_code(self, token: str) -> str | None:
        """A one-time code for `/link CODE` in the bot; None when the token already stands
        for a Telegram user (linked before) or was never used."""
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(CODE_LENGTH))
        async with self._sessions() as s:
            repo = VisitorRepository(s)
            user_id = await repo.user_of(_hash(token))
            if user_id is None or not is_visitor(user_id):
                return None
            await repo.set_code(_hash(token), code, LINK_CODE_VALID)
            await s.commit()
        return code

    async def link(self, code: str, telegram_user_id: int) -> LinkResult:
        """Move the visitor's taste (votes, favourites, quiz answers), conversations and
        cookies onto the Telegram user, in one transaction; the code works once."""
        async with self._sessions() as s:
            source = await VisitorRepository(s).take_code(normalize_code(code))
            if source is None:
                return LinkResult(False, "unknown")
            if source == telegram_user_id or not is_visitor(source):
                await s.commit()
                return LinkResult(False, "same")
            quiz = QuizRepository(s)
            answers = {**await quiz.get(source), **await quiz.get(telegram_user_id)}
            moved = await merge_person(s, source, telegram_user_id)
            if answers:
                await quiz.save(telegram_user_id, answers)
            await rebuild_profile(s, telegram_user_id)
            await s.commit()
        return LinkResult(True, moved=moved)


def parse_wine_reference(value: str) -> str | None:
    """A `wine` parameter worth looking up: a UUID or a shop id of up to 100 safe characters."""
    value = value.strip()
    try:
        return str(uuid.UUID(value))
    except ValueError:
        pass
    if 0 < len(value) <= 100 and all(c.isalnum() or c in "-_.:/" for c in value):
        return value
    return None
