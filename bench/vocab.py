"""Real wine vocabularies for the synthetic catalog: countries, regions, grapes, foods, words.

Values are written the way the catalog stores them (countries and regions capitalised, grapes and
foods lowercase Russian), so the repository's tolerant matching and GIN indexes see what they see
in production.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.domain import Sweetness, WineType


@dataclass(frozen=True)
class Country:
    name: str
    weight: float  # share of the catalog
    price_factor: float  # relative to the catalog median
    regions: tuple[str, ...]
    reds: tuple[str, ...]
    whites: tuple[str, ...]
    houses: tuple[str, ...]  # how producer names start


COUNTRIES: tuple[Country, ...] = (
    Country(
        "Франция",
        0.17,
        1.45,
        ("Бордо", "Бургундия", "Долина Роны", "Долина Луары", "Лангедок", "Прованс", "Эльзас"),
        ("каберне совиньон", "мерло", "пино нуар", "гренаш", "сира", "каберне фран", "мальбек"),
        ("шардоне", "совиньон блан", "шенен блан", "рислинг", "семильон", "вионье"),
        ("Château", "Domaine", "Maison", "Clos"),
    ),
    Country(
        "Италия",
        0.15,
        1.25,
        ("Тоскана", "Пьемонт", "Венето", "Сицилия", "Апулия", "Абруццо"),
        (
            "санджовезе",
            "неббиоло",
            "барбера",
            "корвина",
            "монтепульчано",
            "примитиво",
            "неро д'авола",
        ),
        ("пино гриджо", "верментино", "треббьяно", "гарганега", "фалангина", "глера"),
        ("Tenuta", "Cantina", "Fattoria", "Castello"),
    ),
    Country(
        "Испания",
        0.11,
        0.95,
        ("Риоха", "Рибера-дель-Дуэро", "Приорат", "Каталония", "Галисия", "Ла-Манча"),
        ("темпранильо", "гарнача", "монастрель", "менсия", "грасиано"),
        ("альбариньо", "вердехо", "макабео", "парельяда", "годельо"),
        ("Bodegas", "Viña", "Celler", "Finca"),
    ),
    Country(
        "Россия",
        0.12,
        0.8,
        ("Кубань", "Крым", "Дон", "Ставрополье"),
        ("красностоп", "саперави", "каберне совиньон", "мерло", "пино нуар", "цимлянский черный"),
        ("шардоне", "рислинг", "сибирьковый", "алиготе", "совиньон блан", "кокур"),
        ("Винодельня", "Усадьба", "Поместье", "Шато"),
    ),
    Country(
        "Португалия",
        0.06,
        0.9,
        ("Дору", "Дау", "Алентежу", "Минью", "Мадейра"),
        ("турига насьональ", "турига франка", "тинта рориш", "тинта баррока", "бага"),
        ("алваринью", "лурейру", "аринту", "энкруздо", "вердельо"),
        ("Quinta", "Herdade", "Casa"),
    ),
    Country(
        "Германия",
        0.05,
        1.1,
        ("Мозель", "Рейнгау", "Пфальц", "Рейнгессен"),
        ("шпетбургундер", "дорнфельдер", "лембергер"),
        ("рислинг", "сильванер", "мюллер-тургау", "гевюрцтраминер", "вайсбургундер"),
        ("Weingut", "Schloss", "Kloster"),
    ),
    Country(
        "Чили",
        0.06,
        0.7,
        ("Центральная долина", "Колчагуа", "Майпо", "Касабланка"),
        ("карменер", "каберне совиньон", "мерло", "пино нуар", "сира"),
        ("совиньон блан", "шардоне", "гевюрцтраминер"),
        ("Viña", "Concha", "Casa"),
    ),
    Country(
        "Аргентина",
        0.05,
        0.8,
        ("Мендоса", "Сальта", "Патагония"),
        ("мальбек", "бонарда", "каберне совиньон", "каберне фран"),
        ("торронтес", "шардоне"),
        ("Bodega", "Finca", "Trapiche"),
    ),
    Country(
        "Грузия",
        0.05,
        0.85,
        ("Кахетия", "Рача-Лечхуми", "Имерети"),
        ("саперави", "александроули", "муджуретули", "оджалеши"),
        ("ркацители", "мцване", "киси", "цоликаури"),
        ("Марани", "Шато", "Винный дом"),
    ),
    Country(
        "США",
        0.05,
        1.5,
        ("Калифорния", "Напа Вэлли", "Сонома", "Орегон", "Вашингтон"),
        ("каберне совиньон", "зинфандель", "пино нуар", "мерло", "пти сира"),
        ("шардоне", "совиньон блан", "пино гри"),
        ("Winery", "Estate", "Cellars"),
    ),
    Country(
        "Австралия",
        0.03,
        1.0,
        ("Баросса", "Южная Австралия", "Маргарет-Ривер", "Хантер Вэлли"),
        ("шираз", "каберне совиньон", "гренаш", "пино нуар"),
        ("шардоне", "семильон", "рислинг"),
        ("Estate", "Vineyards", "Wines"),
    ),
    Country(
        "Новая Зеландия",
        0.02,
        1.2,
        ("Мальборо", "Хокс-Бей", "Сентрал-Отаго"),
        ("пино нуар", "мерло", "сира"),
        ("совиньон блан", "шардоне", "пино гри"),
        ("Estate", "Vineyards"),
    ),
    Country(
        "ЮАР",
        0.02,
        0.8,
        ("Западный Кейп", "Стелленбош", "Паарль"),
        ("пинотаж", "шираз", "каберне совиньон"),
        ("шенен блан", "шардоне", "совиньон блан"),
        ("Estate", "Wine Farm"),
    ),
    Country(
        "Австрия",
        0.02,
        1.15,
        ("Нижняя Австрия", "Бургенланд", "Штирия"),
        ("цвайгельт", "блауфранкиш", "санкт-лаурент"),
        ("грюнер вельтлинер", "рислинг", "вельшрислинг"),
        ("Weingut", "Stift"),
    ),
    Country(
        "Греция",
        0.02,
        1.0,
        ("Санторини", "Македония", "Немея", "Самос"),
        ("ксиномавро", "агиоргитико", "мандилария"),
        ("ассиртико", "малагузия", "москато", "роди тис"),
        ("Ktima", "Domaine"),
    ),
    Country(
        "Венгрия",
        0.02,
        0.9,
        ("Токай", "Виллань", "Эгер"),
        ("кекфранкош", "кадарка", "каберне фран"),
        ("фурминт", "харшлевелю", "олазризлинг"),
        ("Pincészet", "Borház"),
    ),
)

TYPE_WEIGHTS: dict[WineType, float] = {
    WineType.red: 0.45,
    WineType.white: 0.30,
    WineType.rose: 0.07,
    WineType.sparkling: 0.11,
    WineType.dessert: 0.04,
    WineType.fortified: 0.03,
}

SWEETNESS_WEIGHTS: dict[WineType, dict[Sweetness, float]] = {
    WineType.red: {Sweetness.dry: 0.85, Sweetness.semi_dry: 0.07, Sweetness.semi_sweet: 0.08},
    WineType.white: {
        Sweetness.dry: 0.75,
        Sweetness.semi_dry: 0.12,
        Sweetness.semi_sweet: 0.10,
        Sweetness.sweet: 0.03,
    },
    WineType.rose: {Sweetness.dry: 0.80, Sweetness.semi_dry: 0.12, Sweetness.semi_sweet: 0.08},
    WineType.sparkling: {
        Sweetness.dry: 0.70,
        Sweetness.semi_dry: 0.10,
        Sweetness.semi_sweet: 0.15,
        Sweetness.sweet: 0.05,
    },
    WineType.dessert: {Sweetness.sweet: 0.90, Sweetness.semi_sweet: 0.10},
    WineType.fortified: {Sweetness.sweet: 0.60, Sweetness.dry: 0.20, Sweetness.semi_dry: 0.20},
}

# Median shelf price per type, ₽ (before the country factor); prices are log-normal around it.
TYPE_MEDIAN_PRICE: dict[WineType, float] = {
    WineType.red: 1500.0,
    WineType.white: 1300.0,
    WineType.rose: 1200.0,
    WineType.sparkling: 1700.0,
    WineType.dessert: 2600.0,
    WineType.fortified: 2300.0,
}

SPARKLING_GRAPES: tuple[str, ...] = ("шардоне", "пино нуар", "пино менье", "глера", "макабео")
DESSERT_GRAPES: tuple[str, ...] = ("москато", "фурминт", "семильон", "рислинг", "гевюрцтраминер")
FORTIFIED_GRAPES: tuple[str, ...] = (
    "турига насьональ",
    "тинта рориш",
    "паломино",
    "педро хименес",
    "серсиаль",
    "вердельо",
)

FOODS: dict[WineType, tuple[str, ...]] = {
    WineType.red: (
        "стейк из говядины",
        "стейк рибай",
        "баранина",
        "шашлык",
        "барбекю",
        "бургеры",
        "дичь",
        "утка",
        "твердые сыры",
        "выдержанные сыры",
        "пицца",
        "паста болоньезе",
        "лазанья",
        "колбаски гриль",
        "грибы",
        "тушеная говядина",
        "хинкали",
        "свинина",
    ),
    WineType.white: (
        "морепродукты",
        "белая рыба",
        "устрицы",
        "суши",
        "курица",
        "салаты",
        "козий сыр",
        "мягкие сыры",
        "азиатская кухня",
        "паста со сливочным соусом",
        "ризотто",
        "лосось",
        "спаржа",
        "мидии",
    ),
    WineType.rose: (
        "салаты",
        "закуски",
        "рыба на гриле",
        "средиземноморская кухня",
        "пицца",
        "тапас",
        "курица",
        "овощи гриль",
    ),
    WineType.sparkling: (
        "закуски",
        "устрицы",
        "икра",
        "морепродукты",
        "суши",
        "фрукты",
        "десерты",
        "мягкие сыры",
    ),
    WineType.dessert: (
        "десерты",
        "фруктовые десерты",
        "голубые сыры",
        "фуа-гра",
        "выпечка",
        "орехи",
        "шоколад",
    ),
    WineType.fortified: (
        "шоколад",
        "голубые сыры",
        "орехи",
        "выдержанные сыры",
        "шоколадные десерты",
        "хамон",
    ),
}

CUVEES: tuple[str, ...] = (
    "Reserva",
    "Classic",
    "Selection",
    "Grand Cru",
    "Premium",
    "Estate",
    "Vieilles Vignes",
    "Single Vineyard",
    "Cuvée Prestige",
    "Terroir",
    "Heritage",
    "Origin",
    "Limited",
    "Family",
    "Black Label",
    "Signature",
)

SURNAMES: tuple[str, ...] = (
    "Martin",
    "Rossi",
    "Garcia",
    "Weber",
    "Silva",
    "Lopez",
    "Bernard",
    "Conti",
    "Moreau",
    "Ferrari",
    "Navarro",
    "Schmidt",
    "Costa",
    "Duval",
    "Ricci",
    "Santos",
    "Petrov",
    "Bauer",
    "Laurent",
    "Marino",
    "Vidal",
    "Fontaine",
    "Greco",
    "Keller",
    "Almeida",
    "Rousseau",
    "Bianchi",
    "Romero",
    "Lefebvre",
    "Esposito",
)

STYLE_WORDS: dict[WineType, tuple[str, ...]] = {
    WineType.red: ("насыщенное", "бархатистое", "сочное", "структурное", "пряное", "элегантное"),
    WineType.white: ("свежее", "минеральное", "цветочное", "округлое", "цитрусовое", "хрустящее"),
    WineType.rose: ("легкое", "освежающее", "ягодное", "деликатное"),
    WineType.sparkling: ("праздничное", "тонкое", "бодрящее", "изысканное"),
    WineType.dessert: ("медовое", "густое", "нектарное", "роскошное"),
    WineType.fortified: ("мощное", "ореховое", "выдержанное", "глубокое"),
}

AROMAS: dict[WineType, tuple[str, ...]] = {
    WineType.red: (
        "черная смородина",
        "вишня",
        "слива",
        "ежевика",
        "табак",
        "ваниль",
        "черный перец",
        "кожа",
        "какао",
        "фиалка",
    ),
    WineType.white: (
        "зеленое яблоко",
        "лимон",
        "грейпфрут",
        "персик",
        "белые цветы",
        "груша",
        "мед",
        "мокрый камень",
        "крыжовник",
    ),
    WineType.rose: ("клубника", "малина", "арбуз", "розовый грейпфрут", "травы Прованса"),
    WineType.sparkling: ("бриошь", "зеленое яблоко", "миндаль", "цитрусы", "белые цветы"),
    WineType.dessert: ("абрикос", "мед", "айва", "изюм", "цукаты", "шафран"),
    WineType.fortified: ("сухофрукты", "грецкий орех", "карамель", "инжир", "кофе", "специи"),
}

OCCASIONS: tuple[str, ...] = (
    "к ужину",
    "на пикник",
    "на праздник",
    "на каждый день",
    "в подарок",
    "к барбекю",
    "на романтический вечер",
    "к морепродуктам",
)
