"""The console's routes on the bot's HTTP server.

- `/console/login?t=…` — an admin's one-time link (from /console in the bot) logs them in:
  a signed cookie (HttpOnly, SameSite=Strict, Secure over https) for LOGIN_HOURS;
- `/console/<view>` and `/console/<view>.csv?table=…` — only with that login (of an admin
  still in ADMIN_IDS) or `Authorization: Bearer <API_TOKEN>`; anyone else gets 403 and nothing
  of the data;
- `/go/<token>` — «Купить»: a genuine token is counted and redirected to the wine's shop page,
  anything else is 404 (never a redirect to an address from the request);
- `/metrics` — Prometheus text, behind API_TOKEN like the API (without it: served only when
  the server is not public); the backlog and the sales gauges are read when scraped."""

from __future__ import annotations

import hmac
import logging
from typing import Any

from aiohttp import web

from services.app.console.reports import PERIODS, window
from services.app.container import Services
from services.app.ops.metrics import CONTENT_TYPE, SALES_DAYS, scrape
from web.console.rules import add_rules
from web.console.views import BUILDERS, VIEWS
from web.cookies import set_cookie
from web.pages import render

log = logging.getLogger(__name__)

COOKIE = "console"
# The login cookie's signing purpose; the key is derived from this very string, so it keeps
# the value it had when the login was called a session (logins still open stay valid).
LOGIN_PURPOSE = "console-session"
LOGIN_HOURS = 12
PATHS = ("agent", "catalog_prompt", "offline", "welcome", "similar", "photo", "inline", "group")

SERVICES_KEY = web.AppKey("console_services", Services)


def add_console(app: web.Application, services: Services) -> None:
    app[SERVICES_KEY] = services
    app.router.add_get("/console/login", login)
    app.router.add_get("/console", home)
    # «Выбор магазина» (the shop's boost and bury rules) before the generic views' routes.
    add_rules(app, lambda r: r.app[SERVICES_KEY], _admin, _login_admin, _window, _refused)
    app.router.add_get(r"/console/{view:[a-z]+}.csv", download)
    app.router.add_get(r"/console/{view:[a-z]+}", page)
    app.router.add_get(r"/go/{token}", go)
    app.router.add_get("/metrics", metrics)


async def home(request: web.Request) -> web.StreamResponse:
    raise web.HTTPSeeOther("/console/overview")


def _bearer_ok(request: web.Request) -> bool:
    token = request.app[SERVICES_KEY].settings.api_token
    if not token:
        return False
    given = request.headers.get("Authorization", "")
    return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


def _still_admin(request: web.Request, admin: object) -> bool:
    """Whoever a link or login was made for is still in ADMIN_IDS (checked on every request:
    an admin removed from it loses a login still open)."""
    return type(admin) is int and admin in request.app[SERVICES_KEY].settings.admin_id_set


def _admin(request: web.Request) -> bool:
    return _bearer_ok(request) or _login_admin(request) is not None


def _login_admin(request: web.Request) -> int | None:
    """The admin whose login cookie this is (still in ADMIN_IDS), else None."""
    cookie = request.cookies.get(COOKIE)
    if not cookie:
        return None
    admin = request.app[SERVICES_KEY].signer.unsign(cookie, LOGIN_PURPOSE, LOGIN_HOURS * 3600)
    return admin if _still_admin(request, admin) else None


def _refused() -> web.Response:
    return render("console/refused.html", status=403)


async def login(request: web.Request) -> web.StreamResponse:
    admin = await request.app[SERVICES_KEY].console_access.redeem(request.query.get("t", ""))
    if admin is None or not _still_admin(request, admin):
        log.warning("console link refused (forged, expired or used) from %s", request.remote)
        return _refused()
    response = web.Response(status=303, headers={"Location": "/console/overview"})
    token = request.app[SERVICES_KEY].signer.sign(admin, LOGIN_PURPOSE)
    set_cookie(response, request, COOKIE, token, LOGIN_HOURS * 3600, path="/console")
    return response


def _window(request: web.Request):  # type: ignore[no-untyped-def]
    try:
        days = int(request.query.get("days", "30"))
    except ValueError:
        days = 30
    if days not in PERIODS:
        days = 30
    path = request.query.get("path") or None
    return window(days, path if path in PATHS else None)


async def page(request: web.Request) -> web.StreamResponse:
    if not _admin(request):
        return _refused()
    view = request.match_info["view"]
    if view not in BUILDERS:
        raise web.HTTPNotFound()
    w = _window(request)
    console = request.app[SERVICES_KEY].console
    context = await BUILDERS[view](console, w)
    return render(
        f"console/{view}.html",
        view=view,
        views=VIEWS,
        days=w.days,
        path=w.path or "",
        periods=PERIODS,
        paths=PATHS,
        query=_query(w.days, w.path),
        **context,
    )


def _query(days: int, path: str | None) -> str:
    return f"days={days}" + (f"&path={path}" if path else "")


async def download(request: web.Request) -> web.StreamResponse:
    if not _admin(request):
        return _refused()
    view = request.match_info["view"]
    if view not in BUILDERS:
        raise web.HTTPNotFound()
    w = _window(request)
    context = await BUILDERS[view](request.app[SERVICES_KEY].console, w)
    name = request.query.get("table", "")
    for table in context["tables"]:
        if table.name == name:
            filename = f"sommelier-{view}-{name}-{w.days}d.csv"
            return web.Response(
                body=("\ufeff" + table.csv()).encode(),  # BOM: Excel reads it as UTF-8
                content_type="text/csv",
                charset="utf-8",
                headers={
                    "Content-Disposition": f'attachment; filename="{filename}"',
                    "Cache-Control": "no-store",
                    "X-Content-Type-Options": "nosniff",
                },
            )
    raise web.HTTPNotFound()


async def go(request: web.Request) -> web.StreamResponse:
    url = await request.app[SERVICES_KEY].clicks.follow(request.match_info["token"])
    if url is None:
        raise web.HTTPNotFound()
    raise web.HTTPFound(
        url, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    )


async def metrics(request: web.Request) -> web.StreamResponse:
    services = request.app[SERVICES_KEY]
    settings = services.settings
    if settings.api_token:
        if not _bearer_ok(request):
            return web.json_response({"error": "unauthorized"}, status=401)
    elif settings.public_base_url:
        raise web.HTTPNotFound()  # a public server shows its metrics only behind API_TOKEN
    try:
        backlog: int | None = await services.ledger.backlog()
    except Exception:  # the database being down must not hide the other metrics
        backlog = None
    try:
        sales: dict[str, Any] | None = await services.console.sales_totals(SALES_DAYS)
    except Exception as exc:  # the database being down must not hide the other metrics
        log.warning("sales not read for /metrics: %s", type(exc).__name__)
        sales = None
    return web.Response(body=scrape(backlog, sales), headers={"Content-Type": CONTENT_TYPE})
