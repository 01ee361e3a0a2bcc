"""The catalog's price distribution: percentiles of the wines on sale (price words as bands)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from repositories.models import Wine


async def price_percentiles(
    session: AsyncSession, fractions: Sequence[float]
) -> dict[float, Decimal]:
    """{fraction: a real catalog price at that percentile} over the wines on sale; {} when none."""
    stmt = select(
        func.percentile_disc(text(f"ARRAY[{','.join(str(float(f)) for f in fractions)}]"))
        .within_group(Wine.price_rub)
        .label("prices")
    ).where(Wine.available.is_(True))
    values = await session.scalar(stmt)
    if not values:
        return {}
    return {f: Decimal(v) for f, v in zip(fractions, values, strict=True) if v is not None}
