"""The shop's orders in: an export read by `sommelier orders` (a real process) and the webhook
`POST /v1/orders` over HTTP (signed, forged, bearer); idempotent by order id, bad rows skipped
with their reasons, a cancelled order out of revenue."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import aiohttp
from sqlalchemy import text

from api.orders import signature_of
from services.app.facts.referrals import Referrals
from services.app.runtime import Runtime
from tests.api_harness import running_api
from tests.conftest import TEST_EMBEDDING_DIM
from tests.test_cli import sommelier

SECRET = "shop-webhook-secret"
TOKEN = "api-secret"


async def _skus(runtime: Runtime, count: int) -> list[str]:
    """Give `count` catalog wines the shop's SKUs, as a feed import would."""
    async with runtime.engine.begin() as conn:
        slugs = (
            await conn.scalars(text("SELECT slug FROM wines ORDER BY slug LIMIT :n"), {"n": count})
        ).all()
        for n, slug in enumerate(slugs):
            await conn.execute(
                text("UPDATE wines SET external_id = :e WHERE slug = :s"),
                {"e": f"SKU-{n}", "s": slug},
            )
    return [f"SKU-{n}" for n in range(count)]


async def _orders(runtime: Runtime) -> dict[str, dict[str, Any]]:
    async with runtime.engine.connect() as conn:
        rows = await conn.execute(
            text(
                "SELECT o.order_id, o.status, o.total_rub, count(l.line_no) AS lines, "
                "count(l.wine_id) AS known FROM orders o LEFT JOIN order_lines l USING (order_id) "
                "GROUP BY o.order_id"
            )
        )
        return {r["order_id"]: dict(r) for r in rows.mappings()}


def _export(skus: list[str]) -> str:
    return "\n".join(
        [
            "Номер заказа;Дата заказа;Артикул;Количество;Цена;Статус",
            f"1001;27.11.2026 12:00;{skus[0]};2;1 990,00;Новый",
            f"1001;27.11.2026 12:00;{skus[1]};1;990;Новый",
            f"1002;27.11.2026 13:00;{skus[2]};1;по запросу;Оплачен",
            f"1003;2026-11-27T14:00:00+03:00;{skus[0]};1;1500;Отменен",
            f"1004;вчера;{skus[0]};1;1000;Новый",
            "1005;27.11.2026 15:00;NOT-IN-FEED;3;500;Доставлен",
        ]
    )


async def test_an_export_is_imported_by_the_command_idempotently_with_bad_rows_skipped(
    seeded: Runtime, tmp_path: Path
) -> None:
    skus = await _skus(seeded, 3)
    export = tmp_path / "orders.csv"
    export.write_bytes(_export(skus).encode("cp1251"))  # as 1C saves it
    env = {
        "DATABASE_URL": seeded.location.url.render_as_string(hide_password=False),
        "EMBEDDING_DIM": str(TEST_EMBEDDING_DIM),
    }

    run = await sommelier(tmp_path, "orders", str(export), "--dry-run", "--json", **env)
    assert run.code == 0, str(run)
    assert json.loads(run.out)["inserted"] == 3 and await _orders(seeded) == {}

    run = await sommelier(tmp_path, "orders", str(export), "--json", **env)
    assert run.code == 0, str(run)
    report = json.loads(run.out)
    assert (report["inserted"], report["cancelled"], report["skipped"]) == (3, 1, 2), report
    reasons = {(p["row"], p["id"], p["field"]) for p in report["problems"]}
    assert (4, "1002", "price_rub") in reasons and (6, "1004", "placed_at") in reasons
    stored = await _orders(seeded)
    assert set(stored) == {"1001", "1003", "1005"}
    assert stored["1001"]["total_rub"] == Decimal("4970.00") and stored["1001"]["known"] == 2
    assert stored["1003"]["status"] == "cancelled"
    assert (stored["1005"]["lines"], stored["1005"]["known"]) == (1, 0)  # kept, not in the feed

    run = await sommelier(tmp_path, "orders", str(export), **env)  # the schedule's re-read
    assert run.code == 0 and "0 new, 0 updated, 3 unchanged" in run.out, str(run)
    assert "row 4 (id 1002): price_rub: not a price: 'по запросу'" in run.out, str(run)

    more = f"1001;27.11.2026 12:00;{skus[1]};3;990"  # three bottles of the second wine now
    changed = _export(skus).replace(f"1001;27.11.2026 12:00;{skus[1]};1;990", more)
    export.write_text(changed, encoding="utf-8")
    run = await sommelier(tmp_path, "orders", str(export), "--json", **env)
    assert (json.loads(run.out)["updated"], json.loads(run.out)["unchanged"]) == (1, 2), str(run)
    assert (await _orders(seeded))["1001"]["total_rub"] == Decimal("6950.00")

    missing = tmp_path / "nowhere.csv"
    run = await sommelier(tmp_path, "orders", str(missing), **env)
    assert run.code == 1 and "cannot read" in run.err, str(run)
    async with seeded.engine.connect() as conn:
        imports = (
            await conn.execute(text("SELECT source, error FROM order_syncs ORDER BY id"))
        ).all()
    assert [s for s, _ in imports] == ["orders.csv"] * 3 + ["nowhere.csv"]
    assert imports[-1][1] and "cannot read" in imports[-1][1]


async def _post(base: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{base}/v1/orders", data=body, headers=headers) as r,
    ):
        return r.status, await r.json()


def _order(order_id: str, sku: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": order_id,
        "created_at": "2026-11-27T12:00:00Z",
        "line_items": [{"sku": sku, "quantity": 1, "price": "1200.50"}],
        **extra,
    }


async def test_the_webhook_takes_signed_or_bearer_orders_and_refuses_forged_ones(
    seeded: Runtime,
) -> None:
    skus = await _skus(seeded, 2)
    async with running_api(seeded, api_token=TOKEN, orders_webhook_secret=SECRET) as api:
        one = json.dumps(_order("W-1", skus[0])).encode()
        signed = {"X-Signature": signature_of(SECRET, one), "Content-Type": "application/json"}
        assert (await _post(api.base_url, one, signed))[0] == 200

        forged_body = json.dumps(_order("W-2", skus[0])).encode()
        for headers in (
            {"X-Signature": signature_of(SECRET, one)},  # another body's signature
            {"X-Signature": signature_of("guessed", forged_body)},
            {"X-Signature": "sha256=" + "0" * 64},
            {"Authorization": "Bearer wrong"},
            {},
        ):
            status, body = await _post(api.base_url, forged_body, headers)
            assert (status, body) == (401, {"error": "unauthorized"}), headers

        batch = {
            "orders": [
                _order("W-2", skus[1]),
                {"id": "W-3", "created_at": "soon", "items": [{"sku": skus[0], "qty": 1}]},
                _order("W-4", skus[0], line_items=[{"sku": skus[0], "quantity": -2, "price": 5}]),
                _order("W-1", skus[0]),  # the same order again: unchanged
            ]
        }
        status, body = await _post(
            api.base_url, json.dumps(batch).encode(), {"Authorization": f"Bearer {TOKEN}"}
        )
        assert status == 400 and body["inserted"] == 1 and body["unchanged"] == 1, body
        assert {(p["id"], p["field"]) for p in body["problems"]} >= {
            ("W-3", "placed_at"),
            ("W-4", "quantity"),
        }

        cancel = json.dumps({"order_id": "W-1", "status": "cancelled"}).encode()
        status, body = await _post(
            api.base_url, cancel, {"X-Signature": signature_of(SECRET, cancel)}
        )
        assert status == 200 and body["cancelled"] == 1, body

        status, body = await _post(api.base_url, b"not json", {"Authorization": f"Bearer {TOKEN}"})
        assert status == 400 and "JSON" in body["error"]
        huge = b"[" + b" " * (6 * 2**20) + b"]"
        status, body = await _post(api.base_url, huge, {"Authorization": f"Bearer {TOKEN}"})
        assert status == 413
    stored = await _orders(seeded)
    assert set(stored) == {"W-1", "W-2"}
    assert stored["W-1"]["status"] == "cancelled" and stored["W-1"]["lines"] == 1
    assert stored["W-2"]["total_rub"] == Decimal("1200.50")


async def test_without_a_token_or_secret_the_webhook_takes_nothing(seeded: Runtime) -> None:
    async with running_api(seeded) as api:
        status, _ = await _post(api.base_url, json.dumps(_order("X", "S")).encode(), {})
        assert status == 403
    assert await _orders(seeded) == {}


def test_the_referral_keeps_the_shops_query_and_only_its_own_tokens_pass() -> None:
    referrals = Referrals("key", "utm_source=sommelier&utm_medium=bot", "sm")
    token = referrals.new_token()
    assert token is not None and len(token) == 16 and referrals.genuine(token)
    url = referrals.tag("https://shop.example/w?id=5&utm_source=old&q=a%20b#buy", token)
    assert url == (
        f"https://shop.example/w?id=5&q=a%20b&utm_source=sommelier&utm_medium=bot&sm={token}#buy"
    )
    assert referrals.read(url) == token and referrals.read(f"sm={token}") == token
    forged = ("A" if token[0] != "A" else "B") + token[1:]
    assert referrals.read(forged) is None and referrals.read("x" * 16) is None
    assert not Referrals("other key", "", "sm").genuine(token)
    assert Referrals("key", "", "").tag("https://shop.example/w", None) == "https://shop.example/w"


async def test_an_xlsx_export_with_a_mapping_and_date_cells(seeded: Runtime) -> None:
    from openpyxl import Workbook

    from services.app.orders.service import Orders

    skus = await _skus(seeded, 1)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Док", "Когда", "Позиция", "Шт.", "Сумма за шт."])
    sheet.append(["X-1", datetime(2026, 11, 27, 12, 30), skus[0], 2, 1490.0])
    sheet.append(["X-1", datetime(2026, 11, 27, 12, 30), "=HYPERLINK(1)", 1, 10.0])
    data = io.BytesIO()
    book.save(data)
    mapping = {
        "Док": "order_id",
        "Когда": "placed_at",
        "Позиция": "product",
        "Сумма за шт.": "price_rub",
    }
    orders = Orders(seeded.sessions, Referrals("k", "", "sm"), "Europe/Moscow", 7)
    report = await orders.import_source("orders.xlsx", data=data.getvalue(), mapping=mapping)
    assert (report.inserted, report.lines, report.skipped) == (1, 1, 1), report.as_dict()
    assert report.problems[0].field == "product"
    async with seeded.engine.connect() as conn:
        placed = await conn.scalar(text("SELECT placed_at FROM orders WHERE order_id = 'X-1'"))
    assert placed == datetime(2026, 11, 27, 9, 30, tzinfo=UTC)  # Moscow time, stored in UTC


async def test_the_same_order_posted_at_once_by_retrying_webhooks_is_stored_once(
    seeded: Runtime,
) -> None:
    skus = await _skus(seeded, 1)
    async with running_api(seeded, api_token=TOKEN) as api:
        body = json.dumps(_order("R-1", skus[0])).encode()
        auth = {"Authorization": f"Bearer {TOKEN}"}
        answers = await asyncio.gather(*(_post(api.base_url, body, auth) for _ in range(5)))
    assert [status for status, _ in answers] == [200] * 5
    assert sum(body["inserted"] for _, body in answers) == 1
    assert (await _orders(seeded))["R-1"]["lines"] == 1


async def test_a_web_visitor_who_linked_telegram_is_one_person_for_attribution(
    seeded: Runtime,
) -> None:
    telegram_id = 727042
    async with running_api(seeded, api_token=TOKEN) as api:
        services = api.services
        cookie = "visitor-cookie-token"
        visitor = await services.visitors.open(cookie)
        token = services.clicks.referrals.new_token()
        async with seeded.engine.begin() as conn:
            shown = (await conn.scalars(text("SELECT id FROM wines ORDER BY slug LIMIT 2"))).all()
            await conn.execute(
                text("INSERT INTO users (id, age_confirmed) VALUES (:u, true)"), {"u": telegram_id}
            )
            fact = await conn.scalar(
                text(
                    "INSERT INTO answer_facts (id, user_id, path, match, wine_ids) "
                    "VALUES (gen_random_uuid(), :u, 'agent', 'exact', :w) RETURNING id"
                ),
                {"u": visitor, "w": list(shown)},
            )
            await conn.execute(
                text(
                    "INSERT INTO buy_clicks (user_id, fact_id, wine_id, token) "
                    "VALUES (:u, :f, :w, :t)"
                ),
                {"u": visitor, "f": fact, "w": shown[0], "t": token},
            )
        code = await services.visitors.link_code(cookie)
        assert code is not None and (await services.visitors.link(code, telegram_id)).linked
        order = {
            "order_id": "L-1",
            "placed_at": datetime.now(UTC).isoformat(),
            "token": token,
            "lines": [{"product": str(w), "quantity": 1, "price": 1000} for w in shown],
        }
        status, body = await _post(
            api.base_url, json.dumps(order).encode(), {"Authorization": f"Bearer {TOKEN}"}
        )
        assert status == 200, body
    async with seeded.engine.connect() as conn:
        lines = (
            await conn.execute(
                text(
                    "SELECT attribution, user_id FROM order_lines WHERE order_id = 'L-1' "
                    "ORDER BY line_no"
                )
            )
        ).all()
    assert [tuple(line) for line in lines] == [("led", telegram_id), ("assisted", telegram_id)]
