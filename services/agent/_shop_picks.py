"""The shop's boost and bury rules in force for an answer (core/shop_picks.py): read once a
minute per database (repositories/shop_picks.py), on the shop's own calendar day."""

from __future__ import annotations

from datetime import date

from sqlalchemy.ext.asyncio import AsyncSession

from core.recommendation import RecommendedWine
from core.shop_picks import ShopPicks
from repositories.shop_picks import active_picks
from services.agent._day_context import build_day_context


def shop_today() -> date:
    """Today where the shop is (the day context's time zone): when a rule's dates apply."""
    return build_day_context().now.date()


async def shop_picks(session: AsyncSession) -> ShopPicks:
    return await active_picks(session, shop_today())


def mark_shop_picks(wines: list[RecommendedWine], picks: ShopPicks) -> None:
    """A boosted wine's card says so («Выбор магазина»); no other card does."""
    for wine in wines:
        wine.shop_pick = wine.id in picks.boosted
