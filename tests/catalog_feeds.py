"""Realistic shop feeds the tests write themselves: a YML feed, a 1C-style CSV, an XLSX."""

from __future__ import annotations

from collections.abc import Iterable
from io import BytesIO
from xml.sax.saxutils import escape, quoteattr

OFFERS: list[dict[str, object]] = [
    {
        "id": "A-100",
        "available": "true",
        "name": "Вино Шато Тест Каберне красное сухое",
        "vendor": "Шато Тест",
        "url": "https://shop.example/wine/a-100",
        "price": "1990.00",
        "oldprice": "2490",
        "picture": "https://shop.example/img/a-100.jpg",
        "description": "Плотное вино с нотами черной смородины.",
        "country_of_origin": "Франция",
        "params": {
            "Цвет": "Красное",
            "Сахар": "Сухое",
            "Сорт винограда": "Каберне Совиньон, Мерло",
            "Год урожая": "2019",
            "Крепость": "13,5%",
            "Объем": ("0,75", "л"),
            "Регион": "Бордо",
        },
    },
    {
        "id": "B-200",
        "available": "true",
        "name": "Игристое вино Тест Натюр",
        "vendor": "Тест Спарклинг",
        "url": "https://shop.example/wine/b-200",
        "price": "3 200",
        "description": "Игристое без дозажа.",
        "country_of_origin": "Италия",
        "params": {
            "Цвет": "Белое",
            "Содержание сахара": "Брют натюр",
            "Сорт винограда": "Шардоне",
            "Крепость": "12%",
            "Объем": ("750", "мл"),
        },
    },
    {
        "id": "C-300",
        "available": "false",
        "name": "Вино Тест Рислинг белое полусладкое",
        "vendor": "Тест Мозель",
        "url": "https://shop.example/wine/c-300",
        "price": "1450",
        "description": "Легкое с абрикосом.",
        "country_of_origin": "Германия",
        "params": {"Цвет": "Белое", "Сахар": "Полусладкое", "Сорт винограда": "Рислинг"},
    },
    {
        "id": "D-400",
        "available": "true",
        "name": "Вино Тест Ганаш розовое полусухое",
        "vendor": "Тест Роза",
        "url": "https://shop.example/wine/d-400",
        "price": "990",
        "description": "Клубника и свежесть.",
        "country_of_origin": "Испания",
        "params": {"Цвет": "Розовое", "Сахар": "Полусухое", "Сорт винограда": "Гренаш"},
    },
    {
        # A broken offer: no price a person could read.
        "id": "E-500",
        "available": "true",
        "name": "Вино Тест Без Цены красное сухое",
        "vendor": "Тест",
        "price": "по запросу",
        "description": "Нет цены.",
        "country_of_origin": "Чили",
        "params": {"Цвет": "Красное", "Сахар": "Сухое"},
    },
]


def _offer(offer: dict[str, object]) -> str:
    parts = [
        f"<offer id={quoteattr(str(offer['id']))} available={quoteattr(str(offer['available']))}>"
    ]
    for tag in (
        "name",
        "vendor",
        "url",
        "price",
        "oldprice",
        "picture",
        "description",
        "country_of_origin",
    ):
        if tag in offer:
            parts.append(f"<{tag}>{escape(str(offer[tag]))}</{tag}>")
    parts.append("<currencyId>RUB</currencyId>")
    params = offer.get("params", {})
    assert isinstance(params, dict)
    for name, value in params.items():
        if isinstance(value, tuple):
            parts.append(
                f"<param name={quoteattr(name)} unit={quoteattr(value[1])}>{value[0]}</param>"
            )
        else:
            parts.append(f"<param name={quoteattr(name)}>{escape(value)}</param>")
    parts.append("</offer>")
    return "".join(parts)


def yml_feed(offers: Iterable[dict[str, object]] = OFFERS) -> bytes:
    body = "".join(_offer(o) for o in offers)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<yml_catalog date="2026-11-24 10:00"><shop><name>Тестовый магазин</name>'
        '<currencies><currency id="RUB" rate="1"/></currencies>'
        f"<offers>{body}</offers></shop></yml_catalog>"
    ).encode()


XML_BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<yml_catalog><shop><offers><offer id="1"><name>&lol3;</name></offer></offers></shop></yml_catalog>
"""

CSV_HEADER = [
    "Артикул",
    "Наименование",
    "Производитель",
    "Страна",
    "Цвет",
    "Сахар",
    "Сорт винограда",
    "Объем",
    "Крепость",
    "Цена",
    "Остаток",
    "Ссылка",
]
CSV_ROWS = [
    [
        "1C-001",
        "Вино Тестовое Мальбек",
        "Бодега Тест",
        "Аргентина",
        "Красное",
        "Сухое",
        "Мальбек",
        "0,75 л",
        "14 %",
        "1 990,00",
        "12",
        "https://shop.example/1c-001",
    ],
    [
        "1C-002",
        "Вино Тестовое Москато",
        "Кантина Тест",
        "Италия",
        "Белое",
        "Сладкое",
        "Москато",
        "0,75 л",
        "7,5 %",
        "890,50",
        "0",
        "",
    ],
    [
        "1C-003",
        "Вино Тестовое Брют",
        "Кава Тест",
        "Испания",
        "Игристое",
        "Брют",
        "Макабео",
        "0,75 л",
        "11,5 %",
        "1 250,00",
        "5",
        "",
    ],
    [
        "1C-004",
        '=cmd|"/C calc"!A0',
        "Злодей",
        "Россия",
        "Красное",
        "Сухое",
        "Саперави",
        "0,75 л",
        "13 %",
        "500,00",
        "3",
        "",
    ],
]


def csv_cp1251(rows: list[list[str]] = CSV_ROWS) -> bytes:
    def line(cells: list[str]) -> str:
        return ";".join(
            '"' + c.replace('"', '""') + '"' if ";" in c or '"' in c else c for c in cells
        )

    return "\r\n".join(line(r) for r in [CSV_HEADER, *rows]).encode("cp1251")


def xlsx_file() -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(
        [
            "SKU",
            "Title",
            "Vendor",
            "Country",
            "Type",
            "Sugar",
            "Price",
            "Volume",
            "Alcohol",
            "Stock",
        ]
    )
    sheet.append(
        [
            "X-1",
            "Test Sauvignon Blanc",
            "Test Estate",
            "Новая Зеландия",
            "Белое",
            "Сухое",
            2100,
            "0,75 л",
            12.5,
            4,
        ]
    )
    sheet.append(
        [
            "X-2",
            "Test Port",
            "Test Quinta",
            "Португалия",
            "Крепленое",
            "",
            "3 500",
            0.75,
            "19,5%",
            2,
        ]
    )
    out = BytesIO()
    book.save(out)
    return out.getvalue()
