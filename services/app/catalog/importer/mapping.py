"""Tolerant matching of column headers and YML `param` names to the catalog's fields."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from core.errors import CatalogFileError, SommelierError

# Canonical field -> names shops use for it (compared case-, space- and punctuation-blind).
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "external_id": ("id", "external_id", "sku", "артикул", "код", "код товара", "offer id"),
    "slug": ("slug",),
    "name": ("name", "title", "название", "наименование", "товар", "product", "product name"),
    "producer": ("producer", "vendor", "brand", "производитель", "бренд", "винодельня"),
    "model": ("model", "модель"),
    "vintage_year": ("vintage_year", "vintage", "год урожая", "винтаж", "год", "урожай"),
    "country": (
        "country",
        "country_of_origin",
        "страна",
        "страна производства",
        "страна происхождения",
    ),
    "region": ("region", "регион", "область"),
    "appellation": ("appellation", "аппелласьон", "апелласьон"),
    "grape_varieties": (
        "grape_varieties",
        "grapes",
        "grape",
        "сорт винограда",
        "сорта винограда",
        "сорт",
        "виноград",
        "сортовой состав",
    ),
    "wine_type": ("wine_type", "type", "color", "colour", "цвет", "тип", "тип вина", "цвет вина"),
    "sweetness": ("sweetness", "sugar", "сахар", "содержание сахара", "сладость", "тип по сахару"),
    "acidity": ("acidity", "кислотность"),
    "tannins": ("tannins", "танины", "танинность"),
    "body": ("body", "тело", "тельность"),
    "description": ("description", "описание"),
    "tasting_notes": ("tasting_notes", "дегустационные заметки", "вкус", "tasting notes"),
    "food_pairings": (
        "food_pairings",
        "food",
        "гастрономия",
        "сочетание с блюдами",
        "к блюдам",
        "гастрономические сочетания",
    ),
    "price_rub": ("price_rub", "price", "цена", "цена руб", "розничная цена", "стоимость"),
    "old_price_rub": (
        "old_price_rub",
        "oldprice",
        "old price",
        "compare at price",
        "старая цена",
        "цена до скидки",
    ),
    "image_url": ("image_url", "picture", "image", "фото", "изображение", "картинка", "image src"),
    "url": ("url", "link", "ссылка", "страница", "ссылка на товар"),
    "available": ("available", "в наличии", "наличие", "availability"),
    "stock": ("stock", "остаток", "количество", "кол во", "qty", "quantity", "inventory"),
    "volume_l": ("volume_l", "volume", "объем", "объём", "емкость", "ёмкость", "литраж"),
    "alcohol": ("alcohol", "крепость", "алкоголь", "abv", "содержание алкоголя"),
    "barcode": ("barcode", "штрихкод", "штрих код", "ean"),
    "currency": ("currency", "currencyid", "валюта"),
    "tags": ("tags", "tag", "теги", "тег", "метки", "метка", "labels"),
    "margin": ("margin", "маржа", "маржинальность", "наценка", "margin percent"),
}


def header_key(name: str) -> str:
    folded = name.strip().lower().replace("ё", "е")
    folded = re.sub(r"\(.*?\)|,\s*(л|%|руб\.?|₽)$", " ", folded)
    return " ".join(re.findall(r"[a-zа-я0-9]+", folded.replace("_", " ")))


class FieldMapper:
    """Header/param name -> canonical field; `custom` (from --mapping) wins over the built-ins
    (`names`: canonical field -> the names shops use for it; the catalog's by default)."""

    def __init__(
        self,
        custom: dict[str, str] | None = None,
        names: Mapping[str, Sequence[str]] = FIELD_NAMES,
    ) -> None:
        self.custom = {header_key(k): v for k, v in (custom or {}).items()}
        self.by_key = {header_key(n): field for field, aliases in names.items() for n in aliases}

    def field(self, name: str) -> str | None:
        key = header_key(name)
        return self.custom.get(key) or self.by_key.get(key)


def read_mapping(path: Path, known: Sequence[str], error: type[SommelierError]) -> dict[str, str]:
    """A JSON object {"their header": "our field"}; every target must be one of `known`.
    What is wrong with the file is raised as `error`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise error(f"cannot read the mapping file {path}: {exc}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise error("the mapping file must be a JSON object of header -> field")
    unknown = sorted(v for v in data.values() if v not in known)
    if unknown:
        raise error(
            f"the mapping names unknown fields: {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return dict(data)


def load_mapping(path: Path) -> dict[str, str]:
    """The catalog's --mapping file."""
    return read_mapping(path, list(FIELD_NAMES), CatalogFileError)
