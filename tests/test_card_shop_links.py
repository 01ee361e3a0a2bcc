"""A card of a shop's wine: the old price crossed out, and a «Купить» link button."""

from __future__ import annotations

import uuid
from decimal import Decimal

from bot.keyboards import card_url, wine_card
from bot.rendering import render_card
from core.domain import Sweetness, WineType
from core.recommendation import RecommendedWine


def _wine(**overrides: object) -> RecommendedWine:
    values: dict[str, object] = {
        "id": uuid.uuid4(),
        "name": "Тест Каберне",
        "producer": "Шато Тест",
        "country": "Франция",
        "region": None,
        "grape_varieties": [],
        "wine_type": WineType.red,
        "sweetness": Sweetness.dry,
        "price_rub": Decimal("1990"),
        "vintage_year": None,
        "image_url": None,
        "why": "",
    }
    values.update(overrides)
    return RecommendedWine(**values)  # type: ignore[arg-type]


def test_the_old_price_is_crossed_out_only_when_it_is_higher() -> None:
    assert "💰 1\u00a0990\u00a0₽ <s>2\u00a0490\u00a0₽</s>" in render_card(
        _wine(old_price_rub=Decimal("2490"))
    )
    for old in (None, Decimal("1990"), Decimal("1500")):
        assert "<s>" not in render_card(_wine(old_price_rub=old))


def test_the_buy_button_links_to_the_shop_and_survives_a_redraw() -> None:
    wine_id = uuid.uuid4()
    markup = wine_card(wine_id, url="https://shop.example/a-100")
    (row,) = [r for r in markup.inline_keyboard if any(b.url for b in r)]
    assert [(b.text, b.url) for b in row] == [("Купить", "https://shop.example/a-100")]
    assert card_url(wine_card(wine_id, 1, card_url(markup))) == "https://shop.example/a-100"
    assert card_url(wine_card(wine_id)) is None
    assert card_url(wine_card(wine_id, url="javascript:alert(1)")) is None
