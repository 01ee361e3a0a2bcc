"""An order source (a CSV/XLSX export, one row per line with the order's id repeated, or JSON:
one order or {"orders": [...]}) into checked orders; every bad row is skipped with its reason
and nothing else is lost."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any

from core.errors import OrderFileError
from core.spreadsheet import looks_like_formula
from services.app.catalog.importer.normalize import number
from services.app.catalog.importer.rows import Problem
from services.app.catalog.importer.tabular import csv_table, xlsx_table
from services.app.orders.fields import LINE_FIELDS, OrderFields, is_cancelled

MAX_ID_CHARS = 200
MAX_LINES_PER_ORDER = 1000
MAX_QUANTITY = 100_000
MAX_PRICE = Decimal("10000000")
# «27.11.2026», «27.11.2026 14:05», «27/11/2026 14:05:09»: read without strptime, which cost
# two thirds of reading an export.
_DAY_FIRST = re.compile(r"(\d{1,2})[./](\d{1,2})[./](\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?")


@dataclass
class LineIn:
    product: str
    quantity: int
    price_rub: Decimal


@dataclass
class OrderIn:
    """`placed_at` is None only for a cancellation that names no time (the order's own stays);
    `lines` empty only for such a cancellation (the order's lines stay)."""

    order_id: str
    placed_at: datetime | None
    cancelled: bool
    token: str | None
    lines: list[LineIn] = field(default_factory=list)


@dataclass
class Checked:
    orders: list[OrderIn]
    rows: int
    problems: list[Problem]


Row = tuple[int, dict[str, str]]  # (the row's number in the source, field -> text)
TokenReader = Callable[[str], str | None]


def read_orders(data: bytes, fields: OrderFields, zone: tzinfo, read_token: TokenReader) -> Checked:
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise OrderFileError("the source is empty")
    if head.startswith((b"[", b"{")):
        try:
            payload = json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise OrderFileError(f"the JSON cannot be read: {exc}") from None
        return check_rows(json_rows(payload, fields), zone, read_token)
    table = xlsx_table(data) if head.startswith(b"PK\x03\x04") else csv_table(data)
    return check_rows(table_rows(table, fields), zone, read_token)


def table_rows(table: Sequence[Sequence[str]], fields: OrderFields) -> list[Row]:
    table = [row for row in table if any(str(c).strip() for c in row)]
    if not table:
        raise OrderFileError("the file holds no rows")
    header = [str(h) for h in table[0]]
    columns = [fields.field(h) for h in header]
    missing = [f for f in ("order_id", "placed_at", "product", "price_rub") if f not in columns]
    if missing:
        raise OrderFileError(
            f"the header row must name the order's id, time, product and price; missing: "
            f"{', '.join(missing)} (found: {', '.join(h for h in header if h) or 'nothing'}); "
            "use --mapping for unusual headers"
        )
    rows: list[Row] = []
    for number_, cells in enumerate(table[1:], start=2):
        values: dict[str, str] = {}
        for name, cell in zip(columns, cells, strict=False):
            text = str(cell).strip()
            if name is not None and text and name not in values:
                values[name] = text
        rows.append((number_, values))
    return rows


def json_rows(payload: Any, fields: OrderFields) -> list[Row]:
    """One row per line, the order's fields repeated (as a file has them); an order without
    lines (a cancellation) is one row without a product. Rows are numbered by order."""
    orders = payload.get("orders") if isinstance(payload, dict) and "orders" in payload else None
    if orders is None:
        orders = payload if isinstance(payload, list) else [payload]
    if not isinstance(orders, list):
        raise OrderFileError("`orders` must be a list of orders")
    rows: list[Row] = []
    for index, order in enumerate(orders, start=1):
        if not isinstance(order, dict):
            rows.append((index, {"_bad": "an order must be a JSON object"}))
            continue
        head: dict[str, str] = {}
        lines: list[Any] = []
        for key, value in order.items():
            name = fields.field(str(key))
            if name == "lines":
                lines = value if isinstance(value, list) else [value]
            elif name is not None and value is not None and name not in head:
                head[name] = str(value).strip()
        if not lines:
            rows.append((index, head))
        for line in lines:
            own = (
                {fields.field(str(k)): v for k, v in line.items()} if isinstance(line, dict) else {}
            )
            values = dict(head)
            for name in LINE_FIELDS:
                if own.get(name) is not None:
                    values[name] = str(own[name]).strip()
            if not isinstance(line, dict):
                values["_bad"] = "a line must be a JSON object"
            rows.append((index, values))
    return rows


def check_rows(rows: list[Row], zone: tzinfo, read_token: TokenReader) -> Checked:
    problems: list[Problem] = []
    orders: dict[str, OrderIn] = {}
    first_row: dict[str, int] = {}
    refused: set[str] = set()

    for row, values in rows:
        order_id = values.get("order_id", "")

        def problem(name: str, text: str, row: int = row, order_id: str = order_id) -> None:
            problems.append(Problem(row, order_id or None, name, text))

        if "_bad" in values:
            problem("order", values["_bad"])
            continue
        if not order_id or len(order_id) > MAX_ID_CHARS or looks_like_formula(order_id):
            problem("order_id", "missing" if not order_id else "not an order id")
            continue
        if order_id in refused:
            problem("order_id", f"the order was skipped at row {first_row[order_id]}")
            continue
        order = orders.get(order_id)
        if order is None:
            cancelled = is_cancelled(values.get("status", ""))
            placed = parse_time(values.get("placed_at", ""), zone)
            if placed is None and not (cancelled and "product" not in values):
                problem("placed_at", f"not a date and time: {values.get('placed_at', '')!r}")
                refused.add(order_id)
                first_row[order_id] = row
                continue
            raw_token = values.get("token", "")
            token = read_token(raw_token) if raw_token else None
            if raw_token and token is None:
                problem("token", "not a referral token of ours; the order is kept unattributed")
            order = orders[order_id] = OrderIn(order_id, placed, cancelled, token)
            first_row[order_id] = row
        if "product" not in values and "price_rub" not in values and order.cancelled:
            continue  # a cancellation alone: the order's lines stay as they were
        line = _line(values, problem)
        if line is None:
            continue
        if len(order.lines) >= MAX_LINES_PER_ORDER:
            problem("product", f"more than {MAX_LINES_PER_ORDER} lines in one order")
            continue
        order.lines.append(line)
    kept = [o for o in orders.values() if o.lines or o.cancelled]
    for order in orders.values():
        if not order.lines and not order.cancelled:
            problems.append(
                Problem(first_row[order.order_id], order.order_id, "lines", "no line to keep")
            )
    return Checked(kept, len(rows), problems)


def _line(values: dict[str, str], problem: Callable[[str, str], None]) -> LineIn | None:
    product = values.get("product", "")
    if not product or len(product) > MAX_ID_CHARS or looks_like_formula(product):
        problem("product", "missing" if not product else "not a product id or SKU")
        return None
    quantity_text = values.get("quantity", "1")
    quantity = _number(quantity_text)
    if quantity is None or quantity != quantity.to_integral() or not 0 < quantity <= MAX_QUANTITY:
        problem("quantity", f"not a quantity: {quantity_text!r}")
        return None
    price = _number(values.get("price_rub", ""))
    if price is None or not 0 <= price < MAX_PRICE:
        problem("price_rub", f"not a price: {values.get('price_rub', '')!r}")
        return None
    return LineIn(product, int(quantity), price.quantize(Decimal("0.01")))


def _number(text: str) -> Decimal | None:
    """A plain «1990», «1990.50» or «1 990,00» at once; anything else as the catalog reads it."""
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return number(text)
    return value if value.is_finite() else None


def parse_time(text: str, zone: tzinfo) -> datetime | None:
    """ISO 8601, «27.11.2026 14:05», or Unix seconds; a time without a zone is the shop's."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit() and len(text) in (10, 13):
        seconds = int(text) / (1000 if len(text) == 13 else 1)
        return datetime.fromtimestamp(seconds, UTC)
    day_first = _DAY_FIRST.fullmatch(text)
    try:
        if day_first is not None:
            day, month, year, hour, minute, second = (int(g or 0) for g in day_first.groups())
            found = datetime(year, month, day, hour, minute, second)
        else:
            found = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if not 2000 <= found.year <= 2100:
        return None
    return found if found.tzinfo is not None else found.replace(tzinfo=zone)
