"""Dishes and foods, mapped to the catalog's base food words («к стейку» -> «стейк»)."""

from __future__ import annotations

from functools import lru_cache

from core.language.folding import phrase_table, phrases, stem_key
from core.language.lemmas import is_adjective
from core.language.vocabulary import BARE_DESSERT, SWEET_AS_DESSERT


def _fleeting(word: str) -> list[str]:
    """A diminutive in «-ок» with the forms that drop its «о» («шашлычок» → «к шашлычку»,
    «сырок» → «сырку»): the stemmer reduces them to another stem."""
    base = word[:-2] + "к"
    return [word, *(base + ending for ending in ("а", "у", "ом", "е"))]


_MEAT = "мясо"
_BEEF = "говядина"
_FOOD_GROUPS: dict[str, list[str]] = {
    "стейк": ["стейк", "рибай", "рибая", "steak", "steaks", "ribeye"],
    _BEEF: ["говядина", "телятина", "beef", "veal"],
    _MEAT: [
        "мясо",
        "мяса",
        "мясу",
        "мясом",
        "мясе",
        "мясцо",
        "мясное",
        *phrases(["красное"], ["мясо", "мяса", "мясу", "мясом", "мясе"]),
        "пельмени",
        "пельмешки",
        "котлеты",
        "голубцы",
        "холодец",
        "холодцу",
        "холодцом",
        "студень",
        "борщ",
        "манты",
        "meat",
        "red meat",
    ],
    "бургеры": ["бургер", "бургеры", "гамбургер", "чизбургер", "burger", "burgers", "hamburger"],
    "лосось": [
        "лосось",
        "лосося",
        "лососю",
        "семга",
        "форель",
        *phrases(["красное"], ["рыба", "рыбка"]),
        # «стейк из лосося» is salmon, not a steak
        *phrases(["стейк", "стейка", "стейку", "стейком", "стейки"], ["из лосося", "из семги"]),
        "salmon",
        "trout",
    ],
    "белая рыба": [
        "белая рыба",
        *phrases(["белая", "белой", "белую"], ["рыба", "рыбы", "рыбе", "рыбу", "рыбой", "рыбка"]),
        "white fish",
    ],
    "рыба": [
        "рыба",
        "рыбка",
        "рыбное",
        "тунец",
        "треска",
        "сибас",
        "дорадо",
        "селедка",
        "селедочка",
        "сельдь",
        "скумбрия",
        "судак",
        "щука",
        "fish",
        "tuna",
        "cod",
    ],
    "морепродукты": [
        "морепродукт",
        "креветка",
        "мидия",
        "кальмар",
        "осьминог",
        "гребешок",
        "лобстер",
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
    "устрицы": ["устрица", "устриц", "устрицам", "устрицами", "oyster", "oysters"],
    "суши": ["суши", "ролл", "sushi", "sashimi", "сашими"],
    # «под тайское», «к вьетнамской еде», «азиатчина»: the catalog's «азиатская кухня»
    "азиатская кухня": [
        *phrases(
            ["азиатская", "паназиатская", "тайская", "вьетнамская", "китайская", "корейская"],
            ["кухня", "еда", "блюда"],
        ),
        "азиатчина",
        "азиатчине",
        "азиатчину",
        "asian food",
        "asian cuisine",
    ],
    "голубые сыры": [
        "голубые сыры",
        *phrases(
            ["голубой", "голубым", "голубыми", "голубых", "голубому"],
            ["сыр", "сырам", "сыром", "сыры", "сыру", "сырами"],
        ),
        "с плесенью",
        "рокфор",
        "горгонзола",
        "дор блю",
        "стилтон",
        "blue cheese",
        "roquefort",
        "gorgonzola",
        "stilton",
    ],
    "сыр": [
        "сыр",
        "сырное",
        *_fleeting("сырок"),
        "сырочек",
        "фондю",
        "раклет",
        "cheese",
        "cheeses",
        "cheeseboard",
    ],
    "курица": [
        "курица",
        "курочка",
        "куриное",
        "птица",
        "цыпленок",
        "цыпленка",
        "цыпленку",
        "цыплята",
        "цыплят",
        *phrases(["белое"], ["мясо", "мяса", "мясу", "мясом", "мясе"]),
        "chicken",
        "poultry",
        "white meat",
    ],
    "утка": ["утка", "утиное", "уточка", "duck"],
    "баранина": [
        "баранина",
        "ягнятина",
        "ягненок",
        "ягненка",
        "ягненку",
        "ягненком",
        "ягненке",
        "бараное",
        "lamb",
        "mutton",
    ],
    "барбекю": [
        "барбекю",
        "гриль",
        "мангал",
        "мангала",
        "bbq",
        "barbecue",
        "barbeque",
        "grill",
        "grilled",
    ],
    "шашлык": [
        "шашлык",
        *_fleeting("шашлычок"),
        "shashlik",
        "kebab",
        "kebabs",
        "shashlik",
    ],
    "паста": [
        "паста",
        "спагетти",
        "макароны",
        "макарон",
        "макаронам",
        "макаронами",
        "карбонара",
        "карбонаре",
        "равиоли",
        "феттучини",
        "tagliatelle",
        "тальятелле",
        "pasta",
        "spaghetti",
    ],
    # «паста болоньезе» is a meat sauce, not the creamy pasta of a white
    "паста болоньезе": [
        "болоньезе",
        "bolognese",
        *phrases(
            ["паста", "спагетти", "макароны", "pasta", "spaghetti"], ["болоньезе", "bolognese"]
        ),
        *phrases(["паста", "спагетти", "макароны"], ["с мясным соусом", "с мясом", "с фаршем"]),
        "паста с мясным рагу",
        # lasagne is layered with a meat ragù
        "лазанья",
        "лазанье",
        "лазанью",
        "lasagna",
        "lasagne",
        "мясной соус",
        "мясным соусом",
        "мясном соусе",
        "по-флотски",
        "pasta with meat sauce",
        "meat sauce",
    ],
    "рагу": ["рагу", "ragu", "ragout"],
    "пицца": ["пицца", "pizza", "pizzas"],
    "десерт": [
        "десерт",
        "торт",
        "тортик",
        "пирожное",
        "пирожными",
        "пирожным",
        *SWEET_AS_DESSERT,
        BARE_DESSERT,
        "чизкейк",
        "тирамису",
        "медовик",
        "пирог",
        "штрудель",
        "desserts",
        "cake",
        "cakes",
        "pudding",
    ],
    "шоколад": ["шоколад", "шоколадное", "chocolate"],
    "фуа-гра": ["фуа гра", "фуагра", "foie gras"],
    "хинкали": ["хинкали", "khinkali"],
    "плов": ["плов", "plov", "pilaf", "pilau"],
    "свинина": ["свинина", "свиное", "pork"],
    "индейка": ["индейка", "turkey"],
    "салат": ["салат", "салатик", "оливье", "винегрет", "цезарь", "salad", "salads"],
    "грибы": [
        "гриб",
        "грибочек",
        "грибочки",
        "грибное",
        "mushroom",
        "mushrooms",
    ],
    "дичь": ["дичь", "оленина", "game", "venison"],
    "закуски": [
        "закуска",
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
    "аперитив": ["аперитив", "аперитива", "aperitif", "aperitivo", "apero"],
}

FOOD_WORDS: dict[str, str] = phrase_table(_FOOD_GROUPS)

# A food word that names a whole category: «к мясу» means any of these dishes too.
FOOD_CATEGORIES: dict[str, tuple[str, ...]] = {
    _MEAT: ("стейк", _BEEF, "баранина", "свинина", "дичь"),
    "морепродукты": ("устрицы",),
    "сыр": ("голубые сыры",),
    "рыба": ("белая рыба", "лосось"),
    "паста": ("паста болоньезе",),
}


_KIND_OF_DISH = {dish: kind for kind, dishes in FOOD_CATEGORIES.items() for dish in dishes}


def dish_kind(dish: str) -> str | None:
    """The kind a dish is of («лосось» → «рыба», «стейк» → «мясо»), or None."""
    return _KIND_OF_DISH.get(dish)


@lru_cache(maxsize=16384)  # a catalog's pairings come back search after search
def names_dish(pairing: str, dish: str) -> bool:
    """Does one of a wine's pairings name the dish asked for itself («барбекю», «паста
    болоньезе»), not only a dish of its kind («колбаски гриль» for a barbecue)? Such a wine is
    the surer pick. A whole category («мясо») is named by each of its dishes alike."""
    key = stem_key(pairing)
    said = key.split()
    for name in (dish, *FOOD_CATEGORIES.get(dish, ())):
        if FOOD_WORDS.get(key) == name:
            return True
        wanted = stem_key(name).split()
        if wanted and all(any(w.startswith(s) for w in said) for s in wanted):
            return True
    return False


def dish_head(dish: str) -> str:
    """The dish a pairing of several words is a kind of: «осьминог на гриле» → «осьминог»,
    «колбаски гриль» → «колбаски»; a pairing led by an adjective is one dish («азиатская
    кухня», «голубые сыры»)."""
    first, *rest = dish.split()
    return first if rest and not is_adjective(first) else dish
