"""Small, hand-made catalogs for repository and agent tests."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from core.domain import WineRecord


def record(slug: str, **overrides: Any) -> WineRecord:
    values: dict[str, Any] = {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "producer": "Producer",
        "vintage_year": 2020,
        "country": "Франция",
        "region": "Бордо",
        "appellation": None,
        "grape_varieties": ["мерло"],
        "wine_type": "red",
        "sweetness": "dry",
        "acidity": 3,
        "tannins": 3,
        "body": 3,
        "description": "Хорошее вино.",
        "tasting_notes": "Ягоды и специи.",
        "food_pairings": ["сыр"],
        "price_rub": Decimal("1000"),
        "image_url": None,
    }
    values.update(overrides)
    return WineRecord.model_validate(values)


def small_catalog() -> list[WineRecord]:
    return [
        record(
            "bordeaux-red",
            grape_varieties=["каберне совиньон", "мерло"],
            food_pairings=["стейк из говядины", "баранина"],
            price_rub=1900,
            body=4,
            description="Классический бордоский ассамбляж.",
        ),
        record(
            "chile-merlot",
            country="Чили",
            region="Долина Колчагуа",
            grape_varieties=["мерло"],
            food_pairings=["пицца", "паста болоньезе"],
            price_rub=750,
            body=3,
        ),
        record(
            "napa-cab",
            country="США",
            region="Напа Вэлли",
            grape_varieties=["каберне совиньон"],
            food_pairings=["стейк рибай"],
            price_rub=6500,
            body=5,
        ),
        record(
            "chablis",
            wine_type="white",
            country="Франция",
            region="Бургундия",
            grape_varieties=["шардоне"],
            food_pairings=["устрицы", "белая рыба"],
            price_rub=3900,
            tannins=1,
            body=2,
            description="Минеральное белое из Шабли.",
        ),
        record(
            "mosel-riesling",
            wine_type="white",
            sweetness="semi_sweet",
            country="Германия",
            region="Мозель",
            grape_varieties=["рислинг"],
            food_pairings=["азиатская кухня"],
            price_rub=1600,
            tannins=1,
            body=2,
        ),
        record(
            "provence-rose",
            wine_type="rose",
            country="Франция",
            region="Прованс",
            grape_varieties=["гренаш", "сенсо"],
            food_pairings=["салаты", "рыба на гриле"],
            price_rub=2200,
            tannins=1,
            body=2,
        ),
        record(
            "prosecco",
            wine_type="sparkling",
            country="Италия",
            region="Венето",
            grape_varieties=["глера"],
            food_pairings=["закуски"],
            price_rub=1300,
            tannins=1,
            body=1,
            vintage_year=None,
        ),
        record(
            "tokaji",
            wine_type="dessert",
            sweetness="sweet",
            country="Венгрия",
            region="Токай",
            grape_varieties=["фурминт"],
            food_pairings=["фуа-гра", "голубые сыры"],
            price_rub=5400,
            tannins=1,
            body=4,
        ),
        record(
            "porto",
            wine_type="fortified",
            sweetness="sweet",
            country="Португалия",
            region="Дору",
            grape_varieties=["турига насьональ"],
            food_pairings=["шоколадный десерт"],
            price_rub=2900,
            body=5,
            vintage_year=None,
        ),
        record(
            "kuban-krasnostop",
            country="Россия",
            region="Кубань",
            grape_varieties=["красностоп"],
            food_pairings=["шашлык", "стейк из говядины"],
            price_rub=1400,
            body=4,
            sweetness="semi_dry",
        ),
    ]
