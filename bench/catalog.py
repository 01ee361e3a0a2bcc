"""A deterministic synthetic catalog: plausible wines with clustered embeddings.

Every wine's embedding is the sum of latent directions — its type, country, main grape, main
food, sweetness, body and price tier — plus three vectors from a noise pool. Wines that share
attributes are therefore near each other, as with a real text-embedding model, and a query built
from the same directions ("red, merlot, steak") lands among the wines it describes.

Only the basis (a few thousand vectors) is computed in Python; PostgreSQL sums it per wine while
loading, so 100,000 × 1536 floats never pass through the interpreter.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from bench.vocab import (
    AROMAS,
    COUNTRIES,
    CUVEES,
    DESSERT_GRAPES,
    FOODS,
    FORTIFIED_GRAPES,
    OCCASIONS,
    SPARKLING_GRAPES,
    STYLE_WORDS,
    SURNAMES,
    SWEETNESS_WEIGHTS,
    TYPE_MEDIAN_PRICE,
    TYPE_WEIGHTS,
    Country,
)
from core.domain import SWEETNESS_RU, WINE_TYPE_RU, Sweetness, WineType

_K = TypeVar("_K")

GENERATOR_VERSION = 1
NOISE_POOL = 2048
NOISE_PER_WINE = 3
PRICE_TIERS = (800, 1500, 3000, 6000, 12000)  # upper bounds; the last tier is open

# How far each latent direction pulls (the basis vectors are unit vectors times these).
WEIGHTS = {
    "type": 1.0,
    "country": 0.6,
    "grape": 0.8,
    "food": 0.5,
    "sweetness": 0.4,
    "body": 0.3,
    "tier": 0.3,
    "noise": 0.55,
    "query_noise": 0.35,
}

_BODY: dict[WineType, tuple[int, int]] = {
    WineType.red: (3, 5),
    WineType.white: (1, 3),
    WineType.rose: (1, 3),
    WineType.sparkling: (1, 2),
    WineType.dessert: (3, 5),
    WineType.fortified: (4, 5),
}
_TANNINS: dict[WineType, tuple[int, int]] = {
    WineType.red: (2, 5),
    WineType.white: (1, 1),
    WineType.rose: (1, 2),
    WineType.sparkling: (1, 1),
    WineType.dessert: (1, 2),
    WineType.fortified: (2, 4),
}
_NON_VINTAGE: dict[WineType, float] = {
    WineType.red: 0.03,
    WineType.white: 0.05,
    WineType.rose: 0.1,
    WineType.sparkling: 0.5,
    WineType.dessert: 0.2,
    WineType.fortified: 0.6,
}


@dataclass(frozen=True)
class SyntheticWine:
    slug: str
    name: str
    producer: str
    vintage_year: int | None
    country: str
    region: str
    grape_varieties: list[str]
    wine_type: WineType
    sweetness: Sweetness
    acidity: int
    tannins: int
    body: int
    description: str
    tasting_notes: str
    food_pairings: list[str]
    price_rub: Decimal
    parts: tuple[int, ...]  # basis ids whose sum is the embedding


def all_grapes() -> list[str]:
    names: dict[str, None] = {}
    for country in COUNTRIES:
        for grape in (*country.reds, *country.whites):
            names[grape] = None
    for grape in (*SPARKLING_GRAPES, *DESSERT_GRAPES, *FORTIFIED_GRAPES):
        names[grape] = None
    return list(names)


def all_foods() -> list[str]:
    names: dict[str, None] = {}
    for foods in FOODS.values():
        for food in foods:
            names[food] = None
    return list(names)


def price_tier(price: float) -> int:
    for index, bound in enumerate(PRICE_TIERS):
        if price <= bound:
            return index
    return len(PRICE_TIERS)


@dataclass
class Basis:
    """The latent directions (scaled unit vectors) and their ids in the basis table."""

    dim: int
    seed: int = 7
    vectors: list[list[float]] = field(default_factory=list)
    ids: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        rng = random.Random(f"basis-{self.seed}-{self.dim}")
        groups: list[tuple[str, Sequence[str]]] = [
            ("type", [t.value for t in WineType]),
            ("country", [c.name for c in COUNTRIES]),
            ("grape", all_grapes()),
            ("food", all_foods()),
            ("sweetness", [s.value for s in Sweetness]),
            ("body", [str(b) for b in range(1, 6)]),
            ("tier", [str(t) for t in range(len(PRICE_TIERS) + 1)]),
        ]
        for group, keys in groups:
            for key in keys:
                self.ids[(group, key)] = len(self.vectors)
                self.vectors.append(_direction(rng, self.dim, WEIGHTS[group]))
        self.noise_start = len(self.vectors)
        for _ in range(NOISE_POOL):
            self.vectors.append(_direction(rng, self.dim, WEIGHTS["noise"]))

    def id(self, group: str, key: str) -> int:
        return self.ids[(group, key)]

    def noise_ids(self, rng: random.Random, count: int) -> list[int]:
        return [self.noise_start + i for i in rng.sample(range(NOISE_POOL), count)]

    def combine(self, parts: Sequence[int], extra: Sequence[float] | None = None) -> list[float]:
        """The sum of basis vectors, as PostgreSQL computes it for a wine."""
        out = [0.0] * self.dim
        for part in parts:
            vector = self.vectors[part]
            for i in range(self.dim):
                out[i] += vector[i]
        if extra is not None:
            for i in range(self.dim):
                out[i] += extra[i]
        return out

    def query_vector(
        self, rng: random.Random, attributes: Sequence[tuple[str, str]]
    ) -> list[float]:
        """A query that means these attributes, with a little noise of its own."""
        parts = [self.id(group, key) for group, key in attributes]
        noise = _direction(rng, self.dim, WEIGHTS["query_noise"])
        return self.combine(parts, noise)


def _direction(rng: random.Random, dim: int, length: float) -> list[float]:
    raw = [rng.random() - 0.5 for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in raw)) or 1.0
    scale = length / norm
    return [x * scale for x in raw]


def _weighted(rng: random.Random, weights: dict[_K, float]) -> _K:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _grapes_for(rng: random.Random, country: Country, wine_type: WineType) -> list[str]:
    if wine_type in (WineType.red, WineType.rose):
        pool = list(country.reds)
    elif wine_type == WineType.white:
        pool = list(country.whites)
    elif wine_type == WineType.sparkling:
        pool = [g for g in SPARKLING_GRAPES if g in country.whites or g in country.reds]
        pool = pool or list(country.whites[:2]) + list(SPARKLING_GRAPES[:2])
    elif wine_type == WineType.dessert:
        pool = [g for g in DESSERT_GRAPES if g in country.whites] or list(country.whites)
    else:
        pool = list(FORTIFIED_GRAPES)
    count = rng.choices((1, 2, 3), weights=(0.7, 0.22, 0.08))[0]
    return rng.sample(pool, min(count, len(pool)))


def _price(rng: random.Random, wine_type: WineType, country: Country) -> Decimal:
    raw = TYPE_MEDIAN_PRICE[wine_type] * country.price_factor * math.exp(rng.gauss(0.0, 0.6))
    raw = min(max(raw, 390.0), 90_000.0)
    step = 10 if raw < 1000 else 50 if raw < 5000 else 100
    rounded = max(step, round(raw / step) * step)
    if rng.random() < 0.5:
        rounded -= 10 if step == 10 else step // 5  # shelf prices like 1 490 ₽
    return Decimal(max(rounded, 350))


def generate(n: int, basis: Basis, seed: int = 42) -> list[SyntheticWine]:
    """`n` wines, always the same ones for the same `n`, seed and dimension."""
    rng = random.Random(f"catalog-{seed}")
    countries = {c: c.weight for c in COUNTRIES}
    wines: list[SyntheticWine] = []
    for index in range(n):
        country = _weighted(rng, countries)
        wine_type = _weighted(rng, TYPE_WEIGHTS)
        sweetness = _weighted(rng, SWEETNESS_WEIGHTS[wine_type])
        region = rng.choice(country.regions)
        grapes = _grapes_for(rng, country, wine_type)
        foods = rng.sample(FOODS[wine_type], rng.randint(2, 4))
        body = rng.randint(*_BODY[wine_type])
        tannins = rng.randint(*_TANNINS[wine_type])
        acidity = rng.randint(2, 5) if wine_type != WineType.dessert else rng.randint(3, 5)
        price = _price(rng, wine_type, country)
        vintage = (
            None
            if rng.random() < _NON_VINTAGE[wine_type]
            else max(2005, 2024 - int(abs(rng.gauss(0.0, 3.5))))
        )
        producer = f"{rng.choice(country.houses)} {rng.choice(SURNAMES)}"
        cuvee = rng.choice(CUVEES)
        name = f"{producer} {grapes[0].title()} {cuvee}"
        style = rng.choice(STYLE_WORDS[wine_type])
        aromas = rng.sample(AROMAS[wine_type], 3)
        description = (
            f"{style.capitalize()} {WINE_TYPE_RU[wine_type]} {SWEETNESS_RU[sweetness]} вино "
            f"из региона {region} ({country.name}), {', '.join(grapes)}. "
            f"Хороший выбор {rng.choice(OCCASIONS)}."
        )
        tasting = (
            f"В аромате {aromas[0]}, {aromas[1]} и {aromas[2]}. "
            f"Тело {body} из 5, кислотность {acidity} из 5, послевкусие "
            f"{rng.choice(('короткое', 'среднее', 'долгое'))}."
        )
        parts = (
            basis.id("type", wine_type.value),
            basis.id("country", country.name),
            basis.id("grape", grapes[0]),
            basis.id("food", foods[0]),
            basis.id("sweetness", sweetness.value),
            basis.id("body", str(body)),
            basis.id("tier", str(price_tier(float(price)))),
            *basis.noise_ids(rng, NOISE_PER_WINE),
        )
        wines.append(
            SyntheticWine(
                slug=f"bench-{index:06d}",
                name=name,
                producer=producer,
                vintage_year=vintage,
                country=country.name,
                region=region,
                grape_varieties=grapes,
                wine_type=wine_type,
                sweetness=sweetness,
                acidity=acidity,
                tannins=tannins,
                body=body,
                description=description,
                tasting_notes=tasting,
                food_pairings=foods,
                price_rub=price,
                parts=parts,
            )
        )
    return wines
