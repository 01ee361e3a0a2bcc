"""Raw text per field → a validated WineRecord, through the same vocabulary search uses.

Text cells that begin with = + - @, a tab or a carriage return (spreadsheet formulas, CSV
injection), leading blanks or line breaks included, are refused: the row is skipped with a
reason rather than stored (CSV exports neutralise any such cell too: core/spreadsheet.py).
Unknown tasting data stays unknown; nothing is invented.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from pydantic import ValidationError

from core.domain import Sweetness, WineRecord, WineType
from core.language.request import (
    country_from_text,
    grape_from_text,
    region_from_text,
    sweetness_from_word,
    wine_type_from_word,
)
from core.spreadsheet import looks_like_formula
from services.app.catalog.importer.rows import Problem, RawRow

_TEXT_FIELDS = (
    "name",
    "producer",
    "country",
    "region",
    "appellation",
    "grape_varieties",
    "description",
    "tasting_notes",
    "food_pairings",
)
_LIST_SPLIT = re.compile(r"[\n,;/]+")
_NUMBER = re.compile(r"-?\d[\d\s\u00a0\u202f']*(?:[.,]\d+)?")
_TRUE = {"true", "1", "yes", "да", "есть", "в наличии", "in stock", "instock", "y", "+"}
_FALSE = {"false", "0", "no", "нет", "нет в наличии", "out of stock", "outofstock", "n", "-"}
_TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            *"abvgdee",
            "zh",
            *"ziiklmnoprstufh",
            "ts",
            "ch",
            "sh",
            "sch",
            "",
            "y",
            "",
            "e",
            "yu",
            "ya",
        ],
        strict=True,
    )
)
_STYLES = (WineType.sparkling, WineType.dessert, WineType.fortified)
# Sugar words a shop writes that the search vocabulary does not treat as sweetness.
_EXTRA_DRY = ("брют натюр", "brut nature", "pas dose", "pas dosé", "zero dosage", "экстра брют")


def number(text: str) -> Decimal | None:
    """«1 990,00» → 1990.00, «12,5 %» → 12.5, «0,75 л» → 0.75; None when there is none."""
    match = _NUMBER.search(text)
    if match is None:
        return None
    raw = re.sub(r"[\s\u00a0\u202f']", "", match.group(0)).replace(",", ".")
    try:
        return Decimal(raw)
    except InvalidOperation:
        return None


def volume_litres(text: str) -> Decimal | None:
    value = number(text)
    if value is None:
        return None
    if re.search(r"\bмл\b|\bml\b", text.lower()) or value >= 50:
        value = value / 1000
    return value.quantize(Decimal("0.001"))


def _split(text: str) -> list[str]:
    return [part.strip() for part in _LIST_SPLIT.split(text) if part.strip()]


def slugify(*parts: str) -> str:
    text = " ".join(parts).lower()
    latin = "".join(_TRANSLIT.get(c, c) for c in text)
    slug = "-".join(re.findall(r"[a-z0-9]+", latin))[:150].strip("-")
    return slug or "wine"


def _wine_type(fields: dict[str, str]) -> WineType | None:
    """The colour column, unless the type or the name says it is a style (sparkling, dessert,
    fortified): «Цвет: белое» on «Игристое вино брют» is a sparkling wine."""
    found = [wine_type_from_word(fields[f]) for f in ("wine_type", "name") if fields.get(f)]
    for kind in found:
        if kind in _STYLES:
            return kind
    return next((kind for kind in found if kind is not None), None)


def _sweetness(fields: dict[str, str]) -> Sweetness | None:
    for text in (fields.get("sweetness", ""), fields.get("wine_type", ""), fields.get("name", "")):
        if not text:
            continue
        if any(word in text.lower() for word in _EXTRA_DRY):
            return Sweetness.dry
        found = sweetness_from_word(text)
        if found is not None:
            return found
    return None


def _grapes(text: str) -> list[str]:
    grapes: list[str] = []
    for part in _split(text):
        grape = grape_from_text(part) or part.lower()
        # «Каберне Совиньон 60%» → the grape only.
        grape = re.sub(r"\s*\d+([.,]\d+)?\s*%?$", "", grape).strip()
        if grape and grape not in grapes:
            grapes.append(grape)
    return grapes


def _bool(text: str) -> bool | None:
    key = text.strip().lower()
    if key in _TRUE:
        return True
    if key in _FALSE:
        return False
    value = number(key)
    return None if value is None else value > 0


def to_record(raw: RawRow, source: str) -> tuple[WineRecord | None, list[Problem]]:
    f = raw.fields

    def problem(field: str, text: str) -> Problem:
        return Problem(raw.row, raw.id, field, text)

    if "__invalid__" in f:
        return None, [problem("(record)", f["__invalid__"])]
    problems: list[Problem] = []
    for field in _TEXT_FIELDS:
        if looks_like_formula(f.get(field, "")):
            problems.append(problem(field, "looks like a spreadsheet formula; refused"))
    currency = f.get("currency", "").strip().upper()
    if currency and currency not in ("RUB", "RUR", "РУБ", "₽"):
        problems.append(problem("currency", f"{currency} prices are not supported (RUB only)"))
    wine_type = _wine_type(f)
    sweetness = _sweetness(f)
    if wine_type is None:
        problems.append(problem("wine_type", f"unknown colour/type {f.get('wine_type', '')!r}"))
    if sweetness is None:
        if wine_type in (WineType.dessert, WineType.fortified):
            sweetness = Sweetness.sweet
        else:
            problems.append(problem("sweetness", f"unknown sugar {f.get('sweetness', '')!r}"))
    price = number(f.get("price_rub", ""))
    if price is None:
        problems.append(problem("price_rub", f"not a price: {f.get('price_rub', '')!r}"))
    country_text = f.get("country", "")
    country = (country_from_text(country_text) or country_text.strip()) if country_text else ""
    if not country:
        problems.append(problem("country", "missing"))
    if problems:
        return None, problems
    name = f.get("name", "").strip()
    producer = f.get("producer", "").strip() or name
    region_text = f.get("region", "").strip()
    values: dict[str, object] = {
        "slug": f.get("slug") or slugify(name, raw.id or ""),
        "name": name,
        "producer": producer,
        "country": country,
        "region": (region_from_text(region_text) or region_text) if region_text else None,
        "appellation": f.get("appellation") or None,
        "grape_varieties": _grapes(f.get("grape_varieties", "")),
        "wine_type": wine_type,
        "sweetness": sweetness,
        "description": f.get("description", "").strip() or name,
        "tasting_notes": f.get("tasting_notes") or None,
        "food_pairings": [p.lower() for p in _split(f.get("food_pairings", ""))],
        "price_rub": price.quantize(Decimal("0.01")) if price is not None else None,
        "image_url": f.get("image_url") or None,
        "url": f.get("url") or None,
        "external_id": raw.id,
        "source": source,
    }
    for field in ("acidity", "tannins", "body", "vintage_year", "stock"):
        if f.get(field):
            value = number(f[field])
            if value is not None:
                values[field] = int(value)
            elif field != "vintage_year":  # «NV» (non-vintage) is simply no vintage
                values[field] = f[field]
    if f.get("old_price_rub"):
        old = number(f["old_price_rub"])
        values["old_price_rub"] = old.quantize(Decimal("0.01")) if old is not None else None
    if f.get("tags"):
        values["tags"] = list(dict.fromkeys(t.lower() for t in _split(f["tags"])))
    if f.get("margin"):
        margin = number(f["margin"].replace("%", ""))
        if margin is None:
            return None, [problem("margin", f"not a number: {f['margin']!r}")]
        values["margin"] = margin.quantize(Decimal("0.01"))
    if f.get("volume_l"):
        values["volume_l"] = volume_litres(f["volume_l"])
    if f.get("alcohol"):
        alcohol = number(f["alcohol"])
        values["alcohol"] = alcohol.quantize(Decimal("0.1")) if alcohol is not None else None
    available = _bool(f["available"]) if f.get("available") else None
    stock = values.get("stock")
    if available is None:
        available = not (isinstance(stock, int) and stock <= 0)
    values["available"] = available
    try:
        return WineRecord.model_validate(values), []
    except ValidationError as exc:
        return None, [
            problem(".".join(str(p) for p in err["loc"]) or "(record)", err["msg"])
            for err in exc.errors()
        ]
