"""The shop's console as data: what the web pages (and their CSV downloads) show, computed
from the request facts (repositories/console.py). No Telegram id leaves this module: people
are counted by their keyed hash."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from core.domain import format_price
from core.settings import Settings
from repositories import console as q
from repositories.console import DIMENSIONS, Period
from services.app.sessions import GuardedSessions

PERIODS = (7, 30, 90, 365)
DIMENSION_NAMES = {
    "style": "Стиль",
    "food": "Блюдо",
    "country": "Страна",
    "grape": "Сорт",
    "price_band": "Цена",
    "occasion": "Повод",
}
TOP = 10


@dataclass(frozen=True)
class Window:
    """The chosen period (last `days` days, up to now) and the one just before it."""

    days: int
    path: str | None
    current: Period
    previous: Period

    @property
    def day_list(self) -> list[datetime]:
        return [self.current.start + timedelta(days=i) for i in range(self.days)]


def window(days: int, path: str | None = None, now: datetime | None = None) -> Window:
    """The last `days` calendar days (UTC) including today, and as many days before them."""
    end = now or datetime.now(UTC)
    today = end.replace(hour=0, minute=0, second=0, microsecond=0)
    start = today - timedelta(days=days - 1)
    previous = Period(start - timedelta(days=days), start, path)
    return Window(days, path, Period(start, end, path), previous)


def unmet_label(row: dict[str, Any]) -> str:
    parts = [row.get("style"), row.get("country"), row.get("region"), row.get("grape")]
    text = " ".join(str(p) for p in parts if p)
    if row.get("food"):
        text += f" к {row['food']}" if text else f"к {row['food']}"
    for extra in (row.get("price_band"), row.get("occasion")):
        if extra:
            text += f", {extra}" if text else str(extra)
    return text


def unmet_outcome(row: dict[str, Any]) -> str:
    if row["nothing"] * 2 >= row["n"] or row.get("nearest_price") is None:
        return "нет в наличии"
    return "ближайшее показанное " + format_price(Decimal(row["nearest_price"]))


class ConsoleService:
    def __init__(self, guarded: GuardedSessions, settings: Settings) -> None:
        self.guarded = guarded
        self.settings = settings

    @property
    def clicks_tracked(self) -> bool:
        return self.settings.public_base_url is not None

    async def overview(self, w: Window) -> dict[str, Any]:
        async with self.guarded() as s:
            days = await q.daily(s, w.current)
            totals = await q.totals(s, w.current)
            mix = await q.path_mix(s, w.current)
            votes = await q.votes(s, w.current)
            clicks = await q.clicks(s, w.current)
        price = self.settings.llm_price_per_1k_tokens
        by_day = {d["day"].date(): d for d in days}
        series = []
        for day in w.day_list:
            d = by_day.get(day.date(), {})
            tokens = int(d.get("tokens", 0))
            series.append(
                {
                    "day": day.date().isoformat(),
                    "answers": int(d.get("answers", 0)),
                    "people": int(d.get("people", 0)),
                    "unmet": int(d.get("unmet", 0)),
                    "tokens": tokens,
                    "cost": round(tokens / 1000 * price, 2),
                }
            )
        total = int(totals["answers"] or 0)
        voted = votes["up"] + votes["down"]
        return {
            "series": series,
            "answers": total,
            "people": int(totals["people"] or 0),
            "tokens": int(totals["tokens"] or 0),
            "cost": round(int(totals["tokens"] or 0) / 1000 * price, 2),
            "p50": totals["p50"],
            "p95": totals["p95"],
            "paths": [
                {**m, "share": round(100 * m["answers"] / total, 1) if total else 0} for m in mix
            ],
            "up": votes["up"],
            "down": votes["down"],
            "up_share": round(100 * votes["up"] / voted) if voted else None,
            "clicks": clicks,
        }

    async def demand(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        async with self.guarded() as s:
            rows = await q.demand(s, w.current, w.previous)
        current: dict[tuple[str, str], int] = defaultdict(int)
        previous: dict[tuple[str, str], int] = defaultdict(int)
        per_day: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for r in rows:
            key = (r["dim"], str(r["value"]))
            if r["day"] >= w.current.start:
                current[key] += r["n"]
                per_day[key][r["day"].date().isoformat()] = r["n"]
            else:
                previous[key] += r["n"]
        days = [d.date().isoformat() for d in w.day_list]
        result: dict[str, list[dict[str, Any]]] = {}
        for dim in DIMENSIONS:
            ranked = sorted(
                ((k, n) for k, n in current.items() if k[0] == dim), key=lambda kn: (-kn[1], kn[0])
            )[:TOP]
            total = sum(n for k, n in current.items() if k[0] == dim)
            result[dim] = [
                {
                    "value": key[1],
                    "requests": n,
                    "share": round(100 * n / total, 1) if total else 0,
                    "previous": previous.get(key, 0),
                    "change": _change(n, previous.get(key, 0)),
                    "trend": [per_day[key].get(d, 0) for d in days],
                }
                for key, n in ranked
            ]
        return result

    async def unmet(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        async with self.guarded() as s:
            groups = await q.unmet(s, w.current)
            names = await q.unmet_names(s, w.current)
        rows = [
            {
                "request": unmet_label(g),
                "requests": g["n"],
                "nothing": g["nothing"],
                "outcome": unmet_outcome(g),
                "examples": " · ".join(g["examples"] or []),
            }
            for g in groups
        ]
        return {
            "groups": rows,
            "names": [
                {"wine": n["name"], "requests": n["n"], "last": n["last"].date().isoformat()}
                for n in names
            ],
        }

    async def wines(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        async with self.guarded() as s:
            rows = await q.wines(s, w.current)
            never = await q.never_shown(s, w.current)
        table = [
            {
                "wine": r["name"],
                "producer": r["producer"],
                "price": int(r["price_rub"]),
                "available": r["available"],
                "shown": r["shown"],
                "up": r["up"],
                "down": r["down"],
                "clicks": r["clicks"],
                "click_rate": round(100 * r["clicks"] / r["shown"], 1) if r["shown"] else None,
            }
            for r in rows
        ]
        return {
            "shown": [r for r in table if r["available"]],
            "never": [
                {"wine": r["name"], "producer": r["producer"], "price": int(r["price_rub"])}
                for r in never
            ],
            "unavailable": [r for r in table if not r["available"]],
        }

    async def catalog(self) -> dict[str, Any]:
        async with self.guarded() as s:
            syncs = await q.catalog_syncs(s)
            state = await q.catalog_state(s, self.settings.embedding_model)
        return {
            "state": state,
            "syncs": [
                {
                    "when": r["created_at"].strftime("%Y-%m-%d %H:%M"),
                    "source": r["source"],
                    "rows": r["rows"],
                    "inserted": r["inserted"],
                    "updated": r["updated"],
                    "unchanged": r["unchanged"],
                    "unavailable": r["marked_unavailable"],
                    "skipped": r["skipped"],
                    "why": r["error"]
                    or "; ".join(
                        f"{p.get('field')}: {p.get('problem')}" for p in (r["reasons"] or [])[:5]
                    ),
                }
                for r in syncs
            ],
        }


def _change(now: int, before: int) -> int | None:
    """Per cent against the period before; None when there was nothing before."""
    return round(100 * (now - before) / before) if before else None
