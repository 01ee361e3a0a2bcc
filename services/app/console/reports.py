"""The shop's console as data: what the web pages (and their CSV downloads) show, from the
per-day rollups of the request facts (repositories/fact_rollup.py, brought up to date before
each view). No Telegram id leaves this module: people are counted by their keyed hash."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from core.domain import format_price
from core.settings import Settings
from repositories import console as q
from repositories.alerts import counts as alert_counts
from repositories.console import DIMENSIONS, UNMET_KEYS, Period
from repositories.fact_rollup import SEPARATOR, refresh
from repositories.orders import order_syncs
from repositories.sales import daily_sales, refresh_sales, sales_totals
from services.app.console.estimates import people_estimate, percentile
from services.app.console.sales import (
    alert_funnel,
    funnel,
    rub,
    rubles,
    sales_per_day,
    sales_summary,
)
from services.app.database import Database

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
TREND_POINTS = 30  # a demand value's trend: at most this many points over the period
TODAY_SECONDS = 5.0
EXAMPLE_DAYS = 30  # example wordings are looked up in the period's last days only


@dataclass(frozen=True)
class Window:
    """The chosen period (the last `days` UTC days, today included) and the one before it."""

    days: int
    path: str | None
    current: Period
    previous: Period

    @property
    def day_list(self) -> list[date]:
        return [self.current.first + timedelta(days=i) for i in range(self.days)]


def window(days: int, path: str | None = None, now: datetime | None = None) -> Window:
    today = (now or datetime.now(UTC)).astimezone(UTC).date()
    first = today - timedelta(days=days - 1)
    previous = Period(first - timedelta(days=days), first - timedelta(days=1), path)
    return Window(days, path, Period(first, today, path), previous)


def unmet_label(row: dict[str, Any]) -> str:
    parts = [row.get("style"), row.get("country"), row.get("region"), row.get("grape")]
    text = " ".join(str(p) for p in parts if p)
    if row.get("food"):
        text += f" к {row['food']}" if text else f"к {row['food']}"
    for extra in (row.get("price_band"), row.get("occasion")):
        if extra:
            text += f", {extra}" if text else str(extra)
    return text


def unmet_outcome(n: int, nothing: int, nearest: int | None) -> str:
    if nothing * 2 >= n or nearest is None:
        return "нет в наличии"
    return "ближайшее показанное " + format_price(Decimal(nearest))


class ConsoleService:
    def __init__(self, database: Database, settings: Settings) -> None:
        self.sessions = database.sessions
        self.settings = settings
        self._today_at = -TODAY_SECONDS

    @property
    def clicks_tracked(self) -> bool:
        return self.settings.public_base_url is not None

    async def refresh(self) -> None:
        """Before a view: any day without a final rollup (after /forget, say) and today —
        today at most every TODAY_SECONDS (the views of one page visit share it); the sales of
        every day whose orders changed."""
        fresh = time.monotonic() - self._today_at < TODAY_SECONDS
        async with self.sessions() as s:
            computed = await refresh(s, today_fresh=fresh)
            await refresh_sales(s)  # the days whose orders changed: none most of the time
            await s.commit()
        if computed:
            self._today_at = time.monotonic()

    async def overview(self, w: Window) -> dict[str, Any]:
        await self.refresh()
        async with self.sessions() as s:
            days = await q.daily(s, w.current)
            hll = await q.values(s, w.current, ("hll", "latency"))
            mix = await q.path_mix(s, w.current)
            votes = await q.votes(s, w.current)
            clicks = await q.clicks(s, w.current)
            shown = await q.shown(s, w.current)
            sold = await daily_sales(s, w.current.first, w.current.last)
            alerts = await alert_counts(s, *_bounds(w.current.first, w.current.last))
        price = self.settings.llm_price_per_1k_tokens
        by_day = {d["day"]: d for d in days}
        series = []
        for day, sales in zip(w.day_list, sales_per_day(w.day_list, sold), strict=True):
            d = by_day.get(day, {})
            tokens = int(d.get("tokens", 0))
            series.append(
                {
                    "day": day.isoformat(),
                    "answers": int(d.get("answers", 0)),
                    "people": int(d.get("people", 0)),
                    "unmet": int(d.get("unmet", 0)),
                    "tokens": tokens,
                    "cost": rub(tokens / Decimal(1000) * price),
                }
                | sales
            )
        registers = {value: int(n) for dim, value, n, *_ in hll if dim == "hll"}
        latency = {int(value): int(n) for dim, value, n, *_ in hll if dim == "latency"}
        total = sum(d["answers"] for d in series)
        tokens = sum(d["tokens"] for d in series)
        voted = votes["up"] + votes["down"]
        conversations = sum(d["people"] for d in series)
        sales = sales_summary(series, conversations, tokens, price)
        return {
            "series": series,
            "answers": total,
            "people": people_estimate(registers),
            "tokens": tokens,
            "cost": rub(tokens / Decimal(1000) * price),
            "p50": percentile(latency, 0.5),
            "p95": percentile(latency, 0.95),
            "paths": [
                {
                    "path": m["path"],
                    "answers": int(m["answers"]),
                    "share": round(100 * int(m["answers"]) / total, 1) if total else 0,
                    "p50": percentile(m["histogram"], 0.5),
                    "p95": percentile(m["histogram"], 0.95),
                }
                for m in mix
            ],
            "up": votes["up"],
            "down": votes["down"],
            "up_share": round(100 * votes["up"] / voted) if voted else None,
            "clicks": clicks,
            "sales": sales,
            "funnel": funnel(shown, votes["up"], clicks, sales["ordered"]),
            "alerts": alert_funnel(*alerts),
        }

    async def sales_totals(self, days: int) -> dict[str, Any]:
        """The last `days` UTC days' attributed sales (today included): /metrics."""
        w = window(days)
        async with self.sessions() as s:
            await refresh_sales(s)
            totals = await sales_totals(s, w.current.first, w.current.last)
            await s.commit()
        return totals

    async def demand(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        await self.refresh()
        points = min(w.days, TREND_POINTS)
        async with self.sessions() as s:
            now = await q.values(s, w.current, DIMENSIONS, points)
            before = await q.values(s, w.previous, DIMENSIONS)
        current: dict[tuple[str, str], int] = defaultdict(int)
        trend: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * points)
        for dim, value, n, _extra, _low, point in now:
            current[(dim, value)] += int(n)
            trend[(dim, value)][min(int(point), points - 1)] += int(n)
        previous = {(dim, value): int(n) for dim, value, n, *_ in before}
        result: dict[str, list[dict[str, Any]]] = {}
        for dim in DIMENSIONS:
            mine = [(k, n) for k, n in current.items() if k[0] == dim]
            total = sum(n for _, n in mine)
            ranked = sorted(mine, key=lambda kn: (-kn[1], kn[0]))[:TOP]
            result[dim] = [
                {
                    "value": key[1],
                    "requests": n,
                    "share": round(100 * n / total, 1) if total else 0,
                    "previous": previous.get(key, 0),
                    "change": _change(n, previous.get(key, 0)),
                    "trend": trend[key],
                }
                for key, n in ranked
            ]
        return result

    async def unmet(self, w: Window, limit: int = 50) -> dict[str, list[dict[str, Any]]]:
        await self.refresh()
        async with self.sessions() as s:
            groups = [
                {"value": value, "n": n, "extra": extra, "low": low}
                for value, n, extra, low in await q.top_values(s, w.current, "unmet", limit)
            ]
            names = await q.top_values(s, w.current, "asked", 30)
            recent = Period(
                max(w.current.first, w.current.last - timedelta(EXAMPLE_DAYS - 1)),
                w.current.last,
                w.path,
            )
            examples = await q.unmet_examples(s, recent, [g["value"] for g in groups])
        table = []
        for g in groups:
            fields = dict(zip(UNMET_KEYS, g["value"].split(SEPARATOR), strict=True))
            table.append(
                {
                    "request": unmet_label(fields),
                    "requests": int(g["n"]),
                    "nothing": int(g["extra"]),
                    "outcome": unmet_outcome(int(g["n"]), int(g["extra"]), g["low"]),
                    "examples": " · ".join(examples.get(g["value"], [])),
                }
            )
        return {
            "groups": table,
            "names": [{"wine": value, "requests": int(n)} for value, n, *_ in names],
        }

    async def wines(self, w: Window) -> dict[str, list[dict[str, Any]]]:
        await self.refresh()
        async with self.sessions() as s:
            rows = await q.wine_rows(s, w.current)
        table = [
            {
                "wine": r["name"],
                "producer": r["producer"],
                "price": int(r["price_rub"]),
                "available": r["available"],
                "shown": int(r["shown"]),
                "up": int(r["up"]),
                "down": int(r["down"]),
                "clicks": int(r["clicks"]),
                "click_rate": round(100 * r["clicks"] / r["shown"], 1) if r["shown"] else None,
                "orders": int(r["orders"]),
                "led": rubles(r["led"]),
                "assisted": rubles(r["assisted"]),
            }
            for r in rows
        ]
        used = [
            r for r in table if r["shown"] or r["up"] or r["down"] or r["clicks"] or r["orders"]
        ]
        return {
            "shown": [r for r in used if r["available"]],
            "never": [
                {"wine": r["wine"], "producer": r["producer"], "price": r["price"]}
                for r in table
                if r["available"] and not r["shown"]
            ],
            "unavailable": [r for r in used if not r["available"]],
        }

    async def catalog(self) -> dict[str, Any]:
        async with self.sessions() as s:
            syncs = await q.catalog_syncs(s)
            state = await q.catalog_state(s, self.settings.embedding_model)
            order_imports = await order_syncs(s)
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
            "order_imports": [
                {
                    "when": r["created_at"].strftime("%Y-%m-%d %H:%M"),
                    "source": r["source"],
                    "rows": r["rows"],
                    "inserted": r["inserted"],
                    "updated": r["updated"],
                    "unchanged": r["unchanged"],
                    "cancelled": r["cancelled"],
                    "skipped": r["skipped"],
                    "why": r["error"] or _reasons(r["reasons"]),
                }
                for r in order_imports
            ],
        }


def _reasons(reasons: list[dict[str, Any]] | None) -> str:
    return "; ".join(
        f"{p.get('row')}: {p.get('field')}: {p.get('problem')}" for p in (reasons or [])[:5]
    )


def _change(now: int, before: int) -> int | None:
    """Per cent against the period before; None when there was nothing before."""
    return round(100 * (now - before) / before) if before else None


def _bounds(first: date, last: date) -> tuple[datetime, datetime]:
    """The UTC days first..last as [since, until)."""
    since = datetime(first.year, first.month, first.day, tzinfo=UTC)
    return since, since + timedelta(days=(last - first).days + 1)
