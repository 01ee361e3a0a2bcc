"""Words for wine styles: type (colour or style), sweetness and body, Russian and English.

Each table maps a phrase, as the Snowball stems of its words (`folding.stem_key`), to what it
means. Phrases are listed as lemmas — the stemmer makes «красного», «красная» and «красное» one
key — plus the few forms it cannot unify. Matching stems of whole tokens keeps «прекрасное»
from being «красное» and «полусухое» from being «сухое».
"""

from __future__ import annotations

from core.domain import Sweetness, WineType
from core.language.folding import phrase_table, phrases, stem

BARE_DESSERT = "dessert"

WINE_TYPE_WORDS: dict[str, WineType] = phrase_table(
    {
        WineType.red: [
            "красное",
            "красненькое",
            "red",
            "rouge",
            "rosso",
            "tinto",
            "кларет",
            "claret",
            "rotwein",
        ],
        WineType.white: [
            "белое",
            "беленькое",
            "white",
            "blanco",
            "bianco",
            "branco",
            "weisswein",
            "weißwein",
        ],
        WineType.rose: [
            "розовое",
            "розовенькое",
            "розе",
            "розэ",
            "rose",
            "rosado",
            "rosato",
            "pink",
        ],
        WineType.sparkling: [
            "игристое",
            "пузырьки",
            "пузырики",
            "шипучее",
            "шипучка",
            "шипучку",
            "шипучки",
            "игристое",
            "fizzy",
            "bubbly",
            "шампанское",
            "шампусик",
            "шампусика",
            "шампусиком",
            "просекко",
            "кава",
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
            "десертное",
            *phrases(["ледяное"], ["вино", "вина", "вину", "вином"]),
            "айсвайн",
            "dessert wine",
            "dessert wines",
            BARE_DESSERT,  # only on its own (helpers) or before "wine"; otherwise it is food
            "ice wine",
            "icewine",
            "eiswein",
        ],
        WineType.fortified: [
            "крепленое",
            "крепленное",
            "портвейн",
            "херес",
            "мадера",
            "марсала",
            "марсалы",
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

STYLE_TYPES = (WineType.sparkling, WineType.fortified, WineType.dessert)
COLOUR_TYPES = (WineType.red, WineType.white, WineType.rose)

SWEETNESS_WORDS: dict[str, Sweetness] = phrase_table(
    {
        Sweetness.dry: [
            "сухое",
            "сухонькое",
            "сухенькое",
            "брют",
            "экстра брют",
            "dry",
            "brut",
            "extra brut",
            "bone dry",
            "secco",
            "seco",
            "trocken",
            "трокен",
            *phrases(["без"], ["сахара", "сладости", "сахару"]),
        ],
        Sweetness.semi_dry: [
            "полусухое",
            "полусухенькое",
            "semi dry",
            "semidry",
            "off dry",
            "medium dry",
            "средне сухое",
            "halbtrocken",
            "халбтрокен",
            "хальбтрокен",
            "feinherb",
            "demi dry",
            *phrases(["с", "со"], ["легкой сладостью", "небольшой сладостью", "ноткой сладости"]),
            "чуть сладкое",
            "слегка сладкое",
            "сладковатое",
            "slightly sweet",
            "touch of sweetness",
            "hint of sweetness",
        ],
        Sweetness.semi_sweet: [
            "полусладкое",
            "полусладенькое",
            "semi sweet",
            "semisweet",
            "medium sweet",
            "средне сладкое",
            "семисвит",
            "семи свит",
            "деми сек",
            "демисек",
            "demi sec",
            "demisec",
            "lieblich",
            "amabile",
            *phrases(["с", "со"], ["сладостью", "сахаром", "сахарком", "сладинкой"]),
            "with some sweetness",
        ],
        Sweetness.sweet: ["сладкое", "сладенькое", "sweet", "sugary", "dolce", "doux", "suss"],
    }
)

# "на сладкое" / "к сладкому" mean "for dessert", not "a sweet wine".
SWEET_AS_DESSERT = phrases(["на", "под", "к", "ко"], ["сладкое", "сладкому"])

BODY_LIGHT = "light"
BODY_MEDIUM = "medium"
BODY_FULL = "full"
BODY_BOUNDS: dict[str, tuple[int | None, int | None]] = {
    BODY_LIGHT: (None, 2),
    BODY_MEDIUM: (3, 3),
    BODY_FULL: (4, None),
}

BODY_WORDS: dict[str, str] = phrase_table(
    {
        BODY_LIGHT: [
            "легкое",
            "легонькое",
            "легкотелое",
            "полегче",
            "легче",
            "light",
            "lighter",
            "light bodied",
            "light body",
        ],
        BODY_MEDIUM: [
            "среднетелое",
            "средней насыщенности",
            "средней плотности",
            "medium bodied",
            "medium body",
        ],
        BODY_FULL: [
            "насыщенное",
            "плотное",
            "полнотелое",
            "мощное",
            "тяжелое",
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
MEAL_WORDS = frozenset(
    stem(word)
    for word in [
        "ужин",
        "обед",
        "перекус",
        "завтрак",
        "вечер",
        *("lunch", "dinner", "meal", "snack", "bite", "supper"),
    ]
)

# Word forms that share a stem with a vocabulary word but mean something else: «на русском»
# is the language, not Russia; «сырой погоды» is damp weather, not cheese. A phrase holding one
# of them never counts.
FALSE_FRIENDS = frozenset(
    {"русский", "русском", "сырой", "сырая", "сырое", "сырые", "сырым", "сырых", "сырую"}
    # «слишком сладко», «кисло»: how a wine tasted, not a request for that style
    | {"сладко", "сухо", "кисло", "горько", "тяжело", "легко"}
    # «хочу суше»: «drier», which shares its stem with «суши» (sushi)
    | {"суше", "посуше"}
    # «дорого», «дорога»: price and road, which share a stem with «Дору» (Douro)
    | {"дорого", "дорога", "дороги", "дорогу", "дорогой", "дорогим"}
    # spoken «только» («тока не сладкое», «ток красное»), which shares a stem with «Токай»
    | {"тока", "ток"}
)


# Words that rule out what follows them.
NEGATIONS = frozenset({"не", "ни", "без", "кроме", "not", "no", "without", "except", "nor"})
# Words that may stand between a negation and the negated word: "не очень сладкое",
# "не из Франции", "not too sweet", "not from France".
NEGATION_FILLERS = frozenset(
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
