"""The names shops give an order's fields (file headers and JSON keys), and the values that
mean a cancelled order."""

from __future__ import annotations

import json
from pathlib import Path

from core.errors import OrderFileError
from services.app.catalog.importer.mapping import header_key

# Canonical field -> names shops use for it (compared case-, space- and punctuation-blind).
ORDER_FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "order_id": ("order_id", "id", "order", "order id", "order number", "номер заказа", "заказ",
                 "id заказа", "№ заказа"),
    "placed_at": ("placed_at", "created_at", "date", "order date", "time", "дата", "дата заказа",
                  "время заказа", "дата создания", "created"),
    "product": ("product", "product_id", "sku", "offer_id", "offer id", "external_id",
                "артикул", "код товара", "id товара"),
    "quantity": ("quantity", "qty", "count", "количество", "кол во", "шт"),
    "price_rub": ("price_rub", "price", "unit price", "цена", "цена за шт", "цена за единицу"),
    "status": ("status", "state", "статус", "статус заказа"),
    "token": ("token", "sm", "referral", "реферал", "метка", "landing", "landing url", "utm"),
    "lines": ("lines", "items", "line_items", "products", "товары", "позиции"),
}  # fmt: skip
LINE_FIELDS = ("product", "quantity", "price_rub")
ORDER_FIELDS = ("order_id", "placed_at", "status", "token")
CANCELLED_PREFIXES = ("cancel", "отмен", "refund", "возврат", "annul", "аннул")

_BY_KEY = {header_key(n): field for field, names in ORDER_FIELD_NAMES.items() for n in names}


class OrderFields:
    """A header or key -> the canonical field; `custom` (from --mapping) wins."""

    def __init__(self, custom: dict[str, str] | None = None) -> None:
        self.custom = {header_key(k): v for k, v in (custom or {}).items()}

    def field(self, name: str) -> str | None:
        key = header_key(name)
        return self.custom.get(key) or _BY_KEY.get(key)


def is_cancelled(status: str) -> bool:
    folded = status.strip().lower().replace("ё", "е")
    return folded.startswith(CANCELLED_PREFIXES)


def load_order_mapping(path: Path) -> dict[str, str]:
    """A JSON object {"their header": "our field"}; every target must be an order field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise OrderFileError(f"cannot read the mapping file {path}: {exc}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise OrderFileError("the mapping file must be a JSON object of header -> field")
    known = [f for f in ORDER_FIELD_NAMES if f != "lines"]
    unknown = sorted(v for v in data.values() if v not in known)
    if unknown:
        raise OrderFileError(
            f"the mapping names unknown fields: {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return dict(data)
