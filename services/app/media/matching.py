"""What a photo of a label or a wine list means for this shop: the wine itself, or the closest
catalog wines (same grape, region, style, price band) with why.

Names are matched as search matches them: `WineRepository.find_by_name` (a catalog name up to
case and accents, or held whole in the text), then the catalog's name index
(`catalog_index(repo).match`) with the producer checked, so a label that merely shares a grape
with a catalog wine is not taken for it.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from core.domain import WineFilters
from core.language.folding import fold, stem_key
from core.language.grapes import GRAPE_ALIASES
from core.language.request import parse_query
from core.recommendation import MAX_WINES, Recommendation, RecommendedWine
from core.text import joined
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent import catalog_index, render_answer
from services.llm.vision import ImageReading, SeenWine

POOL = 30
MAX_CANDIDATES = 3
_WORD = re.compile(r"\w+")
# Words of producers' names that say nothing about which producer it is.
GENERIC_WORDS = frozenset(
    [
        "chateau",
        "domaine",
        "domain",
        "bodega",
        "bodegas",
        "cantina",
        "tenuta",
        "weingut",
        "winery",
        "wines",
        "wine",
        "estate",
        "vineyards",
        "cellars",
        "maison",
        "casa",
        "quinta",
        "podere",
        "azienda",
        "agricola",
        "cave",
        "caves",
        "de",
        "du",
        "la",
        "le",
        "les",
        "del",
        "di",
        "da",
        "do",
        "das",
        "dos",
        "des",
        "y",
        "and",
        "et",
        "the",
        "вина",
        "винодельня",
        "шато",
    ]
)


def _words(text: str | None) -> set[str]:
    return {w for w in _WORD.findall(fold(text or "")) if len(w) > 1 and not w.isdigit()}


async def find_seen_wine(repo: WineRepository, seen: SeenWine) -> Wine | None:
    """The catalog wine on sale the label names, or None (never a guess)."""
    names = [seen.title, " ".join(p for p in (seen.producer, seen.name) if p), seen.name or ""]
    for text in dict.fromkeys(n for n in names if n):
        found = await repo.find_by_name(text)
        if found is not None:
            return found
    said = " ".join(p for p in (seen.producer, seen.name) if p)
    if not said or not seen.producer:
        return None
    ids, _ = (await catalog_index(repo)).match(said)
    if not ids or len(ids) > MAX_CANDIDATES:
        return None
    wines = await repo.get_by_ids([i for i in ids if isinstance(i, uuid.UUID | str)])
    fits = [w for w in wines if w.available and _same_wine(w, seen)]
    return fits[0] if len(fits) == 1 else None


def _same_wine(wine: Wine, seen: SeenWine) -> bool:
    """A word match is the label's wine only when its producer is named in full, most of its
    name is there, and the grapes (when both say them) agree: «Casillero del Diablo Merlot»
    is not the shop's Casillero del Diablo Cabernet Sauvignon."""
    seen_words = _words(f"{seen.producer} {seen.name or ''}")
    producer = _words(wine.producer) - GENERIC_WORDS
    if not producer or not producer <= seen_words:
        return False
    name = _words(wine.name) - producer - GENERIC_WORDS
    if name and 2 * len(name & seen_words) < len(name):
        return False
    if seen.grapes and wine.grape_varieties:
        return bool(_grapes(seen.grapes) & _grapes(wine.grape_varieties))
    return True


def _grapes(names: Iterable[str]) -> set[str]:
    return {GRAPE_ALIASES.get(stem_key(n), fold(n).lower()) for n in names}


@dataclass
class _Candidate:
    wine: Wine
    grape: bool = False
    region: bool = False
    country: bool = False
    style: bool = False
    like: SeenWine = field(default_factory=SeenWine)

    def score(self, price: int | None) -> float:
        points = 3 * self.grape + 2 * self.region + self.country + self.style
        if price:
            # Within the same band (±40 %) counts like a matching style; farther loses points.
            ratio = float(self.wine.price_rub) / price
            points += 1 if 0.6 <= ratio <= 1.4 else -min(2.0, abs(ratio - 1))
        return points


async def closest_wines(
    repo: WineRepository,
    seen: SeenWine,
    budget: WineFilters,
    exclude: set[uuid.UUID],
) -> list[_Candidate]:
    """Catalog wines closest to a wine the shop does not have, best first."""
    price_filters = {"price_min": budget.price_min, "price_max": budget.price_max}
    found: dict[uuid.UUID, _Candidate] = {}

    async def gather(flag: str, **filters: object) -> None:
        for wine in await repo.search(WineFilters(**filters, **price_filters), limit=POOL):
            if wine.id not in exclude:
                candidate = found.setdefault(wine.id, _Candidate(wine, like=seen))
                setattr(candidate, flag, True)

    for grape in seen.grapes[:2]:
        await gather("grape", grape_variety=grape)
    for place in [p.strip() for p in (seen.region or "").split(",") if p.strip()][:2]:
        await gather("region", region=place)
        await gather("country", country=place)
    if seen.wine_type is not None:
        await gather("style", wine_type=seen.wine_type)
    if not found:
        await gather("style")
    return sorted(
        found.values(),
        key=lambda c: (-c.score(seen.price_rub), c.wine.price_rub, c.wine.slug),
    )


def _why_close(candidate: _Candidate, listed: bool = False) -> str:
    wine = candidate.wine
    parts: list[str] = []
    if candidate.grape:
        parts.append(f"тот же сорт ({joined(wine.grape_varieties)})")
    if candidate.region:
        parts.append(f"тот же регион ({wine.region or wine.country})")
    elif candidate.country:
        parts.append(f"та же страна ({wine.country})")
    if not parts:
        parts.append(f"близкий стиль: {joined([wine.country, *wine.grape_varieties])}")
    text = ", ".join(parts)
    if listed and candidate.like.title:
        return f"Похоже на «{candidate.like.title}» из фото: {text}."
    return text[0].upper() + text[1:] + "."


def _recommendation(
    seen_text: str, intro: str, wines: list[RecommendedWine], closing: str
) -> Recommendation:
    rec = Recommendation(intro=intro, wines=wines, closing=closing, path="photo")
    rec.new_messages = [
        {"role": "user", "content": seen_text},
        {
            "role": "assistant",
            "content": render_answer(intro, [(str(w.id), w.why) for w in wines], closing),
        },
    ]
    return rec


async def label_answer(
    repo: WineRepository, seen: SeenWine, budget: WineFilters, shown: set[uuid.UUID]
) -> Recommendation:
    title = seen.title or ", ".join(seen.grapes) or "вино"
    asked = f"[фото этикетки: {title}]"
    wine = await find_seen_wine(repo, seen)
    if wine is not None:
        why = "Это вино с вашего фото — оно есть у нас."
        if seen.vintage and wine.vintage_year and seen.vintage != wine.vintage_year:
            why = f"Это вино с вашего фото; у нас урожай {wine.vintage_year}, не {seen.vintage}."
        return _recommendation(
            asked,
            f"На этикетке — «{title}». Есть у нас:",
            [RecommendedWine.from_wine(wine, why)],
            "Оцените его 👍/👎 или нажмите «Похожие» — покажу вина рядом с ним.",
        )
    close = (await closest_wines(repo, seen, budget, shown))[:MAX_WINES]
    picks = [RecommendedWine.from_wine(c.wine, _why_close(c)) for c in close]
    if picks:
        intro = f"На этикетке — «{title}». Этого вина нет в магазине, но есть близкие:"
        closing = "Оцените их 👍/👎 — я запомню ваш вкус."
    else:
        intro = f"На этикетке — «{title}». Этого вина нет в магазине, и близких я не нашел."
        closing = "Опишите словами, что вам в нем нравится, — подберу похожее."
    rec = _recommendation(asked, intro, picks, closing)
    rec.unmet_name = title
    return rec


async def wine_list_answer(
    repo: WineRepository, reading: ImageReading, budget: WineFilters, shown: set[uuid.UUID]
) -> Recommendation:
    listed = [w for w in reading.wines if w.title or w.grapes]
    asked = "[фото винной карты: " + "; ".join(w.title or ", ".join(w.grapes) for w in listed) + "]"
    have: list[RecommendedWine] = []
    for seen in listed:
        wine = await find_seen_wine(repo, seen)
        if wine is not None and all(w.id != wine.id for w in have):
            have.append(RecommendedWine.from_wine(wine, f"Есть в карте на фото: «{seen.title}»."))
    if have:
        return _recommendation(
            asked,
            "Из вин на фото у нас есть:",
            have[:MAX_WINES],
            "Оцените их 👍/👎 — я запомню ваш вкус.",
        )
    ranked: dict[uuid.UUID, tuple[float, _Candidate]] = {}
    for seen in listed:
        for candidate in await closest_wines(repo, seen, budget, shown):
            score = candidate.score(seen.price_rub)
            if candidate.wine.id not in ranked or ranked[candidate.wine.id][0] < score:
                ranked[candidate.wine.id] = (score, candidate)
    best = sorted(ranked.values(), key=lambda sc: (-sc[0], sc[1].wine.price_rub))[:MAX_WINES]
    picks = [RecommendedWine.from_wine(c.wine, _why_close(c, listed=True)) for _, c in best]
    if picks:
        intro = "Вин с фото в магазине нет, но вот самые близкие к ним из нашего каталога:"
        closing = "Оцените их 👍/👎 — я запомню ваш вкус."
    else:
        intro = "Вин с фото в магазине нет, и близких я не нашел."
        closing = "Напишите, какое из них вам интереснее, — подберу похожее."
    return _recommendation(asked, intro, picks, closing)


def dish_request(dish: str, caption: str) -> str:
    """The text question a dish photo stands for (it goes through the normal agent path)."""
    request = f"Что выпить к блюду: {dish}."
    return f"{request} {caption}" if caption else request


def budget_in(caption: str) -> WineFilters:
    """The price band a caption asks for («до 2000»), the only filter it sets on close wines."""
    asked = parse_query(caption).filters if caption else WineFilters()
    return WineFilters(price_min=asked.price_min, price_max=asked.price_max)
