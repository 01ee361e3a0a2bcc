"""The plan of an answer's delivery: what the person is shown (intro, cards, closing) as JSON,
stored in the update's ledger row with the turn, so that a process taking the update over
sends the same answer again instead of writing another."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from core.domain import Sweetness, WineType
from core.recommendation import Recommendation, RecommendedWine


def delivery_plan(rec: Recommendation) -> dict[str, Any]:
    return {
        "intro": rec.intro,
        "closing": rec.closing,
        "path": rec.path,
        # What «Сообщить, когда появится» under the closing refers to
        "unmet_name": rec.unmet_name,
        "fact_id": None if rec.fact_id is None else str(rec.fact_id),
        "sold_out_id": None if rec.sold_out_id is None else str(rec.sold_out_id),
        "wines": [
            {
                "id": str(w.id),
                "name": w.name,
                "producer": w.producer,
                "country": w.country,
                "region": w.region,
                "grape_varieties": list(w.grape_varieties),
                "wine_type": w.wine_type.value,
                "sweetness": w.sweetness.value,
                "price_rub": str(w.price_rub),
                "vintage_year": w.vintage_year,
                "image_url": w.image_url,
                "why": w.why,
                "url": w.url,
                "old_price_rub": None if w.old_price_rub is None else str(w.old_price_rub),
                "shop_pick": w.shop_pick,
            }
            for w in rec.wines
        ],
    }


def planned_answer(plan: dict[str, Any]) -> Recommendation:
    """The answer a plan describes, to be sent (again)."""
    wines = [
        RecommendedWine(
            id=uuid.UUID(w["id"]),
            name=w["name"],
            producer=w["producer"],
            country=w["country"],
            region=w["region"],
            grape_varieties=list(w["grape_varieties"]),
            wine_type=WineType(w["wine_type"]),
            sweetness=Sweetness(w["sweetness"]),
            price_rub=Decimal(w["price_rub"]),
            vintage_year=w["vintage_year"],
            image_url=w["image_url"],
            why=w["why"],
            url=w["url"],
            old_price_rub=None if w["old_price_rub"] is None else Decimal(w["old_price_rub"]),
            shop_pick=bool(w.get("shop_pick")),  # plans stored before it have none
        )
        for w in plan["wines"]
    ]
    rec = Recommendation(plan["intro"], wines, plan["closing"], plan["path"])
    rec.unmet_name = plan.get("unmet_name")  # plans stored before alerts have none
    rec.fact_id = _uuid(plan.get("fact_id"))
    rec.sold_out_id = _uuid(plan.get("sold_out_id"))
    return rec


def _uuid(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)
