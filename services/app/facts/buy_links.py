"""«Купить» through the bot's own short redirect: `/go/<wine><answer>.<mac>`.

The token is the wine's and the answer's ids (32 bytes, URL-safe base64) and an HMAC-SHA256
of them truncated to 16 bytes under the web signing key: about 70 characters, never
expiring (a card in an old chat still works), and unforgeable — a changed or made-up token
is refused (404), so the redirect can only lead to a wine's own shop page."""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid

PREFIX = "/go/"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BuyLinks:
    def __init__(self, key: str, base_url: str) -> None:
        self._key = hashlib.sha256(f"buy-link:{key}".encode()).digest()
        self.base_url = base_url.rstrip("/")

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()[:16]

    def token(self, wine_id: uuid.UUID, fact_id: uuid.UUID) -> str:
        payload = wine_id.bytes + fact_id.bytes
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def link(self, wine_id: uuid.UUID, fact_id: uuid.UUID) -> str:
        return f"{self.base_url}{PREFIX}{self.token(wine_id, fact_id)}"

    def read(self, token: str) -> tuple[uuid.UUID, uuid.UUID] | None:
        """(wine, answer) of a genuine token; None for anything else."""
        payload_text, _, mac_text = token.partition(".")
        try:
            payload, mac = _unb64(payload_text), _unb64(mac_text)
        except (ValueError, TypeError):
            return None
        if len(payload) != 32 or not hmac.compare_digest(mac, self._mac(payload)):
            return None
        return uuid.UUID(bytes=payload[:16]), uuid.UUID(bytes=payload[16:])
