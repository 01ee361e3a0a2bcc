"""The console's five views as template contexts. Every table is a `Table` (columns and rows),
shown on the page and downloadable as CSV from the same data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.spreadsheet import csv_text
from services.app.console.reports import DIMENSION_NAMES, ConsoleService, Window
from web.console.charts import bar_chart, share_bars, sparkline

VIEWS = {
    "overview": "Обзор",
    "demand": "Спрос",
    "unmet": "Неудовлетворенный спрос",
    "wines": "Вина",
    "catalog": "Каталог",
    "rules": "Выбор магазина",  # web/console/rules.py: the shop's boost and bury rules
}


@dataclass
class Table:
    name: str
    title: str
    columns: list[tuple[str, str]]
    rows: list[dict[str, Any]]

    def csv(self) -> str:
        """The table as the CSV download (cells made safe for a spreadsheet)."""
        return csv_text(
            [title for _, title in self.columns],
            ([row.get(k) for k, _ in self.columns] for row in self.rows),
        )


WEEKLY_AFTER_DAYS = 90  # longer periods are drawn and tabulated by week
SUMMED = ("answers", "people", "unmet", "tokens", "cost", "led", "assisted", "sales", "ordered")


def by_week(series: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Daily rows summed per week (labelled by the week's first day in the period);
    people summed too: person-days, as on the daily chart."""
    weeks: list[dict[str, Any]] = []
    for index, day in enumerate(series):
        if index % 7 == 0:
            weeks.append({**day})
        else:
            for key in SUMMED:
                weeks[-1][key] = round(weeks[-1][key] + day[key], 2)
    return weeks


def _with_bars(rows: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """`rows`, each given the width of its bar (`key` against the largest)."""
    for row, width in zip(rows, share_bars(rows, key, 80), strict=True):
        row["bar"] = width
    return rows


async def overview(console: ConsoleService, w: Window) -> dict[str, Any]:
    data = await console.overview(w)
    weekly = w.days > WEEKLY_AFTER_DAYS
    series = by_week(data["series"]) if weekly else data["series"]
    days = [d["day"] for d in series]
    paths = _with_bars(data["paths"], "answers")
    funnel = _with_bars(data["funnel"], "count")
    alerts = _with_bars(data["alerts"], "count")
    return {
        "data": data,
        "answers_chart": bar_chart(
            days, [d["answers"] for d in series], [d["unmet"] for d in series]
        ),
        "people_chart": bar_chart(days, [d["people"] for d in series], height=120),
        "cost_chart": bar_chart(
            days, [float(d["cost"]) or d["tokens"] for d in series], height=120
        ),
        "sales_chart": bar_chart(
            days,
            [d["led"] + d["assisted"] for d in series],
            [d["led"] for d in series],
        ),
        "cost_in_rub": console.settings.llm_price_per_1k_tokens > 0,
        "per": "неделю" if weekly else "день",
        "tables": [
            Table(
                "days",
                "По неделям" if weekly else "По дням",
                [
                    ("day", "Неделя с" if weekly else "День"),
                    ("answers", "Ответов"),
                    ("people", "Людей"),
                    ("unmet", "Неудовлетворено"),
                    ("tokens", "Токенов LLM"),
                    ("cost", "Стоимость, ₽"),
                    ("led", "Выручка: привел бот, ₽"),
                    ("assisted", "Выручка: помог бот, ₽"),
                    ("sales", "Продаж с ботом"),
                ],
                list(reversed(series)),
            ),
            Table(
                "paths",
                "Пути ответа",
                [
                    ("path", "Путь"),
                    ("answers", "Ответов"),
                    ("share", "Доля, %"),
                    ("p50", "p50, мс"),
                    ("p95", "p95, мс"),
                ],
                paths,
            ),
            Table(
                "funnel",
                "Воронка: от показа до заказа",
                [
                    ("step", "Шаг"),
                    ("count", "Сколько"),
                    ("of_previous", "От предыдущего, %"),
                    ("of_shown", "От показов, %"),
                ],
                funnel,
            ),
            Table(
                "alerts",
                "Уведомления «появилось» и «цена снизилась»",
                [("step", "Шаг"), ("count", "Сколько"), ("of_previous", "От предыдущего, %")],
                alerts,
            ),
        ],
    }


async def demand(console: ConsoleService, w: Window) -> dict[str, Any]:
    data = await console.demand(w)
    tables = []
    for dim, rows in data.items():
        for row, width in zip(rows, share_bars(rows, "requests", 80), strict=True):
            row["bar"] = width
            row["spark"] = sparkline(row["trend"])
        tables.append(
            Table(
                dim,
                DIMENSION_NAMES[dim],
                [
                    ("value", DIMENSION_NAMES[dim]),
                    ("requests", "Запросов"),
                    ("share", "Доля, %"),
                    ("previous", "Период до"),
                    ("change", "Изменение, %"),
                ],
                rows,
            )
        )
    return {"tables": tables, "empty": not any(data.values())}


async def unmet(console: ConsoleService, w: Window) -> dict[str, Any]:
    data = await console.unmet(w)
    groups = _with_bars(data["groups"], "requests")
    return {
        "tables": [
            Table(
                "requests",
                "Запросы, которые каталог не закрыл",
                [
                    ("request", "Что просили"),
                    ("requests", "Запросов"),
                    ("outcome", "Что было"),
                    ("examples", "Как просили"),
                ],
                groups,
            ),
            Table(
                "names",
                "Вина, которые просили по названию, а их нет",
                [("wine", "Вино"), ("requests", "Запросов")],
                data["names"],
            ),
        ]
    }


async def wines(console: ConsoleService, w: Window) -> dict[str, Any]:
    data = await console.wines(w)
    columns = [
        ("wine", "Вино"),
        ("producer", "Производитель"),
        ("price", "Цена, ₽"),
        ("shown", "Показов"),
        ("up", "Нравится"),
        ("down", "Не нравится"),
        ("clicks", "«Купить»"),
        ("click_rate", "Кликов, %"),
        ("orders", "Заказов с ботом"),
        ("led", "Выручка: привел бот, ₽"),
        ("assisted", "Выручка: помог бот, ₽"),
    ]
    return {
        "clicks_tracked": console.clicks_tracked,
        "tables": [
            Table("shown", "Показанные вина", columns, data["shown"]),
            Table(
                "never",
                "Ни разу не показаны за период",
                [("wine", "Вино"), ("producer", "Производитель"), ("price", "Цена, ₽")],
                data["never"],
            ),
            Table("unavailable", "Нет в продаже, но их показывали", columns, data["unavailable"]),
        ],
    }


async def catalog(console: ConsoleService, w: Window) -> dict[str, Any]:
    data = await console.catalog()
    return {
        "state": data["state"],
        "tables": [
            Table(
                "syncs",
                "Последние загрузки каталога",
                [
                    ("when", "Когда"),
                    ("source", "Источник"),
                    ("rows", "Строк"),
                    ("inserted", "Добавлено"),
                    ("updated", "Обновлено"),
                    ("unchanged", "Без изменений"),
                    ("unavailable", "Снято с продажи"),
                    ("skipped", "Пропущено"),
                    ("why", "Почему"),
                ],
                data["syncs"],
            ),
            Table(
                "orders",
                "Последние загрузки заказов",
                [
                    ("when", "Когда"),
                    ("source", "Источник"),
                    ("rows", "Строк"),
                    ("inserted", "Новых заказов"),
                    ("updated", "Изменено"),
                    ("unchanged", "Без изменений"),
                    ("cancelled", "Отменено"),
                    ("skipped", "Пропущено строк"),
                    ("why", "Почему"),
                ],
                data["order_imports"],
            ),
        ],
    }


BUILDERS = {
    "overview": overview,
    "demand": demand,
    "unmet": unmet,
    "wines": wines,
    "catalog": catalog,
}
