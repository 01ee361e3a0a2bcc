"""Who may open the shop's console: an admin's one-time link (sent by the bot on /console,
signed, valid for LINK_MINUTES, opening the console once: its nonce is stored when used, so
every replica refuses it afterwards)."""

from __future__ import annotations

import secrets

from core.errors import DatabaseUnavailableError
from repositories.facts import use_console_link
from services.app.database import DATABASE_ERRORS, Database
from services.app.signing import Signer

LINK_MINUTES = 10
LINK_PURPOSE = "console-link"
LOGIN_PATH = "/console/login"


class ConsoleAccess:
    def __init__(self, database: Database, signer: Signer, base_url: str | None) -> None:
        self._sessions = database.sessions
        self._signer = signer
        self.base_url = base_url

    def link(self, admin_id: int) -> str | None:
        """The one-time link for this admin; None without a public URL."""
        if self.base_url is None:
            return None
        token = self._signer.sign({"a": admin_id, "n": secrets.token_urlsafe(12)}, LINK_PURPOSE)
        return f"{self.base_url}{LOGIN_PATH}?t={token}"

    async def redeem(self, token: str) -> int | None:
        """The admin's id for a genuine, fresh, unused link; None otherwise."""
        value = self._signer.unsign(token, LINK_PURPOSE, LINK_MINUTES * 60)
        if not isinstance(value, dict) or not isinstance(value.get("n"), str):
            return None
        try:
            async with self._sessions() as s:
                fresh = await use_console_link(s, value["n"])
                await s.commit()
        except (DatabaseUnavailableError, *DATABASE_ERRORS):
            return None
        return int(value["a"]) if fresh else None
