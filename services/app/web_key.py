"""The key that signs what the web pages hand out (links, cookies, «Купить» redirects) and keys
the console's person hashes: `WEB_SECRET` when set, else one derived from the bot's token or
API token, else a random key kept in DATA_DIR (a single process on the embedded database).
Every replica must derive the same key. (Here, below the adapters, so the bot's /console
command and the facade's buy links sign with the key the web pages check.)"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path

from core.settings import Settings


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
