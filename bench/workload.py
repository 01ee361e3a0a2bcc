"""The fixed query mixes: search_wines filter sets, semantic queries and user questions.

Everything is drawn from seeded generators over the same vocabularies as the catalog, so a run
is repeatable and the mixes are the same for every catalog size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bench.catalog import Basis, all_foods, all_grapes, generate, price_tier
from bench.vocab import COUNTRIES, FOODS, SWEETNESS_WEIGHTS, TYPE_WEIGHTS
from core.domain import WINE_TYPE_RU, WineType

SEARCH_LIMIT = 10
SEMANTIC_K = 10

# Free-text forms people and models write, resolved by the repository's tolerant matching.
_GRAPE_FORMS = ("merlot", "каберне", "пино", "шардоне", "riesling", "саперави", "malbec")
_FOOD_FORMS = ("стейку", "steak", "рыбе", "сыр", "fish", "пиццу", "устриц", "десерт")


@dataclass(frozen=True)
class SearchCase:
    kind: str  # broad | medium | selective | very selective
    arguments: dict[str, Any]


@dataclass(frozen=True)
class SemanticCase:
    kind: str  # unfiltered | tool filters | selective filters
    text: str
    vector: list[float]
    filters: dict[str, Any] = field(default_factory=dict)

    def tool_arguments(self) -> dict[str, Any]:
        """What the semantic_search tool accepts: the query, wine_type and price_max."""
        args: dict[str, Any] = {"query": self.text, "limit": SEMANTIC_K}
        for key in ("wine_type", "price_max"):
            if key in self.filters:
                args[key] = self.filters[key]
        return args


def _type(rng: random.Random) -> WineType:
    keys = list(TYPE_WEIGHTS)
    return rng.choices(keys, weights=[TYPE_WEIGHTS[k] for k in keys])[0]


def _price_max(rng: random.Random) -> int:
    return rng.choice((700, 1000, 1500, 2000, 3000, 5000))


def search_cases(count: int = 200, seed: int = 11) -> list[SearchCase]:
    """From broad (no filter, one type) to very selective (four or five constraints)."""
    rng = random.Random(f"search-{seed}")
    countries = list(COUNTRIES)
    grapes = all_grapes()
    foods = all_foods()
    cases: list[SearchCase] = []
    shares = (("broad", 0.2), ("medium", 0.3), ("selective", 0.3), ("very selective", 0.2))
    for kind, share in shares:
        for _ in range(round(count * share)):
            args: dict[str, Any] = {}
            country = rng.choice(countries)
            wine_type = _type(rng)
            pick = rng.randrange(4)
            if kind == "broad":
                if pick == 1:
                    args["wine_type"] = wine_type.value
                elif pick == 2:
                    args["price_max"] = _price_max(rng)
                elif pick == 3:
                    args["wine_type"] = wine_type.value
                    args["sweetness"] = "dry"
            elif kind == "medium":
                if pick == 0:
                    args.update(wine_type=wine_type.value, price_max=_price_max(rng))
                elif pick == 1:
                    args.update(country=country.name, wine_type=wine_type.value)
                elif pick == 2:
                    args["grape_variety"] = rng.choice((*grapes[:40], *_GRAPE_FORMS))
                else:
                    args["food_pairing"] = rng.choice((*foods, *_FOOD_FORMS))
                    args["body_min"] = rng.randint(1, 3)
            elif kind == "selective":
                if pick == 0:
                    args.update(
                        country=country.name,
                        region=rng.choice(country.regions),
                        grape_variety=rng.choice((*country.reds, *country.whites)),
                    )
                elif pick == 1:
                    args.update(
                        grape_variety=rng.choice(grapes),
                        food_pairing=rng.choice(FOODS[wine_type]),
                        price_max=_price_max(rng),
                    )
                elif pick == 2:
                    sweetness = rng.choice(list(SWEETNESS_WEIGHTS[wine_type]))
                    low = rng.choice((500, 1000, 2000))
                    args.update(
                        wine_type=wine_type.value,
                        sweetness=sweetness.value,
                        country=country.name,
                        price_min=low,
                        price_max=low * 3,
                    )
                else:
                    args.update(region=rng.choice(country.regions), body_max=rng.randint(2, 4))
            else:
                if pick == 0:
                    args.update(
                        wine_type=rng.choice(("fortified", "dessert")),
                        country=rng.choice(countries).name,
                        price_max=rng.choice((800, 1200)),
                    )
                elif pick == 1:
                    args.update(
                        region=rng.choice(country.regions),
                        food_pairing=rng.choice(foods),
                        body_min=4,
                        price_max=1500,
                    )
                elif pick == 2:
                    args.update(
                        wine_type=wine_type.value,
                        sweetness="semi_sweet",
                        grape_variety=rng.choice(grapes),
                        country=country.name,
                        price_min=3000,
                    )
                else:
                    args.update(
                        grape_variety=rng.choice(grapes),
                        food_pairing=rng.choice(foods),
                        region=rng.choice(country.regions),
                        body_min=2,
                        body_max=4,
                    )
            args["limit"] = SEARCH_LIMIT
            cases.append(SearchCase(kind, args))
    return cases[:count]


def semantic_cases(
    basis: Basis, count: int = 200, seed: int = 13, *, wine_like: bool = True
) -> list[SemanticCase]:
    """Queries for vector search: 40 % unfiltered, 30 % with the tool's filters (type, budget),
    30 % with selective repository filters (country, grape, region, food).

    A query vector is embedded like a wine description (`wine_like`, the ANN-benchmark
    convention: queries come from the data's own distribution): the latent directions of a
    synthetic wine that is not in the catalog. With `wine_like=False` it is only the directions
    of a few attributes plus fresh noise, which makes thousands of wines almost equidistant.
    """
    rng = random.Random(f"semantic-{seed}")
    intents = generate(count, basis, seed=seed + 1000)
    cases: list[SemanticCase] = []
    shares = (("unfiltered", 0.4), ("tool filters", 0.3), ("selective filters", 0.3))
    index = 0
    for kind, share in shares:
        for _ in range(round(count * share)):
            wine = intents[index % len(intents)]
            index += 1
            grape, food, country = wine.grape_varieties[0], wine.food_pairings[0], wine.country
            words = [WINE_TYPE_RU[wine.wine_type], grape, "к", food, f"({country})"]
            budget = _price_max(rng)
            filters: dict[str, Any] = {}
            if kind == "tool filters":
                pick = rng.randrange(3)
                if pick in (0, 2):
                    filters["wine_type"] = wine.wine_type.value
                if pick in (1, 2):
                    filters["price_max"] = budget
            elif kind == "selective filters":
                pick = rng.randrange(4)
                regions = next(c.regions for c in COUNTRIES if c.name == country)
                if pick == 0:
                    filters.update(country=country, grape_variety=grape)
                elif pick == 1:
                    filters.update(region=rng.choice(regions))
                elif pick == 2:
                    filters.update(
                        food_pairing=food, price_max=budget, wine_type=wine.wine_type.value
                    )
                else:
                    filters.update(country=country, wine_type=wine.wine_type.value, body_min=4)
            if wine_like:
                vector = basis.combine(wine.parts)
            else:
                attributes = [("type", wine.wine_type.value), ("food", food), ("grape", grape)]
                if rng.random() < 0.4:
                    attributes.append(("country", country))
                if rng.random() < 0.3:
                    attributes.append(("tier", str(price_tier(budget))))
                vector = basis.query_vector(rng, attributes)
            cases.append(SemanticCase(kind, " ".join(words), vector, filters))
    return cases[:count]


# Fifty questions as people write them to the bot (the same for the agent and prompt runs).
QUESTIONS: tuple[str, ...] = (
    "красное сухое к стейку до 2000",
    "белое вино к рыбе",
    "что взять к пицце?",
    "игристое на праздник до 3000",
    "посоветуйте розовое на пикник",
    "вино к шашлыку",
    "красное к баранине",
    "белое сухое к устрицам",
    "что-нибудь к сырной тарелке",
    "десертное вино к фруктам",
    "недорогое красное на каждый день",
    "рислинг полусладкий",
    "мерло до 1500",
    "каберне совиньон к мясу",
    "шардоне к курице",
    "вино из Грузии",
    "итальянское красное к пасте",
    "испанское красное до 2000",
    "французское белое",
    "вино к суши",
    "легкое белое на лето",
    "плотное красное к дичи",
    "сладкое вино к десерту",
    "портвейн к шоколаду",
    "игристое брют к морепродуктам",
    "красное полусладкое",
    "вино к утке",
    "что подойдет к бургерам?",
    "белое к азиатской кухне",
    "вино в подарок до 5000",
    "пино нуар",
    "российское красное",
    "вино из Чили до 1000",
    "аргентинский мальбек к стейку",
    "белое из Германии",
    "красное из Бордо",
    "вино к лососю",
    "розовое сухое до 1500",
    "вино к грибам",
    "саперави к хинкали",
    "белое полусухое",
    "игристое к десерту",
    "красное к твердым сырам",
    "вино на романтический вечер",
    "что выпить с друзьями к барбекю?",
    "вино к салатам",
    "темпранильо из Риохи",
    "совиньон блан к козьему сыру",
    "red wine for steak under 2000",
    "white wine for seafood",
)
