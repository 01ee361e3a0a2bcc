"""The names shops give an order's fields (file headers and JSON keys), and the values that
mean a cancelled order."""

from __future__ import annotations

from pathlib import Path

from core.errors import OrderFileError
from services.app.catalog.importer.mapping import FieldMapper, read_mapping

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


class OrderFields(FieldMapper):
    """A header or key -> the canonical order field; `custom` (from --mapping) wins."""

    def __init__(self, custom: dict[str, str] | None = None) -> None:
        super().__init__(custom, ORDER_FIELD_NAMES)


def is_cancelled(status: str) -> bool:
    folded = status.strip().lower().replace("ё", "е")
    return folded.startswith(CANCELLED_PREFIXES)


def load_order_mapping(path: Path) -> dict[str, str]:
    """The orders' --mapping file; every target must be an order field."""
    return read_mapping(path, [f for f in ORDER_FIELD_NAMES if f != "lines"], OrderFileError)
