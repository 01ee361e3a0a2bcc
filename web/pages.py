"""Rendering pages: one Jinja2 environment, autoescaping everything (a catalog row or a model's
text can never become markup), strict security headers on every page, and the static assets."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from core.domain import format_price

STATIC_DIR = Path(__file__).parent / "static"
STATIC_PREFIX = "/static"

# No inline script, no outside origin: only what the bot itself serves.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

_env = Environment(
    loader=PackageLoader("web", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _rub(amount: Decimal | int | None) -> str:
    """«1 990 ₽» in a page; a sum that cannot be said (nothing to divide by) is «—»."""
    return "—" if amount is None else format_price(Decimal(amount))


_env.filters["rub"] = _rub


def environment() -> Environment:
    return _env


def render(
    name: str,
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
    csp: str = CSP,
    **context: Any,
) -> web.Response:
    """A page from `web/templates/<name>` with the security headers every page carries."""
    body = _env.get_template(name).render(static=STATIC_PREFIX, **context)
    response = web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
    response.headers.update(security_headers(csp))
    if headers:
        response.headers.update(headers)
    return response


def security_headers(csp: str = CSP) -> dict[str, str]:
    return {
        "Content-Security-Policy": csp,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
        "Cache-Control": "no-store",
    }


def add_static(app: web.Application) -> None:
    """The assets under /static/ (the same files for the console and the chat)."""
    app.router.add_static(STATIC_PREFIX, STATIC_DIR, append_version=True)
