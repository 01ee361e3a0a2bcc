"""The shop's orders as the import leaves them (`repositories/orders.py` writes them for real):
an order with its lines already attributed, written straight into `orders` and `order_lines`
for the console's sales to read."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import text

from services.app.runtime import Runtime


@dataclass(frozen=True)
class Line:
    wine_id: uuid.UUID | None
    quantity: int
    price_rub: Decimal
    attribution: str = "none"  # led | assisted | none
    user_id: int | None = None


async def place_order(
    runtime: Runtime,
    order_id: str,
    placed_at: datetime,
    lines: list[Line],
    status: str = "placed",
) -> None:
    total = sum((line.quantity * line.price_rub for line in lines), Decimal(0))
    async with runtime.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO orders (order_id, placed_at, status, source, total_rub) "
                "VALUES (:id, :at, :status, 'test', :total)"
            ),
            {"id": order_id, "at": placed_at, "status": status, "total": total},
        )
        for no, line in enumerate(lines, 1):
            await conn.execute(
                text(
                    "INSERT INTO order_lines (order_id, line_no, product, wine_id, quantity, "
                    "price_rub, attribution, user_id) "
                    "VALUES (:id, :no, :product, :wine, :q, :price, :attribution, :user)"
                ),
                {
                    "id": order_id,
                    "no": no,
                    "product": f"SKU-{no}",
                    "wine": line.wine_id,
                    "q": line.quantity,
                    "price": line.price_rub,
                    "attribution": line.attribution,
                    "user": line.user_id,
                },
            )
