"""The row of request facts recorded beside every answer (the shop's console reads them).

What the request asked is read by the same reader as the offline path (`parse_query`) plus
the occasion; whether the catalog satisfied it is judged on what was shown: every wine
meeting every condition read → `exact`, some shown but not all conditions met → `relaxed`
(the nearest price shown is kept), nothing shown → `none`; a request with no condition →
`free`. The person is a keyed hash (HMAC of the Telegram id with the web signing key): the
console never sees an id, while `user_id` stays for /forget."""

from __future__ import annotations

import hashlib
import hmac
import os
import time
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, WineFilters
from core.language.folding import fold
from core.language.occasions import occasion_in
from core.language.price_bands import read_price_band
from core.language.request import parse_query
from core.language.wine_names import asked_wine_name
from core.recommendation import Recommendation, RecommendedWine
from repositories.wines import WineRepository
from services.agent import catalog_index
from services.app.database import SessionFactory
from services.app.facts.buy_links import BuyLinks

MAX_WORDING = 200
BAND_NAMES = {
    "budget": "недорого",
    "moderate": "не очень дорого",
    "decent": "приличное",
    "gift": "на подарок (премиум)",
}
_BANDS = ((1000, "до 1 000 ₽"), (2000, "до 2 000 ₽"), (3000, "до 3 000 ₽"), (5000, "до 5 000 ₽"))


def new_fact_id() -> uuid.UUID:
    """Time-ordered (UUIDv7 layout: 48 bits of milliseconds, then random): new rows land at
    the end of the primary key's index instead of on a random page of it."""
    millis = time.time_ns() // 1_000_000
    value = (millis << 80) | int.from_bytes(os.urandom(10), "big")
    value = (value & ~(0xF << 76)) | (0x7 << 76)  # version 7
    value = (value & ~(0x3 << 62)) | (0x2 << 62)  # RFC 4122 variant
    return uuid.UUID(int=value)


def person_hash(key: str, user_id: int | None) -> str | None:
    if user_id is None:
        return None
    digest = hmac.new(key.encode(), f"person:{user_id}".encode(), hashlib.sha256)
    return digest.hexdigest()[:12]


def price_band(filters: WineFilters, text: str) -> str | None:
    if filters.price_max is not None:
        for limit, name in _BANDS:
            if filters.price_max <= limit:
                return name
        return "дороже 5 000 ₽"
    if filters.price_min is not None:
        return f"от {int(filters.price_min):,} ₽".replace(",", " ")
    band = read_price_band(text)
    return BAND_NAMES.get(band.value) if band is not None else None


def style_of(filters: WineFilters) -> str | None:
    parts = []
    if filters.wine_type is not None:
        parts.append(WINE_TYPE_RU[filters.wine_type])
    if filters.sweetness is not None:
        parts.append(SWEETNESS_RU[filters.sweetness])
    return " ".join(parts) or None


def body_of(filters: WineFilters) -> str | None:
    if filters.body_min is not None and filters.body_min >= 4:
        return "полнотелое"
    if filters.body_max is not None and filters.body_max <= 2:
        return "легкое"
    if filters.body_min is not None or filters.body_max is not None:
        return "среднетелое"
    return None


def _fits(wine: RecommendedWine, f: WineFilters) -> bool:
    if f.wine_type is not None and wine.wine_type != f.wine_type:
        return False
    if f.sweetness is not None and wine.sweetness != f.sweetness:
        return False
    if f.country is not None and fold(wine.country) != fold(f.country):
        return False
    if f.region is not None and fold(f.region) not in fold(wine.region or ""):
        return False
    if f.grape_variety is not None:
        grape = fold(f.grape_variety)
        if not any(grape in fold(g) for g in wine.grape_varieties):
            return False
    if f.price_max is not None and wine.price_rub > f.price_max:
        return False
    return not (f.price_min is not None and wine.price_rub < f.price_min)


def match_of(filters: WineFilters, wines: Sequence[RecommendedWine], named: bool) -> str:
    if not wines:
        return "none"
    if filters.is_empty() and not named:
        return "free"
    return "exact" if all(_fits(w, filters) for w in wines) else "relaxed"


async def note_unmet_name(sessions: SessionFactory, rec: Recommendation) -> None:
    """A wine asked for by name in the words that the catalog does not have: what the
    console lists as asked for and not in the shop (a label photo sets it itself). A session
    is opened only when the words name a wine."""
    if rec.unmet_name is not None or rec.path == "photo":
        return
    name = asked_wine_name(request_text(rec))
    if not name:
        return
    async with sessions() as session:
        if not (await catalog_index(WineRepository(session))).match(name)[0]:
            rec.unmet_name = name


def request_text(rec: Recommendation) -> str:
    for message in rec.new_messages:
        if message.get("role") == "user" and isinstance(message.get("content"), str):
            return str(message["content"])
    return ""


class FactRecorder:
    """Builds the fact row and, with a public URL, turns «Купить» into the tracked redirect."""

    def __init__(self, key: str, links: BuyLinks | None = None) -> None:
        self.key = key
        self.links = links

    def track_links(self, rec: Recommendation, fact_id: uuid.UUID) -> None:
        """Before the answer is stored and sent: its «Купить» links go through /go/."""
        if self.links is None:
            return
        for wine in rec.wines:
            if wine.url and wine.url.startswith(("https://", "http://")):
                wine.url = self.links.link(wine.id, fact_id)

    def values(
        self,
        fact_id: uuid.UUID,
        user_id: int | None,
        rec: Recommendation,
        text: str | None = None,
        *,
        keep_wording: bool = True,
    ) -> dict[str, Any]:
        words = request_text(rec) if text is None else text
        if words.startswith("[фото"):  # a label photo: the name it showed, not conditions
            words = ""
        filters = parse_query(words).filters if words else WineFilters()
        wines = rec.wines
        match = "none" if rec.unmet_name else match_of(filters, wines, False)
        nearest: int | None = None
        if match == "relaxed" and wines:
            nearest = int(min(w.price_rub for w in wines))
        return {
            "id": fact_id,
            "user_id": user_id,
            "person": person_hash(self.key, user_id),
            "path": rec.path,
            "kind": rec.kind,
            "style": style_of(filters),
            "body": body_of(filters),
            "country": filters.country,
            "region": filters.region,
            "grape": filters.grape_variety,
            "food": filters.food_pairing,
            "occasion": occasion_in(words) if words else None,
            "price_band": price_band(filters, words) if words else None,
            "price_max": _int(filters.price_max),
            "match": match,
            "asked_name": rec.unmet_name,
            "wine_ids": [w.id for w in wines] or None,
            "nearest_price": nearest,
            "latency_ms": int(rec.timings_ms.get("total", 0)),
            "tokens": rec.usage.total_tokens,
            "llm_calls": rec.llm_calls,
            "tools": len(rec.tools_called),
            "wording": (" ".join(words.split())[:MAX_WORDING] or None) if keep_wording else None,
        }


def _int(value: Decimal | None) -> int | None:
    return None if value is None else int(value)
