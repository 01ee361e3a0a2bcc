"""The console's sales: revenue the sommelier led or assisted per day, the funnel from a wine
shown to a wine ordered, revenue per conversation and the model's cost per attributed sale.

Words as the console uses them: a *sale* is an order with at least one line attributed led or
assisted (`repositories/orders.py` decides which); *ordered* counts those lines; a
*conversation* is a person's day with the bot (the people of each day summed: the console
counts people per day, and a conversation ends after a day's silence,
`CONVERSATION_INACTIVITY_HOURS`). Sales are the shop's, not an answer path's: a path chosen in
the console narrows the answers, shows, tokens and conversations, never the orders."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

KOPECK = Decimal("0.01")
FUNNEL_STEPS = (
    ("shown", "Показано вин"),
    ("up", "Нравится"),
    ("clicks", "«Купить»"),
    ("ordered", "Заказано (привел или помог бот)"),
)


def rub(value: Decimal | int | float) -> Decimal:
    """To the kopeck: a cost or an average."""
    return Decimal(value).quantize(KOPECK, rounding=ROUND_HALF_UP)


def rubles(value: Decimal | int) -> int:
    """To the ruble: revenue in a table or a chart, as the shop's prices are."""
    return int(Decimal(value).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def sales_per_day(days: Sequence[date], rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every day of the period: led and assisted revenue (whole ₽), the sales and the lines
    ordered (0 without any)."""
    by_day = {r["day"]: r for r in rows}
    series = []
    for day in days:
        r = by_day.get(day, {})
        series.append(
            {
                "led": rubles(r.get("led", 0)),
                "assisted": rubles(r.get("assisted", 0)),
                "sales": int(r.get("orders", 0)),
                "ordered": int(r.get("lines", 0)),
            }
        )
    return series


def funnel(shown: int, up: int, clicks: int, ordered: int) -> list[dict[str, Any]]:
    """The four steps with each one's share of the step before (None after a zero) and of the
    wines shown."""
    counts = {"shown": shown, "up": up, "clicks": clicks, "ordered": ordered}
    rows = _steps(FUNNEL_STEPS, counts)
    for (key, _), row in zip(FUNNEL_STEPS, rows, strict=True):
        row["of_shown"] = _percent(row["count"], shown) if key != "shown" else None
    return rows


ALERT_STEPS = (
    ("sent", "Отправлено уведомлений"),
    ("opened", "Открыто (нажата кнопка или «Купить»)"),
    ("ordered", "Заказано через «Купить» уведомления"),
)


def alert_funnel(sent: int, opened: int, ordered: int) -> list[dict[str, Any]]:
    """Alerts (issue 43): sent → opened → ordered, each with its share of the step before."""
    return _steps(ALERT_STEPS, {"sent": sent, "opened": opened, "ordered": ordered})


def _steps(steps: Sequence[tuple[str, str]], counts: dict[str, int]) -> list[dict[str, Any]]:
    """Each step's title, count and share of the step before (None for the first)."""
    rows: list[dict[str, Any]] = []
    before: int | None = None
    for key, title in steps:
        n = counts[key]
        of_previous = None if before is None else _percent(n, before)
        rows.append({"step": title, "count": n, "of_previous": of_previous})
        before = n
    return rows


def sales_summary(
    series: Sequence[dict[str, Any]], conversations: int, tokens: int, price: Decimal
) -> dict[str, Any]:
    """The period's totals: led, assisted, revenue, sales, revenue per conversation and, with
    a price per 1,000 tokens, the model's cost per sale (None when it cannot be said)."""
    led = sum(int(d["led"]) for d in series)
    assisted = sum(int(d["assisted"]) for d in series)
    sales = sum(int(d["sales"]) for d in series)
    revenue = led + assisted
    cost = Decimal(tokens) / 1000 * price
    return {
        "led": led,
        "assisted": assisted,
        "revenue": revenue,
        "sales": sales,
        "ordered": sum(int(d["ordered"]) for d in series),
        "conversations": conversations,
        "per_conversation": rub(Decimal(revenue) / conversations) if conversations else None,
        "cost_per_sale": rub(cost / sales) if price > 0 and sales else None,
    }


def _percent(n: int, of: int) -> float | None:
    return round(100 * n / of, 1) if of else None
