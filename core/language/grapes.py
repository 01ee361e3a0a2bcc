"""Grape varieties and their synonyms; canonical names follow the catalog («шираз», «москато»).

One grape, one entry: syrah is шираз, primitivo is зинфандель; petite sirah is a grape of its
own, not syrah. A name is also listed as people write it by ear from the foreign one («мерлоу»,
«мерлот» for merlot): every reader of a grape (a message, a model's filter, the catalog's
values) goes through this table.
"""

from __future__ import annotations

from core.language.folding import phrase_table

GRAPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "каберне совиньон": (
        "каберне совиньон",
        "каберне",
        "cabernet sauvignon",
        "cabernet",
        "кабернет",
    ),
    "каберне фран": ("каберне фран", "cabernet franc"),
    "мерло": ("мерло", "merlot", "мерлоу", "мерлот"),
    "пино нуар": ("пино нуар", "pinot noir", "пино", "pinot", "шпатбургундер", "spatburgunder"),
    "пино гри": ("пино гри", "пино гриджо", "pinot grigio", "pinot gris", "grauburgunder"),
    "пино блан": ("пино блан", "pinot blanc", "pinot bianco"),
    "пино менье": ("пино менье", "pinot meunier", "meunier"),  # not «менье»: «меня»
    "шардоне": ("шардоне", "chardonnay"),
    "совиньон блан": ("совиньон блан", "совиньон", "sauvignon blanc", "sauvignon"),
    "рислинг": ("рислинг", "riesling"),
    "мальбек": ("мальбек", "malbec"),
    "саперави": ("саперави", "saperavi"),
    "темпранильо": ("темпранильо", "tempranillo"),
    "санджовезе": ("санджовезе", "sangiovese"),
    "неббиоло": ("неббиоло", "nebbiolo"),
    "шираз": ("шираз", "сира", "shiraz", "syrah"),
    "пти сира": ("пти сира", "петит сира", "petite sirah", "petite syrah", "дюриф", "durif"),
    "зинфандель": ("зинфандель", "примитиво", "zinfandel", "primitivo"),
    "пинотаж": ("пинотаж", "pinotage"),
    "гевюрцтраминер": ("гевюрцтраминер", "gewurztraminer", "gewurz"),
    "грюнер вельтлинер": (
        "грюнер вельтлинер",
        "грюнер",
        "gruner veltliner",
        "gruener veltliner",
        "gruner",
        "gruener",
    ),
    "москато": (
        "москато",
        "мускат",
        "мускатное",
        "moscato",
        "muscat",
        "moscatel",
        "muskat",
    ),
    "глера": ("глера", "glera"),
    "красностоп": ("красностоп", "krasnostop"),
    "альбариньо": ("альбариньо", "albarino", "alvarinho"),
    "вионье": ("вионье", "viognier"),
    "гренаш": ("гренаш", "гарнача", "grenache", "garnacha"),
    "карменер": (
        "карменер",
        "кармэнер",
        "карменэр",
        "carmenere",
    ),
    "шенен блан": ("шенен блан", "шенен", "chenin blanc", "chenin"),
    "ркацители": ("ркацители", "rkatsiteli"),
    "цимлянский черный": ("цимлянское", "tsimlyansky", "tsimlyanskiy"),
    "фурминт": ("фурминт", "furmint"),
    "семильон": ("семильон", "семийон", "semillon"),
    "мурведр": ("мурведр", "монастрель", "mourvedre", "monastrell"),
    "барбера": ("барбера", "barbera"),
    "дольчетто": ("дольчетто", "dolcetto"),
    "корвина": ("корвина", "corvina"),
    "турига насьональ": ("турига насьональ", "турига", "touriga nacional", "touriga"),
}

GRAPE_ALIASES: dict[str, str] = phrase_table(GRAPE_SYNONYMS)
