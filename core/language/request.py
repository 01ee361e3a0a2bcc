"""Deterministic, no-LLM reading of a user's wine request.

Used when no LLM is reachable (the parsed filters drive a plain catalog search) and to narrow
the random catalog slice put into a fallback prompt. Everything here is pure and
table-driven: the text is folded (lowercase, ``ё`` -> ``е``, accents stripped, dashes and
no-break spaces unified), split into letter tokens, and the vocabularies below are matched
on whole tokens (longest phrase first), never on raw substrings, so "прекрасное" is not
"красное" and "полусухое" is not "сухое".

The vocabularies are exported for reuse (the tool-argument normaliser needs the same enum
synonyms). Their keys are folded token sequences joined by single spaces, e.g.
``"semi dry"``, ``"новая зеландия"``, ``"фуа гра"``.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Generic, TypeVar

from core.domain import Sweetness, WineFilters, WineType

__all__ = [
    "COUNTRY_ALIASES",
    "FOOD_WORDS",
    "GRAPE_ALIASES",
    "GRAPE_SYNONYMS",
    "REGION_ALIASES",
    "REGION_COUNTRY",
    "SWEETNESS_WORDS",
    "WINE_TYPE_WORDS",
    "ParsedQuery",
    "country_from_text",
    "food_from_text",
    "grape_from_text",
    "parse_query",
    "region_from_text",
    "sweetness_from_word",
    "wine_type_from_word",
]

V = TypeVar("V")

# --------------------------------------------------------------------------- folding & tokens

_CHAR_MAP = {
    "ё": "е",
    "\u00a0": " ",
    "\u202f": " ",
    "\u2007": " ",
    "\u2009": " ",
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
}


def _fold_char(char: str) -> str:
    lowered = char.lower()
    if len(lowered) == 1:
        char = lowered
    mapped = _CHAR_MAP.get(char)
    if mapped is not None:
        return mapped
    if "\u00c0" <= char <= "\u024f":  # Latin with diacritics: é -> e, ü -> u, ñ -> n
        base = unicodedata.normalize("NFKD", char)[0]
        if base.isascii():
            return base
    return char


def _fold(text: str) -> str:
    """Fold ``text`` character by character, so positions in the result match the original."""
    return "".join(_fold_char(char) for char in text)


_TOKEN_RE = re.compile(r"[a-zа-я]+")


@dataclass(frozen=True)
class _Token:
    text: str
    start: int
    end: int


def _tokenize(folded: str) -> list[_Token]:
    return [_Token(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(folded)]


def _key(phrase: str) -> str:
    return " ".join(_TOKEN_RE.findall(_fold(phrase)))


# --------------------------------------------------------------------------- word forms

_ADJ_ENDINGS = (
    "ое",
    "ого",
    "ому",
    "ом",
    "ым",
    "ыми",
    "ые",
    "ых",
    "ый",
    "ая",
    "ой",
    "ую",
    "ий",
    "ие",
    "их",
    "им",
    "ими",
    "ее",
    "его",
    "ему",
    "ем",
    "яя",
    "юю",
)


def _adj(*stems: str) -> list[str]:
    """Every adjective form of the given stems: "сух" -> сухое, сухого, сухим, сухая, ..."""
    return [stem + ending for stem in stems for ending in _ADJ_ENDINGS]


def _noun(word: str) -> list[str]:
    """Case forms of a Russian noun, generously over-generated (extra forms are harmless)."""
    if word.endswith("а"):
        stem = word[:-1]
        return [word] + [stem + e for e in ("ы", "и", "е", "у", "ой", "ей", "ою")]
    if word.endswith("я"):
        stem = word[:-1]
        return [word] + [stem + e for e in ("и", "ю", "ей", "е")]
    if word.endswith(("ь", "й")):
        stem = word[:-1]
        return [word] + [stem + e for e in ("я", "ю", "ем", "е", "и", "ью", "ей")]
    if word[-1] in "бвгджзклмнпрстфхцчшщ":
        endings = ("а", "у", "ом", "ем", "е", "ы", "и", "ов", "ам", "ами", "ах")
        return [word] + [word + e for e in endings]
    return [word]  # indeclinable: мерло, бордо, чили, суши


def _nouns(*words: str) -> list[str]:
    return [form for word in words for form in _noun(word)]


def _phrases(first: Iterable[str], second: Iterable[str]) -> list[str]:
    second = list(second)
    return [f"{a} {b}" for a in first for b in second]


def _table(groups: Mapping[V, Iterable[str]]) -> dict[str, V]:
    table: dict[str, V] = {}
    for value, aliases in groups.items():
        for alias in aliases:
            key = _key(alias)
            if key:
                table.setdefault(key, value)
    return table


# --------------------------------------------------------------------------- vocabularies

_BARE_DESSERT = "dessert"

WINE_TYPE_WORDS: dict[str, WineType] = _table(
    {
        WineType.red: [
            *_adj("красн", "красненьк"),
            "red",
            "rouge",
            "rosso",
            "tinto",
        ],
        WineType.white: [*_adj("бел", "беленьк"), "white", "blanco", "bianco", "branco"],
        WineType.rose: [
            *_adj("розов", "розовеньк"),
            "розе",
            "rose",
            "rosado",
            "rosato",
            "pink",
        ],
        WineType.sparkling: [
            *_adj("игрист", "шампанск"),
            "шампусик",
            "шампусика",
            "шампусиком",
            "просекко",
            *_noun("кава"),
            "брют",
            "креман",
            "ламбруско",
            "асти",
            "спуманте",
            "sparkling",
            "champagne",
            "prosecco",
            "cava",
            "brut",
            "cremant",
            "lambrusco",
            "asti",
            "spumante",
            "sekt",
            "bubbles",
            "fizz",
        ],
        WineType.dessert: [
            *_adj("десертн"),
            *_phrases(_adj("ледян"), ["вино", "вина", "вину", "вином"]),
            "айсвайн",
            "dessert wine",
            "dessert wines",
            _BARE_DESSERT,  # only on its own (helpers) or before "wine"; otherwise it is food
            "ice wine",
            "icewine",
            "eiswein",
        ],
        WineType.fortified: [
            *_adj("креплен", "крепленн"),
            *_nouns("портвейн", "херес", "мадера", "марсала"),
            "порто",
            "fortified",
            "port",
            "porto",
            "sherry",
            "madeira",
            "marsala",
        ],
    }
)

_STYLE_TYPES = (WineType.sparkling, WineType.fortified, WineType.dessert)
_COLOUR_TYPES = (WineType.red, WineType.white, WineType.rose)

SWEETNESS_WORDS: dict[str, Sweetness] = _table(
    {
        Sweetness.dry: [
            *_adj("сух", "сухоньк"),
            "брют",
            "экстра брют",
            "dry",
            "brut",
            "extra brut",
            "bone dry",
            "secco",
            "seco",
            "trocken",
        ],
        Sweetness.semi_dry: [
            *_adj("полусух"),
            "semi dry",
            "semidry",
            "off dry",
            "medium dry",
            "halbtrocken",
            "feinherb",
            "demi dry",
        ],
        Sweetness.semi_sweet: [
            *_adj("полусладк"),
            "semi sweet",
            "semisweet",
            "medium sweet",
            "деми сек",
            "демисек",
            "demi sec",
            "demisec",
            "lieblich",
            "amabile",
        ],
        Sweetness.sweet: [*_adj("сладк", "сладеньк"), "sweet", "dolce", "doux", "suss"],
    }
)

# "на сладкое" / "к сладкому" mean "for dessert", not "a sweet wine".
_SWEET_AS_DESSERT = _phrases(["на", "под", "к", "ко"], ["сладкое", "сладкому"])

_BODY_LIGHT = "light"
_BODY_MEDIUM = "medium"
_BODY_FULL = "full"
_BODY_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    _BODY_LIGHT: (None, 2),
    _BODY_MEDIUM: (3, 3),
    _BODY_FULL: (4, None),
}

_BODY_WORDS: dict[str, str] = _table(
    {
        _BODY_LIGHT: [
            *_adj("легк", "легоньк", "легкотел"),
            "полегче",
            "легче",
            "light",
            "lighter",
            "light bodied",
            "light body",
        ],
        _BODY_MEDIUM: [
            *_adj("среднетел"),
            "средней насыщенности",
            "средней плотности",
            "medium bodied",
            "medium body",
        ],
        _BODY_FULL: [
            *_adj("насыщенн", "плотн", "полнотел", "мощн", "тяжел"),
            "full bodied",
            "full body",
            "fuller",
            "bold",
            "powerful",
            "heavy",
        ],
    }
)

# Meal nouns after which "легкий/light" describes the meal, not the wine.
_MEAL_WORDS = frozenset(
    [
        *_nouns("ужин", "обед", "перекус", "завтрак", "вечер"),
        *("lunch", "dinner", "meal", "snack", "bite", "supper"),
    ]
)


def _country_adj(*stems: str) -> list[str]:
    return _adj(*stems)


_COUNTRY_GROUPS: dict[str, list[str]] = {
    "Франция": [*_noun("франция"), *_country_adj("французск"), "france", "french"],
    "Италия": [*_noun("италия"), *_country_adj("итальянск"), "italy", "italian", "italia"],
    "Испания": [*_noun("испания"), *_country_adj("испанск"), "spain", "spanish", "espana"],
    "Германия": [*_noun("германия"), *_country_adj("немецк"), "germany", "german", "deutschland"],
    "Португалия": [*_noun("португалия"), *_country_adj("португальск"), "portugal", "portuguese"],
    "Австрия": [*_noun("австрия"), *_country_adj("австрийск"), "austria", "austrian"],
    "Грузия": [*_noun("грузия"), *_country_adj("грузинск"), "georgia", "georgian"],
    "США": [
        "сша",
        *_noun("америка"),
        *_country_adj("американск"),
        "usa",
        "us",
        "united states",
        "american",
    ],
    "Чили": ["чили", *_country_adj("чилийск"), "chile", "chilean"],
    "Аргентина": [
        *_noun("аргентина"),
        *_country_adj("аргентинск"),
        "argentina",
        "argentinian",
        "argentine",
        "argentinean",
    ],
    "ЮАР": [
        "юар",
        *_phrases(_adj("южн"), _noun("африка")),
        *_country_adj("южноафриканск"),
        "south africa",
        "south african",
        "rsa",
    ],
    "Австралия": [*_noun("австралия"), *_country_adj("австралийск"), "australia", "australian"],
    "Новая Зеландия": [
        *_phrases(_adj("нов"), _noun("зеландия")),
        *_country_adj("новозеландск"),
        "new zealand",
        "nz",
    ],
    "Россия": [
        *_noun("россия"),
        "рф",
        *_country_adj("российск", "отечественн"),
        # "русский"/"русском" are too often about the language.
        *[f for f in _adj("русск") if f not in ("русский", "русском")],
        "russia",
        "russian",
    ],
    "Венгрия": [*_noun("венгрия"), *_country_adj("венгерск"), "hungary", "hungarian"],
    "Греция": [*_noun("греция"), *_country_adj("греческ"), "greece", "greek"],
}

COUNTRY_ALIASES: dict[str, str] = _table(_COUNTRY_GROUPS)

# Aliases that are ordinary words in lowercase ("give us a wine") and count only as written.
_CASE_SENSITIVE_ALIASES: dict[str, frozenset[str]] = {
    "us": frozenset({"US"}),
    "nz": frozenset({"NZ"}),
    "rsa": frozenset({"RSA"}),
}

_REGION_GROUPS: dict[str, list[str]] = {
    "Бордо": ["бордо", "bordeaux"],
    "Бургундия": [*_noun("бургундия"), *_adj("бургундск"), "burgundy", "bourgogne"],
    "Шампань": [*_noun("шампань")],  # English "champagne" only after from/in/of, see below
    "Тоскана": [*_noun("тоскана"), *_adj("тосканск"), "tuscany", "toscana", "tuscan"],
    "Пьемонт": [*_noun("пьемонт"), *_adj("пьемонтск"), "piedmont", "piemonte"],
    "Риоха": [*_noun("риоха"), "rioja"],
    "Мозель": [*_noun("мозель"), "mosel", "moselle"],
    "Напа": [*_noun("напа"), "napa", "napa valley"],
    "Калифорния": [*_noun("калифорния"), *_adj("калифорнийск"), "california", "californian"],
    "Мендоса": [*_noun("мендоса"), "mendoza"],
    "Кубань": [*_noun("кубань"), *_adj("кубанск")],
    "Крым": [*_noun("крым"), *_adj("крымск"), "crimea", "crimean"],
    "Мальборо": ["мальборо", "marlborough"],
    "Кахетия": [*_noun("кахетия"), *_adj("кахетинск"), "kakheti", "kakhetian"],
    "Долина Луары": [*_noun("луара"), "loire"],
    "Долина Роны": [*_noun("рона"), "rhone"],
    "Эльзас": [*_noun("эльзас"), *_adj("эльзасск"), "alsace"],
    "Прованс": [*_noun("прованс"), "provence"],
    "Венето": ["венето", "veneto"],
    "Токай": [*_noun("токай"), *_adj("токайск"), "tokaj", "tokaji"],
    "Дору": ["дору", "douro"],
    "Баросса": [*_noun("баросса"), "barossa", "barossa valley"],
}

REGION_ALIASES: dict[str, str] = _table(_REGION_GROUPS)

REGION_COUNTRY: dict[str, str] = {
    "Бордо": "Франция",
    "Бургундия": "Франция",
    "Шампань": "Франция",
    "Долина Луары": "Франция",
    "Долина Роны": "Франция",
    "Эльзас": "Франция",
    "Прованс": "Франция",
    "Тоскана": "Италия",
    "Пьемонт": "Италия",
    "Венето": "Италия",
    "Риоха": "Испания",
    "Мозель": "Германия",
    "Напа": "США",
    "Калифорния": "США",
    "Мендоса": "Аргентина",
    "Кубань": "Россия",
    "Крым": "Россия",
    "Мальборо": "Новая Зеландия",
    "Кахетия": "Грузия",
    "Токай": "Венгрия",
    "Дору": "Португалия",
    "Баросса": "Австралия",
}

_CHAMPAGNE_REGION_PREPOSITIONS = frozenset({"from", "in", "of"})

# Canonical names follow the catalog ("шираз", "москато", "пино гри" finds "пино гриджо").
GRAPE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "каберне совиньон": (
        "каберне совиньон",
        "каберне",
        "cabernet sauvignon",
        "cabernet",
        "кабернет",
    ),
    "каберне фран": ("каберне фран", "cabernet franc"),
    "мерло": ("мерло", "merlot"),
    "пино нуар": ("пино нуар", "pinot noir", "пино", "pinot", "шпатбургундер", "spatburgunder"),
    "пино гри": ("пино гри", "пино гриджо", "pinot grigio", "pinot gris", "grauburgunder"),
    "пино блан": ("пино блан", "pinot blanc", "pinot bianco"),
    "шардоне": ("шардоне", "chardonnay"),
    "совиньон блан": ("совиньон блан", "совиньон", "sauvignon blanc", "sauvignon"),
    "рислинг": (*_noun("рислинг"), "riesling"),
    "мальбек": (*_noun("мальбек"), "malbec"),
    "саперави": ("саперави", "saperavi"),
    "темпранильо": ("темпранильо", "tempranillo"),
    "санджовезе": ("санджовезе", "sangiovese"),
    "неббиоло": ("неббиоло", "nebbiolo"),
    "шираз": (*_noun("шираз"), *_noun("сира"), "shiraz", "syrah"),
    "зинфандель": (*_noun("зинфандель"), "примитиво", "zinfandel", "primitivo"),
    "пинотаж": (*_noun("пинотаж"), "pinotage"),
    "гевюрцтраминер": (*_noun("гевюрцтраминер"), "gewurztraminer", "gewurz"),
    "грюнер вельтлинер": (
        *_phrases(_noun("грюнер"), _noun("вельтлинер")),
        "грюнер",
        "gruner veltliner",
        "gruener veltliner",
        "gruner",
        "gruener",
    ),
    "москато": (
        "москато",
        *_noun("мускат"),
        *_adj("мускатн"),
        "moscato",
        "muscat",
        "moscatel",
        "muskat",
    ),
    "глера": (*_noun("глера"), "glera"),
    "красностоп": (*_noun("красностоп"), "krasnostop"),
    "альбариньо": ("альбариньо", "albarino", "alvarinho"),
    "вионье": ("вионье", "viognier"),
    "гренаш": (*_noun("гренаш"), *_noun("гарнача"), "grenache", "garnacha"),
    "карменер": (
        *_nouns("карменер", "кармэнер", "карменэр"),
        "carmenere",
    ),
    "шенен блан": ("шенен блан", "шенен", "chenin blanc", "chenin"),
    "ркацители": ("ркацители", "rkatsiteli"),
    "цимлянский черный": (*_adj("цимлянск"), "tsimlyansky", "tsimlyanskiy"),
    "фурминт": (*_noun("фурминт"), "furmint"),
    "семильон": (*_nouns("семильон", "семийон"), "semillon"),
    "мурведр": (*_noun("мурведр"), *_noun("монастрель"), "mourvedre", "monastrell"),
    "барбера": (*_noun("барбера"), "barbera"),
    "дольчетто": ("дольчетто", "dolcetto"),
    "корвина": (*_noun("корвина"), "corvina"),
    "турига насьональ": ("турига насьональ", "турига", "touriga nacional", "touriga"),
}

GRAPE_ALIASES: dict[str, str] = _table(GRAPE_SYNONYMS)

_MEAT = "мясо"
_BEEF = "говядина"
_FOOD_GROUPS: dict[str, list[str]] = {
    "стейк": [*_nouns("стейк", "рибай"), "steak", "steaks", "ribeye"],
    _BEEF: [*_noun("говядина"), *_noun("телятина"), "beef", "veal"],
    _MEAT: [
        "мясо",
        "мяса",
        "мясу",
        "мясом",
        "мясе",
        "мясцо",
        *_adj("мясн"),
        *_phrases(_adj("красн"), ["мясо", "мяса", "мясу", "мясом", "мясе"]),
        "meat",
        "red meat",
    ],
    "лосось": [
        *_noun("лосось"),
        *_noun("семга"),
        *_noun("форель"),
        *_phrases(_adj("красн"), _nouns("рыба", "рыбка")),
        "salmon",
        "trout",
    ],
    "рыба": [
        *_nouns("рыба", "рыбка"),
        *_adj("рыбн"),
        *_nouns("тунец", "треска", "сибас", "дорадо"),
        "fish",
        "white fish",
        "tuna",
        "cod",
    ],
    "морепродукты": [
        *_nouns("морепродукт", "креветка", "мидия", "кальмар", "осьминог", "гребешок", "лобстер"),
        "морепродуктов",
        "креветок",
        "мидий",
        "гребешки",
        "гребешками",
        "гребешков",
        "seafood",
        "shrimp",
        "shrimps",
        "prawn",
        "prawns",
        "mussels",
        "squid",
        "octopus",
        "lobster",
        "scallops",
    ],
    "устрицы": [*_noun("устрица"), "устриц", "устрицам", "устрицами", "oyster", "oysters"],
    "суши": ["суши", *_noun("ролл"), "sushi", "sashimi", "сашими"],
    "сыр": [*_noun("сыр"), *_adj("сырн"), "сырок", "cheese", "cheeses", "cheeseboard"],
    "курица": [
        *_noun("курица"),
        *_noun("курочка"),
        *_adj("курин"),
        *_noun("птица"),
        *_phrases(_adj("бел"), ["мясо", "мяса", "мясу", "мясом", "мясе"]),
        "chicken",
        "poultry",
        "white meat",
    ],
    "утка": [*_noun("утка"), *_adj("утин"), "duck"],
    "баранина": [
        *_noun("баранина"),
        *_noun("ягнятина"),
        "ягненок",
        "ягненка",
        "ягненку",
        "ягненком",
        "ягненке",
        *_adj("баран"),
        "lamb",
        "mutton",
    ],
    "шашлык": [
        *_noun("шашлык"),
        *_noun("шашлычок"),
        "барбекю",
        *_noun("гриль"),
        *_noun("мангал"),
        "bbq",
        "barbecue",
        "barbeque",
        "grill",
        "grilled",
        "kebab",
        "kebabs",
        "shashlik",
    ],
    "паста": [
        *_noun("паста"),
        "спагетти",
        *_noun("макароны"),
        "макарон",
        "макаронам",
        "макаронами",
        *_noun("лазанья"),
        "pasta",
        "spaghetti",
        "lasagna",
        "lasagne",
    ],
    "пицца": [*_noun("пицца"), "pizza", "pizzas"],
    "десерт": [
        *_noun("десерт"),
        *_noun("торт"),
        *_noun("тортик"),
        *_noun("пирожное"),
        "пирожными",
        "пирожным",
        *_SWEET_AS_DESSERT,
        _BARE_DESSERT,
        "desserts",
        "cake",
        "cakes",
        "pudding",
    ],
    "шоколад": [*_noun("шоколад"), *_adj("шоколадн"), "chocolate"],
    "фуа-гра": ["фуа гра", "фуагра", "foie gras"],
    "хинкали": ["хинкали", "khinkali"],
    "плов": [*_noun("плов"), "plov", "pilaf", "pilau"],
    "свинина": [*_noun("свинина"), *_adj("свин"), "pork"],
    "индейка": [*_noun("индейка"), "turkey"],
    "салат": [*_noun("салат"), *_noun("салатик"), "salad", "salads"],
    "грибы": [
        *_noun("гриб"),
        *_noun("грибочек"),
        "грибочки",
        *_adj("грибн"),
        "mushroom",
        "mushrooms",
    ],
    "дичь": [*_noun("дичь"), *_noun("оленина"), "game", "venison"],
    "закуски": [
        *_noun("закуска"),
        "закусок",
        "закускам",
        "закусками",
        "закусочки",
        "snacks",
        "snack",
        "appetizers",
        "appetisers",
        "starters",
        "tapas",
        "тапас",
    ],
    "аперитив": [*_noun("аперитив"), "aperitif", "aperitivo", "apero"],
}

FOOD_WORDS: dict[str, str] = _table(_FOOD_GROUPS)

# --------------------------------------------------------------------------- matching


@dataclass(frozen=True)
class _Hit(Generic[V]):
    start: int  # token index, inclusive
    end: int  # token index, exclusive
    value: V
    key: str


def _max_words(table: Mapping[str, object]) -> int:
    return max(len(key.split()) for key in table)


_MAX_WORDS: dict[int, int] = {}


def _match_at(table: Mapping[str, V], tokens: list[_Token], index: int) -> _Hit[V] | None:
    longest = _MAX_WORDS.get(id(table))
    if longest is None:
        longest = _MAX_WORDS[id(table)] = _max_words(table)
    for size in range(min(longest, len(tokens) - index), 0, -1):
        key = " ".join(token.text for token in tokens[index : index + size])
        value = table.get(key)
        if value is not None:
            return _Hit(index, index + size, value, key)
    return None


def _scan(table: Mapping[str, V], tokens: list[_Token]) -> list[_Hit[V]]:
    """All non-overlapping hits, left to right, longest phrase first at each position."""
    hits: list[_Hit[V]] = []
    index = 0
    while index < len(tokens):
        hit = _match_at(table, tokens, index)
        if hit is None:
            index += 1
        else:
            hits.append(hit)
            index = hit.end
    return hits


_NEGATIONS = frozenset({"не", "ни", "без", "кроме", "not", "no", "without", "except", "nor"})
# Words that may stand between a negation and the negated word: "не очень сладкое",
# "не из Франции", "not too sweet", "not from France".
_NEGATION_FILLERS = frozenset(
    {
        "очень",
        "слишком",
        "сильно",
        "особо",
        "особенно",
        "так",
        "совсем",
        "из",
        "с",
        "со",
        "too",
        "very",
        "so",
        "overly",
        "from",
        "the",
        "a",
        "an",
    }
)


def _negated(tokens: list[_Token], index: int) -> bool:
    position = index - 1
    for _ in range(3):
        if position < 0:
            return False
        word = tokens[position].text
        if word in _NEGATIONS:
            return True
        if word not in _NEGATION_FILLERS:
            return False
        position -= 1
    return False


@dataclass
class _Text:
    original: str
    folded: str
    tokens: list[_Token]

    @classmethod
    def of(cls, text: str) -> _Text:
        folded = _fold(text)
        return cls(text, folded, _tokenize(folded))

    def span(self, hit: _Hit[object]) -> str:
        return self.original[self.tokens[hit.start].start : self.tokens[hit.end - 1].end]

    def next_word(self, hit: _Hit[object]) -> str | None:
        return self.tokens[hit.end].text if hit.end < len(self.tokens) else None

    def previous_word(self, hit: _Hit[object]) -> str | None:
        return self.tokens[hit.start - 1].text if hit.start > 0 else None

    def food_follows(self, hit: _Hit[object]) -> bool:
        return hit.end < len(self.tokens) and (
            _match_at(FOOD_WORDS, self.tokens, hit.end) is not None
            or self.tokens[hit.end].text in _MEAL_WORDS
        )


def _live_hits(table: Mapping[str, V], text: _Text) -> list[_Hit[V]]:
    return [hit for hit in _scan(table, text.tokens) if not _negated(text.tokens, hit.start)]


def _first_distinct(hits: list[_Hit[V]]) -> list[_Hit[V]]:
    seen: dict[V, _Hit[V]] = {}
    for hit in hits:
        seen.setdefault(hit.value, hit)
    return list(seen.values())


# --------------------------------------------------------------------------- per-field readers


def _wine_type_hit(text: _Text, *, bare_dessert: bool) -> _Hit[WineType] | None:
    hits: list[_Hit[WineType]] = []
    for hit in _live_hits(WINE_TYPE_WORDS, text):
        if hit.key == _BARE_DESSERT and not bare_dessert:
            continue  # "for dessert": food, not a wine type
        if hit.value in _COLOUR_TYPES and text.food_follows(hit):
            continue  # "красная рыба", "white fish", "red meat"
        hits.append(hit)
    distinct = _first_distinct(hits)
    styles = [hit for hit in distinct if hit.value in _STYLE_TYPES]
    if styles:
        values = {hit.value for hit in styles}
        if len(values) == 1:
            return styles[0]
        if values == {WineType.fortified, WineType.dessert}:
            return next(hit for hit in styles if hit.value is WineType.fortified)
        return None  # "игристое или портвейн": no single type
    # A colour is overridden by a style ("розовое игристое" is sparkling); two colours
    # ("красное или белое") leave the type open.
    return distinct[0] if len(distinct) == 1 else None


def _sweetness_hit(text: _Text) -> _Hit[Sweetness] | None:
    hits = [
        hit
        for hit in _live_hits(SWEETNESS_WORDS, text)
        if not (
            hit.key in ("сладкое", "сладкому")
            and text.previous_word(hit) in ("на", "под", "к", "ко")
        )
    ]
    distinct = _first_distinct(hits)
    return distinct[0] if len(distinct) == 1 else None


def _body_hit(text: _Text) -> _Hit[str] | None:
    hits = [
        hit
        for hit in _live_hits(_BODY_WORDS, text)
        if hit.value == _BODY_MEDIUM or not text.food_follows(hit)  # "легкие закуски"
    ]
    distinct = _first_distinct(hits)
    return distinct[0] if len(distinct) == 1 else None


def _country_hit(text: _Text) -> _Hit[str] | None:
    for hit in _live_hits(COUNTRY_ALIASES, text):
        allowed = _CASE_SENSITIVE_ALIASES.get(hit.key)
        if allowed is not None and text.span(hit) not in allowed:
            continue
        return hit
    return None


def _region_hit(text: _Text) -> _Hit[str] | None:
    for index, token in enumerate(text.tokens):
        if (
            token.text == "champagne"
            and index > 0
            and text.tokens[index - 1].text in _CHAMPAGNE_REGION_PREPOSITIONS
        ):
            region = _Hit(index, index + 1, "Шампань", "champagne")
            break
    else:
        region = None
    for hit in _live_hits(REGION_ALIASES, text):
        return hit if region is None or hit.start < region.start else region
    return region


def _grape_hit(text: _Text) -> _Hit[str] | None:
    hits = _live_hits(GRAPE_ALIASES, text)
    return hits[0] if hits else None


def _food_hit(text: _Text) -> _Hit[str] | None:
    for hit in _live_hits(FOOD_WORDS, text):
        if hit.key == _BARE_DESSERT and text.next_word(hit) in ("wine", "wines"):
            continue
        return hit
    return None


# --------------------------------------------------------------------------- public helpers


def _as_text(word: object) -> str:
    if isinstance(word, enum.Enum):  # str(WineType.red) is "WineType.red" on 3.11
        return str(word.value)
    return str(word)


def wine_type_from_word(word: str) -> WineType | None:
    """Map a wine-type word or phrase (ru/en, any case and form, enum values) to ``WineType``.

    >>> wine_type_from_word("Красненькое"), wine_type_from_word("прекрасное")
    (<WineType.red: 'red'>, None)
    """
    hit = _wine_type_hit(_Text.of(_as_text(word)), bare_dessert=True)
    return hit.value if hit else None


def sweetness_from_word(word: str) -> Sweetness | None:
    """Map a sweetness word ("сухого", "semi-dry", "semi_sweet", "брют") to ``Sweetness``."""
    hit = _sweetness_hit(_Text.of(_as_text(word)))
    return hit.value if hit else None


def country_from_text(text: str) -> str | None:
    """The canonical Russian country name mentioned in ``text`` ("из Чили" -> "Чили")."""
    hit = _country_hit(_Text.of(text))
    return hit.value if hit else None


def region_from_text(text: str) -> str | None:
    """The canonical Russian name of a famous region mentioned in ``text`` ("Mosel" -> "Мозель")."""
    hit = _region_hit(_Text.of(text))
    return hit.value if hit else None


def grape_from_text(text: str) -> str | None:
    """The canonical lowercase Russian grape name in ``text`` ("cabernet" -> "каберне совиньон")."""
    hit = _grape_hit(_Text.of(text))
    return hit.value if hit else None


def food_from_text(text: str) -> str | None:
    """The catalog's base food word for the dish in ``text`` ("к стейку" -> "стейк")."""
    hit = _food_hit(_Text.of(text))
    return hit.value if hit else None


# --------------------------------------------------------------------------- prices

_CURRENCY = r"(?:₽|руб(?:л[а-я]*)?\.?|р\.?|rub(?:les?)?\.?|roubles?|rur)"
_MULTIPLIER_WORD = r"(?:тыс(?:яч[а-я]*)?\.?|тыщ[а-я]*|thousands?)"
_DIGIT_AMOUNT_RE = re.compile(
    r"(?<!\d)(?<!\d[.,])"
    r"(?P<int>\d{1,3}(?:[ .,]\d{3})+(?!\d)|\d+)"
    r"(?:[.,](?P<frac>\d{1,2})(?!\d))?"
    r"(?:(?P<k>[kк])(?![a-zа-я])|\s?(?P<mult>" + _MULTIPLIER_WORD + r")(?![a-zа-я]))?"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)

_NUMBER_WORDS: dict[str, Decimal] = {
    "одна": Decimal(1),
    "одну": Decimal(1),
    "один": Decimal(1),
    "две": Decimal(2),
    "два": Decimal(2),
    "пару": Decimal(2),
    "пара": Decimal(2),
    "три": Decimal(3),
    "четыре": Decimal(4),
    "пять": Decimal(5),
    "шесть": Decimal(6),
    "семь": Decimal(7),
    "восемь": Decimal(8),
    "девять": Decimal(9),
    "десять": Decimal(10),
    "полторы": Decimal("1.5"),
    "полтора": Decimal("1.5"),
    "one": Decimal(1),
    "two": Decimal(2),
    "three": Decimal(3),
    "four": Decimal(4),
    "five": Decimal(5),
    "six": Decimal(6),
    "seven": Decimal(7),
    "eight": Decimal(8),
    "nine": Decimal(9),
    "ten": Decimal(10),
}
_BARE_THOUSAND = frozenset({"тысяча", "тысячу", "тыща", "тыщу", "thousand"})
_WORD_AMOUNT_RE = re.compile(
    r"(?<![a-zа-я])(?:(?P<num>" + "|".join(_NUMBER_WORDS) + r")\s+)?"
    r"(?:a\s+)?(?P<mult>" + _MULTIPLIER_WORD + r")(?![a-zа-я])"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)

_THOUSAND = Decimal(1000)
_MIN_PLAIN_PRICE = Decimal(100)  # a bare number below this is a count, not rubles
_VINTAGE_RANGE = (1900, 2030)
_VINTAGE_BEFORE = frozenset(
    {"год", "года", "году", "урожая", "урожай", "урожаем", "vintage", "year", "винтаж", "винтажа"}
)
_UNIT_PREFIXES = (
    "бутыл",
    "челов",
    "гост",
    "персон",
    "градус",
    "штук",
    "лет",
    "год",
    "bottle",
    "people",
    "person",
    "guest",
    "year",
    "degree",
    "vintage",
)
_UNIT_WORDS = frozenset({"мл", "л", "шт", "г", "гг", "ml", "l", "cl", "pcs"})

_MAX = "max"
_MIN = "min"
_ABOUT = "about"
_PRICE_CUES: dict[tuple[str, ...], str] = {
    **dict.fromkeys(
        [
            ("до",),
            ("не", "дороже"),
            ("не", "больше"),
            ("не", "более"),
            ("не", "выше"),
            ("не", "свыше"),
            ("дешевле",),
            ("подешевле",),
            ("меньше",),
            ("менее",),
            ("ниже",),
            ("в", "пределах"),
            ("в", "рамках"),
            ("бюджет",),
            ("бюджет", "в"),
            ("бюджетом",),
            ("бюджетом", "в"),
            ("за",),
            ("по",),
            ("на",),
            ("максимум",),
            ("макс",),
            ("under",),
            ("below",),
            ("less", "than"),
            ("cheaper", "than"),
            ("up", "to"),
            ("max",),
            ("maximum",),
            ("budget",),
            ("budget", "of"),
            ("budget", "is"),
            ("within",),
            ("no", "more", "than"),
            ("not", "more", "than"),
            ("not", "over"),
            ("at", "most"),
            ("for",),
        ],
        _MAX,
    ),
    **dict.fromkeys(
        [
            ("от",),
            ("дороже",),
            ("подороже",),
            ("больше",),
            ("более",),
            ("выше",),
            ("свыше",),
            ("минимум",),
            ("мин",),
            ("не", "дешевле"),
            ("не", "меньше"),
            ("не", "менее"),
            ("не", "ниже"),
            ("over",),
            ("above",),
            ("more", "than"),
            ("more", "expensive", "than"),
            ("pricier", "than"),
            ("at", "least"),
            ("no", "less", "than"),
            ("not", "less", "than"),
            ("min",),
            ("minimum",),
            ("from",),
            ("starting", "at"),
            ("starting", "from"),
        ],
        _MIN,
    ),
    **dict.fromkeys(
        [
            ("около",),
            ("примерно",),
            ("приблизительно",),
            ("порядка",),
            ("где", "то"),
            ("в", "районе"),
            ("в", "пределах", "около"),
            ("стоимостью",),
            ("around",),
            ("about",),
            ("approximately",),
            ("approx",),
            ("roughly",),
            ("circa",),
        ],
        _ABOUT,
    ),
}
_MAX_CUE_WORDS = max(len(cue) for cue in _PRICE_CUES)
_BUDGET_WORDS = frozenset({"бюджет", "бюджетом", "бюджета", "бюджете", "budget"})
_RANGE_OPENERS = frozenset({"от", "с", "from", "между", "between"})
_PAIR_OPENERS = frozenset({"между", "between"})
_RANGE_LINK_RE = re.compile(r"(?:(?:и|and)\s+)?(?:-|до|по|to)|(?P<pair>и|and)")
_SENTENCE_BREAK_RE = re.compile(r"[!?;\n]|\.\s")
_ABOUT_LOW = Decimal("0.8")
_ABOUT_HIGH = Decimal("1.2")


@dataclass(frozen=True)
class _Amount:
    start: int
    end: int
    raw: Decimal  # the number as written, before a multiplier
    multiplier: Decimal | None
    currency: bool
    fraction: bool

    @property
    def value(self) -> Decimal:
        return self.raw * self.multiplier if self.multiplier is not None else self.raw

    @property
    def marked(self) -> bool:
        """Written unmistakably as money: with a currency or a "k"/"тысяч" multiplier."""
        return self.currency or self.multiplier is not None

    def plausible(self) -> bool:
        return self.value > 0 and (self.marked or self.value >= _MIN_PLAIN_PRICE)

    def looks_like_year(self) -> bool:
        low, high = _VINTAGE_RANGE
        return (
            not self.marked and not self.fraction and low <= self.value <= high
        ) and self.value == self.value.to_integral_value()


def _find_amounts(folded: str) -> list[_Amount]:
    amounts: list[_Amount] = []
    for match in _DIGIT_AMOUNT_RE.finditer(folded):
        integer = re.sub(r"\D", "", match.group("int"))
        raw = Decimal(integer)
        if match.group("frac"):
            raw += Decimal(f"0.{match.group('frac')}")
        multiplier = _THOUSAND if match.group("k") or match.group("mult") else None
        amounts.append(
            _Amount(
                match.start(),
                match.end(),
                raw,
                multiplier,
                bool(match.group("cur")),
                bool(match.group("frac")),
            )
        )
    for match in _WORD_AMOUNT_RE.finditer(folded):
        if any(a.start < match.end() and match.start() < a.end for a in amounts):
            continue  # "2 тысячи": already read as digits with a multiplier
        number = match.group("num")
        if number is None and match.group("mult") not in _BARE_THOUSAND:
            continue  # "несколько тысяч" is no amount
        raw = _NUMBER_WORDS[number] if number else Decimal(1)
        amounts.append(
            _Amount(match.start(), match.end(), raw, _THOUSAND, bool(match.group("cur")), False)
        )
    return sorted(amounts, key=lambda a: a.start)


def _round(value: Decimal) -> Decimal:
    return value.quantize(Decimal(1), rounding=ROUND_HALF_UP)


class _PriceReader:
    def __init__(self, text: _Text) -> None:
        self.text = text
        self.price_min: Decimal | None = None
        self.price_max: Decimal | None = None
        self.min_words: str | None = None
        self.max_words: str | None = None

    # -- context around an amount

    def _words_between(self, start: int, end: int) -> list[_Token]:
        gap = self.text.folded[start:end]
        breaks = list(_SENTENCE_BREAK_RE.finditer(gap))
        if breaks:
            start += breaks[-1].end()
        return [t for t in self.text.tokens if t.start >= start and t.end <= end]

    def _word_after(self, amount: _Amount) -> str:
        rest = self.text.folded[amount.end :].lstrip()
        if rest.startswith("%"):
            return "%"
        match = _TOKEN_RE.match(rest)
        return match.group() if match else ""

    def _is_vintage_or_count(self, amount: _Amount, before: list[_Token]) -> bool:
        after = self._word_after(amount)
        if amount.looks_like_year() and (
            after.startswith("год")
            or after in ("г", "гг", "vintage", "year")
            or (before and before[-1].text in _VINTAGE_BEFORE)
        ):
            return True
        if amount.marked:
            return False
        return after == "%" or after in _UNIT_WORDS or after.startswith(_UNIT_PREFIXES)

    @staticmethod
    def _cue(words: list[_Token]) -> tuple[str, int] | None:
        """The price cue ending right before an amount, as (kind, index of its first word)."""
        texts = [t.text for t in words]
        candidates = [texts]
        if texts and texts[-1] in ("чем", "than"):  # "дешевле чем 1500"
            candidates.append(texts[:-1])
        for candidate in candidates:
            for size in range(min(_MAX_CUE_WORDS, len(candidate)), 0, -1):
                kind = _PRICE_CUES.get(tuple(candidate[-size:]))
                if kind is not None:
                    return kind, len(candidate) - size
        for index in range(len(texts) - 1, max(len(texts) - 5, -1), -1):
            if texts[index] in _BUDGET_WORDS:  # "бюджет у меня 2500"
                return _MAX, index
        return None

    # -- recording

    def _phrase(self, start: int, end: int) -> str:
        return self.text.original[start:end].strip()

    def _set_max(self, value: Decimal, words: str) -> None:
        if self.price_max is None:
            self.price_max, self.max_words = _round(value), words

    def _set_min(self, value: Decimal, words: str) -> None:
        if self.price_min is None:
            self.price_min, self.min_words = _round(value), words

    # -- reading

    def read(self) -> None:
        folded = self.text.folded
        amounts: list[_Amount] = []
        previous_end = 0
        for amount in _find_amounts(folded):
            if not self._is_vintage_or_count(
                amount, self._words_between(previous_end, amount.start)
            ):
                amounts.append(amount)
            previous_end = amount.end

        previous_end = 0
        index = 0
        while index < len(amounts):
            amount = amounts[index]
            before = self._words_between(previous_end, amount.start)
            following = amounts[index + 1] if index + 1 < len(amounts) else None
            if following is not None and self._read_range(amount, following, before):
                previous_end = following.end
                index += 2
                continue
            self._read_single(amount, before)
            previous_end = amount.end
            index += 1

        if (
            self.price_min is not None
            and self.price_max is not None
            and self.price_min > self.price_max
        ):
            self.price_min, self.min_words = None, None

    def _read_range(self, low: _Amount, high: _Amount, before: list[_Token]) -> bool:
        link = _RANGE_LINK_RE.fullmatch(self.text.folded[low.end : high.start].strip())
        if link is None:
            return False
        opener = before[-1] if before and before[-1].text in _RANGE_OPENERS else None
        if link.group("pair") and (opener is None or opener.text not in _PAIR_OPENERS):
            return False  # "до 2000 и 3000 ..." is not "между 2000 и 3000"
        cue = self._cue(before)
        low_value = low.value
        if low.multiplier is None and high.multiplier is not None and low.raw <= high.raw:
            low_value = low.raw * high.multiplier  # "от 3 до 5 тысяч", "2-4k"
        marked = low.marked or high.marked or opener is not None or cue is not None
        if not marked and (low.looks_like_year() and high.looks_like_year()):
            return False  # "2015-2018": vintages
        low_ok = low_value > 0 and (low_value >= _MIN_PLAIN_PRICE or low.marked or high.marked)
        if not (low_ok and high.plausible()):
            return False
        lo, hi = sorted((low_value, high.value))
        if opener is not None:
            start = opener.start
        elif cue is not None:  # "бюджет 2000-3000"
            start = before[cue[1]].start
        else:
            start = low.start
        words = self._phrase(start, high.end)
        self._set_min(lo, words)
        self._set_max(hi, words)
        return True

    def _read_single(self, amount: _Amount, before: list[_Token]) -> None:
        if not amount.plausible():
            return
        cue = self._cue(before)
        if cue is None:
            if amount.marked:  # "2000 ₽", "3к": a lone sum of money is a budget
                self._set_max(amount.value, self._phrase(amount.start, amount.end))
            return
        kind, first = cue
        words = self._phrase(before[first].start, amount.end)
        if kind == _MAX:
            self._set_max(amount.value, words)
        elif kind == _MIN:
            self._set_min(amount.value, words)
        else:
            self._set_min(amount.value * _ABOUT_LOW, words)
            self._set_max(amount.value * _ABOUT_HIGH, words)


# --------------------------------------------------------------------------- the query

_RELAXATION_ORDER: tuple[str, ...] = (
    "region",
    "body_min",
    "body_max",
    "grape_variety",
    "country",
    "sweetness",
    "food_pairing",
    "price_min",
    "wine_type",
    "price_max",
)


@dataclass(frozen=True)
class ParsedQuery:
    """Filters read from a message, with the words that produced each one."""

    filters: WineFilters
    # filter name -> the words of the message behind it, e.g. {"price_max": "до 2000"}
    matched: dict[str, str] = field(default_factory=dict)

    def relaxation_order(self) -> list[str]:
        """Names of the filters present, least important first (drop them in this order).

        The budget (``price_max``) comes last: it is the constraint people mind most.
        """
        present = self.filters.model_dump(exclude_none=True)
        return [name for name in _RELAXATION_ORDER if name in present]


def parse_query(text: str) -> ParsedQuery:
    """Read catalog filters from a free-form message (Russian or English) without an LLM."""
    message = _Text.of(text)
    values: dict[str, object] = {}
    matched: dict[str, str] = {}

    def put(name: str, value: object, hit: _Hit[object] | str) -> None:
        values[name] = value
        matched[name] = hit if isinstance(hit, str) else message.span(hit)

    if (wine_type := _wine_type_hit(message, bare_dessert=False)) is not None:
        put("wine_type", wine_type.value, wine_type)
    if (sweetness := _sweetness_hit(message)) is not None:
        put("sweetness", sweetness.value, sweetness)
    if (grape := _grape_hit(message)) is not None:
        put("grape_variety", grape.value, grape)
    if (food := _food_hit(message)) is not None:
        put("food_pairing", food.value, food)
    region = _region_hit(message)
    country = _country_hit(message)
    if country is not None:
        put("country", country.value, country)
    elif region is not None:
        put("country", REGION_COUNTRY[region.value], region)
    if region is not None:
        put("region", region.value, region)
    if (body := _body_hit(message)) is not None:
        body_min, body_max = _BODY_BOUNDS[body.value]
        if body_min is not None:
            put("body_min", body_min, body)
        if body_max is not None:
            put("body_max", body_max, body)

    prices = _PriceReader(message)
    prices.read()
    if prices.price_min is not None and prices.min_words is not None:
        put("price_min", prices.price_min, prices.min_words)
    if prices.price_max is not None and prices.max_words is not None:
        put("price_max", prices.price_max, prices.max_words)

    filters = WineFilters.model_validate(values)
    ordered = {name: matched[name] for name in WineFilters.model_fields if name in matched}
    return ParsedQuery(filters=filters, matched=ordered)
