"""Domain value types shared by the repositories and everything above them."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator


class WineType(enum.StrEnum):
    red = "red"
    white = "white"
    rose = "rose"
    sparkling = "sparkling"
    dessert = "dessert"
    fortified = "fortified"


class Sweetness(enum.StrEnum):
    dry = "dry"
    semi_dry = "semi_dry"
    semi_sweet = "semi_sweet"
    sweet = "sweet"


WINE_TYPE_RU: dict[WineType, str] = {
    WineType.red: "красное",
    WineType.white: "белое",
    WineType.rose: "розовое",
    WineType.sparkling: "игристое",
    WineType.dessert: "десертное",
    WineType.fortified: "крепленое",
}

_NBSP = "\u00a0"
# Control characters other than line breaks and tabs.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

SWEETNESS_RU: dict[Sweetness, str] = {
    Sweetness.dry: "сухое",
    Sweetness.semi_dry: "полусухое",
    Sweetness.semi_sweet: "полусладкое",
    Sweetness.sweet: "сладкое",
}


def format_price(amount: Decimal) -> str:
    """1990 -> "1 990 ₽", 1990.5 -> "1 990,50 ₽" (no-break spaces)."""
    if not amount.is_finite():
        return "—"
    kopecks_total = int((abs(amount) * 100).to_integral_value(rounding=ROUND_HALF_UP))
    rubles, kopecks = divmod(kopecks_total, 100)
    sign = "-" if amount < 0 and kopecks_total else ""
    fraction = f",{kopecks:02d}" if kopecks else ""
    return f"{sign}{rubles:,}".replace(",", _NBSP) + f"{fraction}{_NBSP}₽"


class WineFilters(BaseModel):
    """Structured catalog filters. Free-text values are matched tolerantly by the repository."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    wine_type: WineType | None = None
    sweetness: Sweetness | None = None
    grape_variety: str | None = None
    food_pairing: str | None = None
    country: str | None = None
    region: str | None = None
    price_min: Decimal | None = None
    price_max: Decimal | None = None
    body_min: int | None = Field(default=None)
    body_max: int | None = Field(default=None)

    def is_empty(self) -> bool:
        return all(value is None for value in self.model_dump().values())

    def hard(self) -> WineFilters:
        """The part no answer may contradict: colour/type, sweetness, country and price.

        Grapes, dishes, regions and body guide the search; these four are what a person
        notices at once when a card gets them wrong.
        """
        return WineFilters(**{name: getattr(self, name) for name in HARD_FILTERS})

    def admits(self, wine: FilterableWine) -> bool:
        """Does `wine` keep to this filter's hard part (see `hard`)?"""
        return (
            (self.wine_type is None or wine.wine_type == self.wine_type)
            and (self.sweetness is None or wine.sweetness == self.sweetness)
            and (self.country is None or wine.country == self.country)
            and (self.price_min is None or wine.price_rub >= self.price_min)
            and (self.price_max is None or wine.price_rub <= self.price_max)
        )

    def merged_over(self, base: WineFilters) -> WineFilters:
        """`base` with every value set here taking its place."""
        return base.model_copy(update=self.model_dump(exclude_none=True))


HARD_FILTERS = ("wine_type", "sweetness", "country", "price_min", "price_max")


class FilterableWine(Protocol):
    wine_type: WineType
    sweetness: Sweetness
    country: str
    price_rub: Decimal


class WineRecord(BaseModel):
    """One catalog entry as it is loaded from a seed file: the natural key is `slug`."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    slug: str = Field(min_length=1, max_length=200, pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1, max_length=300)
    producer: str = Field(min_length=1, max_length=300)
    vintage_year: int | None = Field(default=None, ge=1800, le=2100)
    country: str = Field(min_length=1, max_length=100)
    region: str | None = Field(default=None, max_length=200)
    appellation: str | None = Field(default=None, max_length=200)
    grape_varieties: list[str] = Field(default_factory=list, max_length=20)
    wine_type: WineType
    sweetness: Sweetness
    # Unknown stays unknown (None): a shop's feed rarely states them, and none is invented.
    acidity: int | None = Field(default=None, ge=1, le=5)
    tannins: int | None = Field(default=None, ge=1, le=5)
    body: int | None = Field(default=None, ge=1, le=5)
    description: str = Field(min_length=1, max_length=4000)
    tasting_notes: str | None = Field(default=None, min_length=1, max_length=4000)
    food_pairings: list[str] = Field(default_factory=list, max_length=30)
    price_rub: Decimal = Field(ge=0, le=10_000_000, decimal_places=2)
    image_url: str | None = Field(default=None, max_length=2000, pattern=r"^https?://")
    available: bool = True
    stock: int | None = Field(default=None, ge=0)
    url: str | None = Field(default=None, max_length=2000, pattern=r"^https?://")
    volume_l: Decimal | None = Field(default=None, gt=0, le=100, decimal_places=3)
    alcohol: Decimal | None = Field(default=None, ge=0, le=100, decimal_places=1)
    external_id: str | None = Field(default=None, min_length=1, max_length=200)
    source: str | None = Field(default=None, max_length=2000)
    old_price_rub: Decimal | None = Field(default=None, ge=0, le=10_000_000, decimal_places=2)
    # The shop's own labels and margin (percent) from its feed: what boost and bury rules name.
    tags: list[str] = Field(default_factory=list, max_length=30)
    margin: Decimal | None = Field(default=None, ge=-1000, le=1000, decimal_places=2)

    @field_validator("*")
    @classmethod
    def _no_control_characters(cls, value: object) -> object:
        # PostgreSQL text cannot hold NUL, and no catalog text needs a control character.
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(t, str) and _CONTROL.search(t) for t in texts):
            raise ValueError("must not contain control characters")
        return value

    @field_validator("grape_varieties", "food_pairings", "tags")
    @classmethod
    def _lowercase_items(cls, items: list[str]) -> list[str]:
        cleaned = [item.strip().lower().replace("ё", "е") for item in items]
        if any(not item for item in cleaned):
            raise ValueError("items must be non-empty strings")
        return cleaned


@dataclass(frozen=True)
class UpsertReport:
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    marked_unavailable: int = 0

    @property
    def total(self) -> int:
        return self.inserted + self.updated + self.unchanged
