"""Tolerant matching of the free-text filter values people and LLMs write.

Catalog values are stored lowercase in Russian ("каберне совиньон", "стейк из говядины").
A filter term matches a stored value when every word of the term, reduced to a crude stem,
starts some word of the value: "каберне" finds "каберне совиньон", "стейку" finds
"стейк из говядины". English names are translated through small alias tables first.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-zа-я0-9]+")
# Longest endings first; a crude stemmer is enough for dish, grape and place names.
_RU_ENDINGS = (
    "ами",
    "ями",
    "ого",
    "его",
    "ому",
    "ему",
    "ыми",
    "ими",
    "ой",
    "ей",
    "ом",
    "ем",
    "ам",
    "ям",
    "ах",
    "ях",
    "ую",
    "юю",
    "ая",
    "яя",
    "ое",
    "ее",
    "ые",
    "ие",
    "ый",
    "ий",
    "у",
    "ю",
    "а",
    "я",
    "ы",
    "и",
    "е",
    "о",
    "ь",
)
_EN_ENDINGS = ("es", "s")

COUNTRY_ALIASES: dict[str, str] = {
    "россия": "Россия",
    "russia": "Россия",
    "рф": "Россия",
    "франция": "Франция",
    "france": "Франция",
    "италия": "Италия",
    "italy": "Италия",
    "испания": "Испания",
    "spain": "Испания",
    "германия": "Германия",
    "germany": "Германия",
    "португалия": "Португалия",
    "portugal": "Португалия",
    "австрия": "Австрия",
    "austria": "Австрия",
    "грузия": "Грузия",
    "georgia": "Грузия",
    "сша": "США",
    "usa": "США",
    "us": "США",
    "united states": "США",
    "америка": "США",
    "чили": "Чили",
    "chile": "Чили",
    "аргентина": "Аргентина",
    "argentina": "Аргентина",
    "юар": "ЮАР",
    "south africa": "ЮАР",
    "южная африка": "ЮАР",
    "австралия": "Австралия",
    "australia": "Австралия",
    "новая зеландия": "Новая Зеландия",
    "new zealand": "Новая Зеландия",
    "венгрия": "Венгрия",
    "hungary": "Венгрия",
    "греция": "Греция",
    "greece": "Греция",
}

GRAPE_ALIASES: dict[str, str] = {
    "cabernet sauvignon": "каберне совиньон",
    "cabernet": "каберне",
    "merlot": "мерло",
    "pinot noir": "пино нуар",
    "chardonnay": "шардоне",
    "sauvignon blanc": "совиньон блан",
    "riesling": "рислинг",
    "malbec": "мальбек",
    "saperavi": "саперави",
    "tempranillo": "темпранильо",
    "sangiovese": "санджовезе",
    "nebbiolo": "неббиоло",
    "shiraz": "шираз",
    "syrah": "сира",
    "zinfandel": "зинфандель",
    "primitivo": "примитиво",
    "pinotage": "пинотаж",
    "moscato": "москато",
    "muscat": "москато",
    "мускат": "москато",
    "glera": "глера",
    "gruner veltliner": "грюнер вельтлинер",
    "gewurztraminer": "гевюрцтраминер",
    "pinot grigio": "пино гри",
    "pinot gris": "пино гри",
    "chenin blanc": "шенен блан",
    "furmint": "фурминт",
    "semillon": "семильон",
    "grenache": "гренаш",
    "garnacha": "гренаш",
    "carmenere": "карменер",
    "albarino": "альбариньо",
    "viognier": "вионье",
    "touriga nacional": "турига насьональ",
    "barbera": "барбера",
    "corvina": "корвина",
}

FOOD_ALIASES: dict[str, str] = {
    "steak": "стейк",
    "beef": "говядина",
    "fish": "рыба",
    "seafood": "морепродукты",
    "oysters": "устрицы",
    "cheese": "сыр",
    "chicken": "курица",
    "duck": "утка",
    "lamb": "баранина",
    "pasta": "паста",
    "pizza": "пицца",
    "dessert": "десерт",
    "chocolate": "шоколад",
    "pork": "свинина",
    "sushi": "суши",
    "salmon": "лосось",
    "mushrooms": "грибы",
    "turkey": "индейка",
    "bbq": "шашлык",
    "barbecue": "шашлык",
}


def fold(text: str) -> str:
    return " ".join(_WORD.findall(text.lower().replace("ё", "е")))


def stem(word: str) -> str:
    endings = _RU_ENDINGS if re.search(r"[а-я]", word) else _EN_ENDINGS
    for ending in endings:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return word[: -len(ending)]
    return word


def canonical_country(term: str) -> str:
    folded = fold(term)
    return COUNTRY_ALIASES.get(folded, term.strip())


def _translate(term: str, aliases: dict[str, str]) -> str:
    folded = fold(term)
    return aliases.get(folded, folded)


def term_matches(term: str, value: str) -> bool:
    """True when every stemmed word of `term` begins a word of `value`."""
    stems = [stem(w) for w in fold(term).split()]
    words = fold(value).split()
    return bool(stems) and all(any(w.startswith(s) for w in words) for s in stems)


def matching_values(term: str, vocabulary: frozenset[str], aliases: dict[str, str]) -> list[str]:
    translated = _translate(term, aliases)
    return sorted(v for v in vocabulary if term_matches(translated, v))
