"""What an answer is: text around up to three real catalog wines, and how it was made."""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any, Literal, Protocol

from core.domain import Sweetness, WineType

Path = Literal["agent", "catalog_prompt", "offline", "similar", "welcome", "photo"]
MAX_WINES = 3


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: Usage) -> None:
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens


class CatalogWine(Protocol):
    """What a recommendation needs of a catalog row (repositories.models.Wine has it all)."""

    id: uuid.UUID
    name: str
    producer: str
    country: str
    region: str | None
    grape_varieties: list[str]
    wine_type: WineType
    sweetness: Sweetness
    price_rub: Decimal
    vintage_year: int | None
    image_url: str | None


@dataclass
class RecommendedWine:
    id: uuid.UUID
    name: str
    producer: str
    country: str
    region: str | None
    grape_varieties: list[str]
    wine_type: WineType
    sweetness: Sweetness
    price_rub: Decimal
    vintage_year: int | None
    image_url: str | None
    why: str
    url: str | None = None  # the shop's product page: the card's «Купить» button
    old_price_rub: Decimal | None = None
    # Boosted by the shop's own rules (core/shop_picks.py): the card says «Выбор магазина».
    shop_pick: bool = False
    # The catalog row behind a why the model wrote: what services/agent/_grounding.py checks
    # the why against (description, notes, alcohol…). None when the catalog wrote the why.
    row: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_wine(cls, wine: CatalogWine, why: str, *, row: Any = None) -> RecommendedWine:
        return cls(
            id=wine.id,
            name=wine.name,
            producer=wine.producer,
            country=wine.country,
            region=wine.region,
            grape_varieties=list(wine.grape_varieties),
            wine_type=wine.wine_type,
            sweetness=wine.sweetness,
            price_rub=wine.price_rub,
            vintage_year=wine.vintage_year,
            image_url=wine.image_url,
            why=why,
            url=wine.url,
            old_price_rub=wine.old_price_rub,
            row=row,
        )


@dataclass
class Recommendation:
    intro: str
    wines: list[RecommendedWine]
    closing: str
    path: Path
    tools_called: list[str] = field(default_factory=list)
    llm_calls: int = 0
    usage: Usage = field(default_factory=Usage)
    prompt_chars: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    fallback_reason: str | None = None
    # What the message was (core/language/kinds.py) and, for a manipulation attempt, its kind.
    kind: str = "request"
    manipulation: str | None = None
    # The knowledge-base entry the answer gives (core/language/knowledge.py), if any.
    entry: str | None = None
    # The turn as it should be stored: user message, tool calls and results, the final answer.
    new_messages: list[dict[str, Any]] = field(default_factory=list)
    # Claims of the model's prose dropped as false or unconfirmed, by kind
    # (services/agent/_grounding.py), and the why sentences the model wrote / that were kept.
    dropped_claims: dict[str, int] = field(default_factory=dict)
    why_sentences: int = 0
    why_sentences_kept: int = 0
    # A wine the person asked for by name (a label photo) that the shop does not have.
    unmet_name: str | None = None
    # The answer's fact row (`Turns.keep`, services/app/turns/turns.py) and a wine shown earlier
    # that has sold out («Похожие» pressed on it): what «Сообщить, когда появится» subscribes to.
    fact_id: uuid.UUID | None = None
    sold_out_id: uuid.UUID | None = None

    def public_json(self) -> dict[str, Any]:
        """The `ask --json` / API shape."""
        return {
            "intro": self.intro,
            "wines": [
                {
                    "id": str(w.id),
                    "name": w.name,
                    "price_rub": float(w.price_rub),
                    "wine_type": w.wine_type.value,
                    "sweetness": w.sweetness.value,
                    "why": w.why,
                    "url": w.url,
                    "shop_pick": w.shop_pick,
                }
                for w in self.wines
            ],
            "closing": self.closing,
            "path": self.path,
            "kind": self.kind,
            "entry": self.entry,
            "tools_called": list(self.tools_called),
            "llm_calls": self.llm_calls,
            "prompt_chars": self.prompt_chars,
            "usage": asdict(self.usage) | {"total_tokens": self.usage.total_tokens},
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
        }
