"""The referral a «Купить» click adds to the shop's URL, so the shop's analytics see where the
person came from and its orders can carry the click back.

The token is 12 bytes in URL-safe base64 (16 characters): 6 random bytes and the first 6
bytes of their HMAC-SHA256 under a key of its own (derived from the web signing key for this
one purpose). A token that was changed or made up fails the check before any lookup; a
genuine one names its click through `buy_clicks.token`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import parse_qsl, quote, unquote_plus, urlsplit, urlunsplit

from services.app.signing import purpose_key

PURPOSE = "order-referral"
RANDOM_BYTES = 6
MAC_BYTES = 6
TOKEN_LENGTH = 16


class Referrals:
    """`params`: the fixed pairs (REFERRAL_PARAMS, «utm_source=sommelier»); `token_param`: the
    name the click's token goes under (REFERRAL_TOKEN_PARAM; empty: no token)."""

    def __init__(self, master_key: str, params: str, token_param: str) -> None:
        self._key = bytes.fromhex(purpose_key(master_key, PURPOSE))
        self.fixed = [(n, v) for n, v in parse_qsl(params, keep_blank_values=True) if n]
        self.token_param = token_param

    def _mac(self, nonce: bytes) -> bytes:
        return hmac.new(self._key, nonce, hashlib.sha256).digest()[:MAC_BYTES]

    def new_token(self) -> str | None:
        if not self.token_param:
            return None
        nonce = secrets.token_bytes(RANDOM_BYTES)
        return base64.urlsafe_b64encode(nonce + self._mac(nonce)).decode()

    def genuine(self, token: str) -> bool:
        if len(token) != TOKEN_LENGTH:
            return False
        try:
            raw = base64.urlsafe_b64decode(token.encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            return False
        return len(raw) == RANDOM_BYTES + MAC_BYTES and hmac.compare_digest(
            raw[RANDOM_BYTES:], self._mac(raw[:RANDOM_BYTES])
        )

    def read(self, value: str) -> str | None:
        """The genuine token in what an order carried: the token itself, or a landing URL or
        query string with it under the token's parameter; None for anything else."""
        value = value.strip()
        if self.token_param and ("=" in value or "?" in value):
            query = urlsplit(value).query if "?" in value else value
            found = [v for n, v in parse_qsl(query) if n == self.token_param]
            value = found[-1] if found else ""
        return value if self.genuine(value) else None

    def tag(self, url: str, token: str | None) -> str:
        """The shop's URL with our pairs added; its own query and fragment are kept as they
        were, except pairs under our names (ours must be the ones the shop reads)."""
        pairs = list(self.fixed) + ([(self.token_param, token)] if token else [])
        if not pairs:
            return url
        parts = urlsplit(url)
        ours = {name for name, _ in pairs}
        kept = [
            p for p in parts.query.split("&") if p and unquote_plus(p.partition("=")[0]) not in ours
        ]
        added = [f"{quote(n, safe='')}={quote(v, safe='')}" for n, v in pairs]
        return urlunsplit(parts._replace(query="&".join(kept + added)))
