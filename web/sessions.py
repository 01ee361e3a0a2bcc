"""Signed values the web layer hands out: one-time links, session cookies, visitor ids.

Signed with itsdangerous (timed, URL-safe) under a key every replica shares: `WEB_SECRET`
when set, else one derived from the bot's token or API token, else a random key kept in
DATA_DIR (a single process on the embedded database)."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from itsdangerous import BadSignature, URLSafeTimedSerializer

from services.app.web_key import signing_key

__all__ = ["Signer", "set_cookie", "signing_key"]


class Signer:
    """`sign(value, purpose)` → token; `unsign(token, purpose, max_age)` → value or None.
    A token made for one purpose (say, a console link) is refused for any other."""

    def __init__(self, key: str) -> None:
        self.key = key

    def sign(self, value: Any, purpose: str) -> str:
        return URLSafeTimedSerializer(self.key, salt=purpose).dumps(value)

    def unsign(self, token: str, purpose: str, max_age: float) -> Any | None:
        try:
            return URLSafeTimedSerializer(self.key, salt=purpose).loads(token, max_age=max_age)
        except BadSignature:  # forged, altered, expired or made for another purpose
            return None


def set_cookie(
    response: web.StreamResponse,
    request: web.Request,
    name: str,
    value: str,
    max_age: int,
    *,
    same_site: str = "Strict",
    path: str = "/",
) -> None:
    """HttpOnly always; Secure whenever the page was reached over https."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=path,
        httponly=True,
        samesite=same_site,
        secure=request.secure or request.headers.get("X-Forwarded-Proto") == "https",
    )
