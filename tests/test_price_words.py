"""Price words without a number («недорогое», «премиальное», «на подарок начальнику») name bands
of this catalog's own prices (core/language/price_bands.py): the wines offered cost what the
band says, measured against the percentiles of the wines on sale; a number in the message wins
over the word."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from decimal import Decimal

import pytest
from sqlalchemy import text

from core.recommendation import Recommendation
from services.app.container import build_services
from services.app.runtime import Runtime
from services.app.turns.turns import Turns
from tests.conftest import make_settings
from tests.serving import with_settings

# (what people write, the band's lower and upper percentile of the prices on sale (None: open),
# the wine type the message names)
BANDS: list[tuple[str, float | None, float | None, str | None]] = [
    ("недорогое красное", None, 0.33, "red"),
    ("что-нибудь бюджетное к рыбе", None, 0.33, None),
    ("не очень дорогое белое", None, 0.5, "white"),
    ("белое средней цены", None, 0.5, "white"),
    ("приличное розовое", 0.4, 0.8, "rose"),
    ("достойное красное сухое", 0.4, 0.8, "red"),
    ("премиальное вино", 0.75, None, None),
    ("красное на подарок начальнику", 0.75, None, "red"),
]


@pytest.fixture
async def chat(seeded: Runtime) -> AsyncIterator[Turns]:
    services = build_services(with_settings(seeded, make_settings(llm_api_key=None)))
    try:
        yield services.turns
    finally:
        await services.close()


async def _prices_on_sale(runtime: Runtime) -> list[Decimal]:
    async with runtime.engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT price_rub FROM wines WHERE available ORDER BY price_rub")
        )
        return [Decimal(p) for (p,) in rows]


def _percentile(prices: list[Decimal], fraction: float) -> Decimal:
    """The nearest-rank percentile: the first price at or above `fraction` of the list."""
    return prices[math.ceil(fraction * len(prices)) - 1]


async def _answer(chat: Turns, user_id: int, message: str) -> Recommendation:
    rec = await chat.answer(user_id, message)
    assert rec.path == "offline" and len(rec.wines) == 3, (message, rec.wines)
    return rec


@pytest.mark.parametrize(("message", "low", "high", "wine_type"), BANDS, ids=[b[0] for b in BANDS])
async def test_a_price_word_offers_wines_within_its_band(
    seeded: Runtime,
    chat: Turns,
    message: str,
    low: float | None,
    high: float | None,
    wine_type: str | None,
) -> None:
    prices = await _prices_on_sale(seeded)
    floor = _percentile(prices, low) if low is not None else prices[0]
    ceiling = _percentile(prices, high) if high is not None else prices[-1]
    rec = await _answer(chat, 730_001, message)
    offered = [Decimal(w.price_rub) for w in rec.wines]
    assert all(floor <= p <= ceiling for p in offered), (message, floor, ceiling, offered)
    if wine_type is not None:  # the price words take nothing else from the message
        assert {w.wine_type for w in rec.wines} == {wine_type}, message


@pytest.mark.parametrize(
    ("message", "low", "high"),
    [("недорогое, от 3000", Decimal(3000), None), ("премиальное, до 2000", None, Decimal(2000))],
)
async def test_a_number_wins_over_a_price_word(
    seeded: Runtime,
    chat: Turns,
    message: str,
    low: Decimal | None,
    high: Decimal | None,
) -> None:
    prices = await _prices_on_sale(seeded)
    # The number and the word's band share no price: only one of them can be obeyed.
    cheap_third, dearest_quarter = _percentile(prices, 0.33), _percentile(prices, 0.75)
    assert (low or Decimal(0)) > cheap_third or (high or prices[-1]) < dearest_quarter
    offered = [Decimal(w.price_rub) for w in (await _answer(chat, 730_002, message)).wines]
    assert all(p >= (low or 0) and p <= (high or prices[-1]) for p in offered), offered
