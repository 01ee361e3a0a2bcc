"""The console's «Выбор магазина» page: the shop's boost and bury rules (list, add, delete) and
how the boosted wines did against the rest.

- `GET /console/rules` — the rules, the form, the comparison for the period;
- `GET /console/rules.csv?table=groups|rules` — a comparison table as CSV;
- `POST /console/rules` — add a rule (303 back to the page; a bad rule: 400, the page with
  what is wrong and the form as it was filled);
- `POST /console/rules/<id>/delete` — delete one (303 back).

Writes need the console's login (or `Authorization: Bearer <API_TOKEN>`, a script's): a form
carries a token signed for the admin (purpose `console-form`) and must come from this
server's own pages (`Origin`); the login cookie is SameSite=Strict besides."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from core.errors import PickRuleError
from core.shop_picks import ACTIONS, FIELDS
from services.app.console.reports import PERIODS
from services.app.container import Services
from services.app.picks.rules import ACTION_NAMES, FIELD_NAMES, ShopRules
from web.chat.access import origin_of, same_origin
from web.console.views import VIEWS, Table
from web.pages import render

log = logging.getLogger(__name__)

FORM_PURPOSE = "console-form"
FORM_HOURS = 12
MAX_FORM_BYTES = 16_384
COMPARE_COLUMNS = [
    ("group", "Вина"),
    ("wines", "Вин"),
    ("shown", "Показов"),
    ("up", "Нравится"),
    ("down", "Не нравится"),
    ("clicks", "«Купить»"),
    ("click_rate", "Кликов, %"),
    ("orders", "Заказов"),
]

Check = Callable[[web.Request], bool]
AdminOf = Callable[[web.Request], "int | None"]


def add_rules(
    app: web.Application,
    services: Callable[[web.Request], Services],
    is_admin: Check,
    admin_of: AdminOf,
    window_of: Callable[[web.Request], Any],
    refused: Callable[[], web.Response],
) -> None:
    """The page's routes; register before the console's generic `/console/<view>` routes."""

    async def page(request: web.Request) -> web.StreamResponse:
        if not is_admin(request):
            return refused()
        return await _page(request, services(request), window_of(request), admin_of(request))

    async def download(request: web.Request) -> web.StreamResponse:
        if not is_admin(request):
            return refused()
        w = window_of(request)
        tables = await _tables(services(request).shop_rules, w)
        for table in tables:
            if table.name == request.query.get("table"):
                return web.Response(
                    body=("\ufeff" + table.csv()).encode(),
                    content_type="text/csv",
                    charset="utf-8",
                    headers={
                        "Content-Disposition": (
                            f'attachment; filename="sommelier-rules-{table.name}-{w.days}d.csv"'
                        ),
                        "Cache-Control": "no-store",
                        "X-Content-Type-Options": "nosniff",
                    },
                )
        raise web.HTTPNotFound()

    async def add(request: web.Request) -> web.StreamResponse:
        form = await _checked_form(request, is_admin, admin_of, services)
        if form is None:
            return refused()
        shop = services(request)
        fields = {k: form.get(k, "") for k in ("action", "field", "value", "note")}
        fields |= {k: form.get(k) or None for k in ("starts_on", "ends_on")}
        try:
            rule = await shop.shop_rules.add(fields, admin_of(request))
        except PickRuleError as exc:
            w = window_of(request)
            return await _page(request, shop, w, admin_of(request), str(exc), fields, status=400)
        log.info("shop rule %s added: %s %s", rule.id, rule.action, rule.field)
        raise web.HTTPSeeOther(f"/console/rules?days={window_of(request).days}#rule-{rule.id}")

    async def delete(request: web.Request) -> web.StreamResponse:
        if await _checked_form(request, is_admin, admin_of, services) is None:
            return refused()
        try:
            rule_id = int(request.match_info["rule"])
        except ValueError:
            raise web.HTTPNotFound() from None
        await services(request).shop_rules.delete(rule_id)
        raise web.HTTPSeeOther(f"/console/rules?days={window_of(request).days}")

    app.router.add_get("/console/rules", page)
    app.router.add_get("/console/rules.csv", download)
    app.router.add_post("/console/rules", add)
    app.router.add_post(r"/console/rules/{rule:\d+}/delete", delete)


async def _checked_form(
    request: web.Request,
    is_admin: Check,
    admin_of: AdminOf,
    services: Callable[[web.Request], Services],
) -> dict[str, str] | None:
    """The posted form of an admin, or None (refused): from this server's own page with a
    token signed for this admin, or a script's bearer token."""
    if not is_admin(request):
        return None
    if request.content_length is not None and request.content_length > MAX_FORM_BYTES:
        raise web.HTTPRequestEntityTooLarge(MAX_FORM_BYTES, request.content_length)
    form = {k: str(v) for k, v in (await request.post()).items()}
    admin = admin_of(request)
    if admin is None:  # the bearer token: no cookie a page elsewhere could ride on
        return form
    if origin_of(request.headers.get("Origin", "")) and not same_origin(request):
        log.warning("console form from another origin refused")
        return None
    signer = services(request).signer
    if signer.unsign(form.get("csrf", ""), FORM_PURPOSE, FORM_HOURS * 3600) != admin:
        log.warning("console form without a valid token refused")
        return None
    return form


async def _tables(rules: ShopRules, w: Any) -> list[Table]:
    data = await rules.compare(w)
    return [
        Table("groups", "Поднятые и остальные вина", COMPARE_COLUMNS, data["groups"]),
        Table("rules", "По правилам", [("group", "Правило"), *COMPARE_COLUMNS[1:]], data["rules"]),
    ]


async def _page(
    request: web.Request,
    services: Services,
    w: Any,
    admin: int | None,
    error: str | None = None,
    filled: dict[str, Any] | None = None,
    status: int = 200,
) -> web.Response:
    rows = await services.shop_rules.rules()
    query = f"days={w.days}"
    return render(
        "console/rules.html",
        status=status,
        view="rules",
        views=VIEWS,
        days=w.days,
        path="",
        periods=PERIODS,
        paths=(),
        query=query,
        rules=rows,
        actions=[(a, ACTION_NAMES[a]) for a in ACTIONS],
        fields=[(f, FIELD_NAMES[f]) for f in FIELDS],
        action_names=ACTION_NAMES,
        field_names=FIELD_NAMES,
        tables=await _tables(services.shop_rules, w),
        csrf=services.signer.sign(admin, FORM_PURPOSE) if admin is not None else "",
        error=error,
        filled=filled or {},
    )
