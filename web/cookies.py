"""The cookies the web pages set (the web chat's visitor, the console's login), signed by the
services' `Signer`: each purpose under its own key derived from one every replica shares —
`WEB_SECRET` when set, else one derived from the bot's token or API token, else a random key
kept in DATA_DIR (services/app/signing.py)."""

from __future__ import annotations

from aiohttp import web


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
