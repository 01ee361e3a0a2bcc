"""The key that signs what the web pages hand out (links, cookies, «Купить» redirects) and keys
the console's person hashes: `WEB_SECRET` when set, else one derived from the bot's token or
API token, else a random key kept in DATA_DIR (a single process on the embedded database).
Every replica must derive the same key. (Here, below the adapters, so the bot's /console
command and the answers' buy links sign with the key the web pages check.)

`Signer` signs each purpose (a visitor's cookie, a console link, a console login) under a key
of its own, an HMAC of the purpose under that master key: a token made for one purpose can never
pass for another, and the same WEB_SECRET gives every replica the same keys."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer

from core.settings import Settings

Clock = Callable[[], float]


def signing_key(settings: Settings) -> str:
    if settings.web_secret:
        return settings.web_secret
    shared = settings.telegram_bot_token or settings.api_token
    if shared:
        return hashlib.sha256(f"sommelier-web:{shared}".encode()).hexdigest()
    path = Path(settings.data_dir).expanduser() / "web.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def purpose_key(master: str, purpose: str) -> str:
    """The key of one signing purpose, derived from the master key (HMAC-SHA256)."""
    message = f"sommelier-web-purpose:{purpose}".encode()
    return hmac.new(master.encode(), message, hashlib.sha256).hexdigest()


class _ClockedSigner(TimestampSigner):
    """itsdangerous's timed signer, reading the time from the given clock."""

    def __init__(self, *args: Any, clock: Clock, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clock = clock

    def get_timestamp(self) -> int:
        return int(self._clock())


class Signer:
    """`sign(value, purpose)` → token; `unsign(token, purpose, max_age)` → value or None (forged,
    altered, older than max_age seconds, or made for another purpose). `clock` is when "now" is
    (tests sign in the past with it)."""

    def __init__(self, master: str, clock: Clock = time.time) -> None:
        self._master = master
        self._clock = clock

    def _serializer(self, key: str, purpose: str) -> URLSafeTimedSerializer:
        return URLSafeTimedSerializer(
            key, salt=purpose, signer=_ClockedSigner, signer_kwargs={"clock": self._clock}
        )

    def sign(self, value: Any, purpose: str) -> str:
        return self._serializer(purpose_key(self._master, purpose), purpose).dumps(value)

    def unsign(
        self, token: str, purpose: str, max_age: float, *, legacy: bool = False
    ) -> Any | None:
        """`legacy`: a token signed the way it was before each purpose had a key of its own
        (under the master key) is taken too — only for the visitor's 400-day cookie, re-signed
        when the chat page opens."""
        keys = [purpose_key(self._master, purpose)] + ([self._master] if legacy else [])
        for key in keys:
            try:
                return self._serializer(key, purpose).loads(token, max_age=max_age)
            except BadSignature:
                continue
        return None
