"""How the eval's fake model reads one message: a small vocabulary of its own, no product code.

A model that reads Russian (and some English) wine requests knows colours, sweetness, dishes,
countries, grapes, regions, famous names and budgets, and notices what a short follow-up
changes («а белое?», «подешевле», «только не шардоне»). `read` turns one message into that
reading; `fake_model` applies it to the model's own previous search. Nothing here comes from
the product (core/language, services): this reader is independent on purpose, so the eval
measures the product's handling of a model's tool calls, not its own reader twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# (pattern, value): the first pattern found in the text wins; several may be found for lists.
Vocabulary = tuple[tuple[str, str], ...]

# Food phrases with a colour word in them are read before colours, and taken out of the text.
FOODS: Vocabulary = (
    (r"бел(?:ая|ой|ую) рыб|white fish", "рыба"),
    (r"красн(?:ая|ой|ую) рыб|лосос|сёмг|семг|salmon", "лосось"),
    (r"бел(?:ое|ым) мяс|птиц|куриц|курин|индейк|chicken|poultry", "курица"),
    (r"стейк|рибай|steak", "стейк"),
    (r"баранин|ягн[её]н|lamb", "баранина"),
    (r"шашлык", "шашлык"),
    (r"барбекю|bbq|barbecue|гриль|грил[ея]", "барбекю"),
    (r"бургер|burger", "бургеры"),
    (r"свинин|pork", "свинина"),
    (r"утк[аиуеой]\b|утят|duck", "утка"),
    (r"дич[ьи]|оленин|кабан|venison", "дичь"),
    (r"пицц|pizza", "пицца"),
    (r"паст[аеуы]\b|пастой|спагетти|лазань|pasta|spaghetti", "паста"),
    (r"ризотто|risotto", "ризотто"),
    (r"паэль", "паэлья"),
    (r"устриц|oyster", "устрицы"),
    (r"суши|ролл|sushi", "суши"),
    (r"морепродукт|креветк|миди[ия]|кальмар|seafood|shrimp", "морепродукты"),
    (r"рыб|fish", "рыба"),
    (r"голуб(?:ой|ым|ые|ыми|ых) сыр|дорблю|рокфор|горгонзол|blue cheese", "голубые сыры"),
    (r"сыр|cheese", "сыр"),
    (r"шоколад(?!н)|chocolate", "шоколад"),
    (r"десерт(?!н)|торт|пирожн|dessert(?! wine)", "десерты"),
    (r"фрукт(?:ы|ам|ами|ов)\b|fruit\b", "фрукты"),
    (r"салат|salad", "салаты"),
    (r"азиат|тайск|китайск|вок\b|asian|thai", "азиатская кухня"),
    (r"остр(?:ое|ой|ая|ые|ых|ым|ыми)\b|spicy", "острые блюда"),
    (r"гриб|mushroom", "грибы"),
    (r"хачапури", "хачапури"),
    (r"хинкали", "хинкали"),
    (r"тапас|хамон", "тапас"),
    (r"фуа-?гра|foie gras", "фуа-гра"),
    (r"закуск|canap", "закуски"),
    (r"мяс|meat", "мясо"),
)
TYPES: Vocabulary = (
    (r"игрист|шипуч|пузыр|брют|шампанск|sparkling|bubbl|champagne", "sparkling"),
    (r"розов|розе\b|ros[eé]\b", "rose"),
    (r"десертн|dessert wine", "dessert"),
    (r"крепл[её]н|портвейн|херес|мадер|fortified|\bport\b|sherry|madeira", "fortified"),
    (r"красн|\bred\b", "red"),
    (r"бел(?:ое|ый|ая|ого|ом|ому|ую|ые|ых|ым|ыми)\b|\bwhite\b", "white"),
)
SWEETNESS: Vocabulary = (
    (r"полусух|semi-?dry|off-?dry|medium dry", "semi_dry"),
    (r"полуслад|semi-?sweet|medium sweet", "semi_sweet"),
    (r"\bсух(?:ое|ой|ая|ого|ому|ую|ие|их|им)\b|\bdry\b|брют|brut", "dry"),
    (r"\bсладк(?:ое|ий|ая|ого|ому|ую|ие|их|им)\b|\bsweet\b", "sweet"),
)
COUNTRIES: Vocabulary = (
    (r"франц|france|french", "Франция"),
    (r"итал|italy|italian", "Италия"),
    (r"испан|spain|spanish", "Испания"),
    (r"португал|portug", "Португалия"),
    (r"герман|немецк|germany|german", "Германия"),
    (r"австрал|australia", "Австралия"),
    (r"австри|austria", "Австрия"),
    (r"грузи|georgia", "Грузия"),
    (r"росси|русск|отечествен|russia", "Россия"),
    (r"чили\b|чилийск|chile", "Чили"),
    (r"аргентин|argentin", "Аргентина"),
    (r"\bсша\b|америк|\busa\b|america|californ|калифорн", "США"),
    (r"нов(?:ая|ой|ую|ом) зеланд|новозеланд|new zealand", "Новая Зеландия"),
    (r"\bюар\b|южноафрик|южн(?:ая|ой|ую) африк|south africa", "ЮАР"),
    (r"греци|греческ|greece|greek", "Греция"),
    (r"венгр|венгерск|hungar", "Венгрия"),
)
NEW_WORLD = ("США", "Чили", "Аргентина", "Австралия", "Новая Зеландия", "ЮАР")
OLD_WORLD = (
    "Франция",
    "Италия",
    "Испания",
    "Португалия",
    "Германия",
    "Австрия",
    "Греция",
    "Венгрия",
    "Грузия",
)
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"нов(?:ый|ого|ом|ому) свет|new world", NEW_WORLD),
    (r"стар(?:ый|ого|ом|ому) свет|old world", OLD_WORLD),
)
GRAPES: Vocabulary = (
    (r"каберне фран|cabernet franc", "каберне фран"),
    (r"каберне|cabernet", "каберне совиньон"),
    (r"совиньон|sauvignon", "совиньон блан"),
    (r"шардон|chardonnay", "шардоне"),
    (r"вельшрислинг", "вельшрислинг"),
    (r"рислинг|riesling", "рислинг"),
    (r"мерло|merlot", "мерло"),
    (r"пино нуар|pinot noir", "пино нуар"),
    (r"пино гр|pinot gri", "пино гриджо"),
    (r"пти сира|petite sirah", "пти сира"),
    (r"шираз|сира\b|shiraz|syrah", "шираз"),
    (r"мальбек|malbec", "мальбек"),
    (r"санджовезе|sangiovese", "санджовезе"),
    (r"неббиоло|nebbiolo", "неббиоло"),
    (r"темпранильо|tempranillo", "темпранильо"),
    (r"гренаш|гарнач|grenache|garnacha", "гренаш"),
    (r"зинфандел|примитиво|zinfandel|primitivo", "зинфандель"),
    (r"пинотаж|pinotage", "пинотаж"),
    (r"саперави|saperavi", "саперави"),
    (r"ркацители|rkatsiteli", "ркацители"),
    (r"шенен|chenin", "шенен блан"),
    (r"альбариньо|albari", "альбариньо"),
    (r"москато|мускат|moscato|muscat", "москато"),
    (r"грюнер|gr[uü]ner", "грюнер вельтлинер"),
    (r"карменер|carmen[eè]re", "карменер"),
    (r"мурведр|mourv", "мурведр"),
    (r"кариньян|carignan", "кариньян"),
    (r"гевюрц|gew[uü]rz", "гевюрцтраминер"),
    (r"вионье|viognier", "вионье"),
    (r"семильон|s[eé]millon", "семильон"),
    (r"фурминт|furmint", "фурминт"),
    (r"ассиртико|assyrtiko", "ассиртико"),
    (r"ксиномавро|xinomavro", "ксиномавро"),
    (r"цвайгельт|zweigelt", "цвайгельт"),
    (r"красностоп", "красностоп"),
    (r"мальвази|malvasia", "мальвазия"),
)
REGIONS: Vocabulary = (
    (r"шампан(?:ь|и)\b|шампанск|champagne", "Шампань"),
    (r"бордо|bordeaux", "Бордо"),
    (r"бургунд|burgund|bourgogne", "Бургундия"),
    (r"риох|rioja", "Риоха"),
    (r"тоскан|tuscan", "Тоскана"),
    (r"пьемонт|piedmont|piemonte", "Пьемонт"),
    (r"прованс|provence", "Прованс"),
    (r"токай|tokaj", "Токай"),
    (r"мозел|mosel", "Мозель"),
    (r"кахети|kakheti", "Кахетия"),
    (r"крым", "Крым"),
    (r"кубан", "Кубань"),
    (r"дору\b|douro", "Дору"),
    (r"мендос|mendoza", "Мендоса"),
    (r"мальборо|marlborough", "Мальборо"),
    (r"рон[аы]\b|rh[oô]ne", "Долина Роны"),
    (r"луар|loire", "Долина Луары"),
    (r"венето|veneto", "Венето"),
    (r"\bнап[аы]\b|\bnapa\b", "Калифорния"),
)
# Wines and styles known by name: the search_wines `name` argument.
NAMES: Vocabulary = (
    (r"кьянти|chianti", "кьянти"),
    (r"амароне|amarone", "амароне"),
    (r"вальполичелл|valpolicella", "вальполичелла"),
    (r"бароло|barolo", "бароло"),
    (r"барбареско|barbaresco", "барбареско"),
    (r"брунелло|brunello", "брунелло"),
    (r"просекко|prosecco", "просекко"),
    (r"франчакорт|franciacorta", "франчакорта"),
    (r"шабли|chablis", "шабли"),
    (r"сотерн|sauternes", "сотерн"),
    (r"божоле|beaujolais", "божоле"),
    (r"креман|cr[eé]mant", "креман"),
    (r"портвейн|\bport\b|porto", "портвейн"),
    (r"херес|sherry|jerez|\bфино\b|\bfino\b", "херес"),
    (r"мадер|madeira", "мадера"),
    (r"ламбруско|lambrusco", "ламбруско"),
    (r"\bасти\b|\basti\b", "асти"),
    (r"\bкав[аыуе]\b|\bcava\b", "кава"),
    (r"винью верде|vinho verde", "винью верде"),
)
# Words of a mood, an occasion or a taste: no structured filter names them.
MOOD = re.compile(
    r"освеж|ягод|фруктов|цветочн|минеральн|пикант|прян|романтич|праздни|свадьб|пикник|"
    r"\bлет(?:о|а|ом|у|ний|нее|нем|няя)\b|\bзим|уютн|вечерин|подар|день рожд|настроени|"
    r"\bнот(?:ы|ами|ой|ками|ках)\b|аромат|\bвкус(?:ом|а|у)?\b|ванил|дубов|цитрус|"
    r"fresh|refresh|fruity|berry|floral|summer|wedding|picnic|party|gift|notes?\b|aroma",
)
CHEAPER = re.compile(
    r"подешевле|дешевле|бюджетнее|дороговато|слишком дорог|cheaper|less expensive|too expensive"
)
DEARER = re.compile(r"подороже|дороже|премиальнее|поприличнее|pricier|more expensive|fancier")
DRIER = re.compile(r"посуше|\bсуше\b|менее сладк|слишком сладк|drier|less sweet|too sweet")
SWEETER = re.compile(r"послаще|\bслаще\b|слишком сух|слишком кисл|sweeter|too dry")
LIGHTER = re.compile(r"полегче|\bлегче\b|слишком тяж|слишком плотн|lighter|too heavy")
FULLER = re.compile(r"покрепче|помощнее|поплотнее|насыщеннее|потяжелее|fuller|bolder")
LIGHT = re.compile(r"\bл[её]гк(?:ое|ий|ая|ого|ую|ие|их|ое)\b|\blight\b")
FULL = re.compile(r"полнотел|насыщенн|мощн(?:ое|ый|ая)|плотн(?:ое|ый|ая)|full-?bodied|\bbold\b")
MORE = re.compile(
    r"\bещ[её]\b|\bдруги|\bдругое\b|вариант|парочк|\bmore\b|\bother\b|\belse\b|\bagain\b"
)
OPENER = re.compile(
    r"^(?:а|и|но|только|тогда|лучше|ну|and|but|what about|how about|anything|something|any)\b"
)
# «только не шардоне», «без России», «кроме Италии», «not from Russia»
EXCLUSION = re.compile(
    r"\b(?:не|без|кроме|исключая|except|without|not|no)\s+(?:из\s+|from\s+)?"
    r"([\w-]+(?:\s+(?:нуар|блан|совиньон|фран|гриджо|зеландии|зеландия|африки|[\w-]+ий))?)"
)
SMALLTALK = re.compile(
    r"^(?:спасибо|благодарю|привет|здравствуй\w*|добрый (?:день|вечер)|пока|thanks?|thank you|"
    r"hi|hello|ок|окей|ok)\b"
)

# Budgets: numbers as people write them, with what says which bound they are.
_NUMBER = r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+(?:[.,]\d+)?)(\s?(?:к|k|тыс\w*|тысяч\w*)\b)?"
_MAX_CUE = (
    r"до|не дороже|не больше|не более|максимум|в пределах|бюджет(?:ом)?(?: до)?|за|дешевле|"
    r"under|up to|below|less than|max(?:imum)?|within|no more than|budget(?: of)?"
)
_MIN_CUE = r"от|дороже|не дешевле|from|over|above|more than|at least"
_WORD_THOUSANDS = (
    (r"полтор(?:ы|а|ух)", 1500),
    (r"(?:одн(?:а|ой|у)|1)", 1000),
    (r"дв(?:е|а|ух)", 2000),
    (r"тр(?:и|[её]х)", 3000),
    (r"четыр(?:е|[её]х)", 4000),
    (r"пят(?:ь|и)", 5000),
    (r"шест(?:ь|и)", 6000),
    (r"десят(?:ь|и)", 10000),
)


@dataclass
class Reading:
    """What one message names (`values`, in the tool's argument names) and what it changes."""

    values: dict[str, object] = field(default_factory=dict)
    exclude_grapes: list[str] = field(default_factory=list)
    exclude_countries: list[str] = field(default_factory=list)
    changes: set[str] = field(default_factory=set)  # cheaper dearer drier sweeter lighter…
    mood: bool = False
    followup: bool = False
    smalltalk: bool = False

    def empty(self) -> bool:
        return not (
            self.values
            or self.exclude_grapes
            or self.exclude_countries
            or self.changes
            or self.mood
        )


def normalize(text: str) -> str:
    text = text.lower().replace("ё", "е").replace("₽", " ₽ ")
    text = re.sub(r"[^\w₽.,\- \u00a0\u202f]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _find(vocabulary: Vocabulary, text: str) -> str | None:
    for pattern, value in vocabulary:
        if re.search(pattern, text):
            return value
    return None


def _cut(vocabulary: Vocabulary, text: str) -> tuple[str | None, str]:
    """The first value found, and the text without the words that named it."""
    for pattern, value in vocabulary:
        found = re.search(r"\b\w*(?:" + pattern + r")\w*", text)
        if found:
            return value, text[: found.start()] + " " + text[found.end() :]
    return None, text


def _amount(number: str, unit: str | None) -> int:
    value = float(re.sub(r"[ \u00a0\u202f]", "", number).replace(",", "."))
    if unit and unit.strip() and value < 100:
        value *= 1000
    return int(value)


def _words_to_digits(text: str) -> str:
    for pattern, value in _WORD_THOUSANDS:
        text = re.sub(rf"\b{pattern}\s+тысяч\w*", str(value), text)
    return re.sub(r"\b(?:до|за|в пределах)\s+тысяч[иуа]?\b", "до 1000", text)


def _prices(text: str) -> tuple[dict[str, object], str]:
    """Budget bounds the message names, and the text without them."""
    values: dict[str, object] = {}
    text = _words_to_digits(text)
    for cue, key in ((_MAX_CUE, "price_max"), (_MIN_CUE, "price_min")):
        while found := re.search(rf"\b(?:{cue})\s+{_NUMBER}", text):
            amount = _amount(found.group(1), found.group(2))
            if amount >= 100:
                values.setdefault(key, amount)
            text = text[: found.start()] + " " + text[found.end() :]
    found = re.search(rf"{_NUMBER}\s*(?:₽|руб\w*|р\b|rub\w*)", text)
    if found and "price_max" not in values:
        values["price_max"] = _amount(found.group(1), found.group(2))
        text = text[: found.start()] + " " + text[found.end() :]
    return values, text


def _exclusions(text: str, reading: Reading) -> str:
    for found in list(EXCLUSION.finditer(text)):
        words = found.group(1)
        grape = _find(GRAPES, words)
        country = _find(COUNTRIES, words)
        if grape:
            reading.exclude_grapes.append(grape)
        elif country:
            reading.exclude_countries.append(country)
        else:
            continue
        text = text.replace(found.group(0), " ")
    return text


def read(message: str) -> Reading:
    """One message as a model would read it."""
    text = normalize(message)
    reading = Reading()
    reading.followup = bool(OPENER.match(text))
    reading.smalltalk = bool(SMALLTALK.match(text))
    prices, text = _prices(text)
    reading.values.update(prices)
    for pattern, change in (
        (CHEAPER, "cheaper"),
        (DEARER, "dearer"),
        (DRIER, "drier"),
        (SWEETER, "sweeter"),
        (LIGHTER, "lighter"),
        (FULLER, "fuller"),
        (MORE, "more"),
    ):
        if pattern.search(text):
            reading.changes.add(change)
            text = pattern.sub(" ", text)
    text = _exclusions(text, reading)
    reading.mood = bool(MOOD.search(text))
    food, text = _cut(FOODS, text)
    for key, vocabulary in (
        ("name", NAMES),
        ("region", REGIONS),
        ("grape_variety", GRAPES),
        ("country", COUNTRIES),
        ("wine_type", TYPES),
    ):
        value = _find(vocabulary, text)
        if value is not None:
            reading.values[key] = value
    if food is not None:
        reading.values["food_pairing"] = food
    for pattern, countries in GROUPS:
        if re.search(pattern, text):
            reading.values["countries"] = list(countries)
            reading.values.pop("country", None)
    if not reading.changes & {"drier", "sweeter"}:
        sweetness = _find(SWEETNESS, text)
        if sweetness is not None:
            reading.values["sweetness"] = sweetness
    if LIGHT.search(text) and not reading.mood:
        reading.values["body_max"] = 2
    if FULL.search(text):
        reading.values["body_min"] = 4
    return reading
