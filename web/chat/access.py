"""Who may use the web chat, from where: the visitor's cookie, the origins allowed to embed it
(`WEB_ORIGINS`), the same-origin rule for its API, and the page's frame rules.

- The page's API (`/chat/api/…`) answers only requests from the chat's own pages: a POST must
  carry an `Origin` of this server and a JSON body, and no response carries CORS headers, so a
  page on any other origin can neither call it with the visitor's cookie nor read an answer.
- The page may be framed only by this server and `WEB_ORIGINS` (CSP `frame-ancestors`).
- `widget.js` is refused (403) to a page whose origin (its `Origin`, else its `Referer`) is
  neither; an allowed origin gets `Access-Control-Allow-Origin` for itself.
"""

from __future__ import annotations

from aiohttp import web

from core.settings import Settings
from services.app.signing import Signer
from web.cookies import set_cookie

COOKIE = "sommelier_visitor"
COOKIE_PURPOSE = "web-chat-visitor"
COOKIE_MAX_AGE = 400 * 24 * 3600  # browsers keep a cookie at most 400 days

_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; object-src 'none'; "
    "frame-ancestors {ancestors}"
)


def origin_of(url: str) -> str:
    """`scheme://host[:port]` of a URL or an Origin header, lower case ('' when there is none)."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme or not rest:
        return ""
    host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    return f"{scheme.lower()}://{host.lower()}" if host else ""


def own_origin(request: web.Request) -> str:
    scheme = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0].strip()
    return f"{scheme.lower()}://{request.host.lower()}"


def same_origin(request: web.Request) -> bool:
    """The request comes from one of the chat's own pages (the Origin a browser sends)."""
    origin = origin_of(request.headers.get("Origin", ""))
    if not origin:
        return False
    if origin == own_origin(request):
        return True
    # Behind a TLS proxy that does not say so: the host is what must match.
    return origin.split("://", 1)[1] == request.host.lower()


def page_origin(request: web.Request) -> str:
    """The origin of the page that asked for this (Origin header, else the Referer's)."""
    return origin_of(request.headers.get("Origin", "")) or origin_of(
        request.headers.get("Referer", "")
    )


def embedding_allowed(request: web.Request, settings: Settings) -> bool:
    origin = page_origin(request)
    return not origin or origin == own_origin(request) or origin in settings.web_origin_list


def page_csp(settings: Settings, embed: bool) -> str:
    """The page's CSP: no inline script; framed by the shop's sites only when embedded."""
    ancestors = " ".join(("'self'", *settings.web_origin_list)) if embed else "'self'"
    return _CSP.format(ancestors=ancestors)


def script_headers(request: web.Request, settings: Settings) -> dict[str, str]:
    headers = {
        "Content-Type": "text/javascript; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "public, max-age=300",
        "Vary": "Origin, Referer",
    }
    origin = page_origin(request)
    if origin and origin in settings.web_origin_list:
        headers["Access-Control-Allow-Origin"] = origin
        headers["Cross-Origin-Resource-Policy"] = "cross-origin"
    return headers


def visitor_token(request: web.Request, signer: Signer) -> str | None:
    """The visitor's random token from their signed cookie (None: none, forged or too old)."""
    raw = request.cookies.get(COOKIE)
    if not raw or len(raw) > 500:
        return None
    value = signer.unsign(raw, COOKIE_PURPOSE, COOKIE_MAX_AGE, legacy=True)
    return value if isinstance(value, str) else None


def cookie_outdated(request: web.Request, signer: Signer) -> bool:
    """The visitor's cookie was signed before each purpose had a key of its own: the page signs
    it again (the same visitor) under the visitor cookie's key."""
    raw = request.cookies.get(COOKIE, "")
    return signer.unsign(raw, COOKIE_PURPOSE, COOKIE_MAX_AGE) is None


def give_cookie(
    response: web.StreamResponse, request: web.Request, signer: Signer, token: str
) -> None:
    """The visitor cookie: HttpOnly, `SameSite=Lax` on the chat's own site; over https inside
    another site's frame (the widget), `SameSite=None; Secure; Partitioned` — a cookie that
    lives only under that shop's site, which browsers still send in third-party frames."""
    value = signer.sign(token, COOKIE_PURPOSE)
    secure = request.secure or request.headers.get("X-Forwarded-Proto") == "https"
    if secure and request.query.get("embed") == "1":
        # Written by hand: Python's http.cookies knows `Partitioned` only from 3.14.
        response.headers.add(
            "Set-Cookie",
            f"{COOKIE}={value}; Max-Age={COOKIE_MAX_AGE}; Path=/chat; HttpOnly; Secure; "
            "SameSite=None; Partitioned",
        )
        return
    set_cookie(response, request, COOKIE, value, COOKIE_MAX_AGE, same_site="Lax", path="/chat")
