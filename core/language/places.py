"""Countries and wine regions as people name them, mapped to the catalog's Russian names."""

from __future__ import annotations

from core.language.folding import phrase_table
from core.language.lemmas import with_forms

_COUNTRY_GROUPS: dict[str, list[str]] = {
    "Франция": ["франция", "французское", "france", "french"],
    "Италия": ["италия", "итальянское", "italy", "italian", "italia"],
    "Испания": ["испания", "испанское", "spain", "spanish", "espana"],
    "Германия": ["германия", "немецкое", "germany", "german", "deutschland"],
    "Португалия": ["португалия", "португальское", "portugal", "portuguese"],
    "Австрия": ["австрия", "австрийское", "austria", "austrian"],
    "Грузия": ["грузия", "грузинское", "georgia", "georgian"],
    "США": [
        "сша",
        "америка",
        "американское",
        "usa",
        "us",
        "united states",
        "american",
    ],
    "Чили": ["чили", "чилийское", "chile", "chilean"],
    "Аргентина": [
        "аргентина",
        "аргентинское",
        "argentina",
        "argentinian",
        "argentine",
        "argentinean",
    ],
    "ЮАР": [
        "юар",
        "южная африка",
        "южноафриканское",
        "south africa",
        "south african",
        "rsa",
    ],
    "Австралия": ["австралия", "австралийское", "australia", "australian"],
    "Новая Зеландия": [
        "новая зеландия",
        "новозеландское",
        "new zealand",
        "nz",
    ],
    "Россия": [
        "россия",
        "рф",
        "российское",
        "отечественное",
        "русское",  # but not «русский»/«русском»: see NOT_A_COUNTRY
        "russia",
        "russian",
    ],
    "Венгрия": ["венгрия", "венгерское", "hungary", "hungarian"],
    "Греция": ["греция", "греческое", "greece", "greek"],
    # Countries the demo catalog has none of: a request for one is relaxed with a word, and a
    # model that says a wine comes from one is caught (claims.py).
    "Молдова": ["молдова", "молдавия", "молдавское", "moldova", "moldovan"],
    "Армения": ["армения", "армянское", "armenia", "armenian"],
    "Азербайджан": ["азербайджан", "азербайджанское", "azerbaijan"],
    "Абхазия": ["абхазия", "абхазское", "abkhazia"],
    "Уругвай": ["уругвай", "уругвайское", "uruguay", "uruguayan"],
    "Бразилия": ["бразилия", "бразильское", "brazil", "brazilian"],
    "Мексика": ["мексика", "мексиканское", "mexico", "mexican"],
    "Канада": ["канада", "канадское", "canada", "canadian"],
    "Ливан": ["ливан", "ливанское", "lebanon", "lebanese"],
    "Израиль": ["израиль", "израильское", "israel", "israeli"],
    "Турция": ["турция", "турецкое", "turkey", "turkish"],
    "Кипр": ["кипр", "кипрское", "cyprus", "cypriot"],
    "Словения": ["словения", "словенское", "slovenia", "slovenian"],
    "Хорватия": ["хорватия", "хорватское", "croatia", "croatian"],
    "Сербия": ["сербия", "сербское", "serbia", "serbian"],
    "Болгария": ["болгария", "болгарское", "bulgaria", "bulgarian"],
    "Румыния": ["румыния", "румынское", "romania", "romanian"],
    "Чехия": ["чехия", "чешское", "czechia", "czech"],
    "Швейцария": ["швейцария", "швейцарское", "switzerland", "swiss"],
    "Великобритания": ["великобритания", "англия", "английское", "britain", "england", "english"],
    "Китай": ["китай", "китайское", "china", "chinese"],
    "Япония": ["япония", "японское", "japan", "japanese"],
    "Украина": ["украина", "украинское", "ukraine", "ukrainian"],
    "Марокко": ["марокко", "марокканское", "morocco", "moroccan"],
}

COUNTRY_ALIASES: dict[str, str] = phrase_table(with_forms(_COUNTRY_GROUPS))

# A country's flag («🇫🇷») by the two letters of its code: a claim of the country like its name.
FLAG_COUNTRIES: dict[str, str] = {
    "FR": "Франция",
    "IT": "Италия",
    "ES": "Испания",
    "DE": "Германия",
    "PT": "Португалия",
    "AT": "Австрия",
    "GE": "Грузия",
    "US": "США",
    "CL": "Чили",
    "AR": "Аргентина",
    "ZA": "ЮАР",
    "AU": "Австралия",
    "NZ": "Новая Зеландия",
    "RU": "Россия",
    "HU": "Венгрия",
    "GR": "Греция",
    "MD": "Молдова",
    "AM": "Армения",
    "UY": "Уругвай",
    "BR": "Бразилия",
    "CA": "Канада",
    "LB": "Ливан",
    "IL": "Израиль",
    "SI": "Словения",
    "HR": "Хорватия",
    "BG": "Болгария",
    "RO": "Румыния",
    "CH": "Швейцария",
    "GB": "Великобритания",
}

# Aliases that are ordinary words in lowercase ("give us a wine") and count only as written.
CASE_SENSITIVE_ALIASES: dict[str, frozenset[str]] = {
    "us": frozenset({"US"}),
    "nz": frozenset({"NZ"}),
    "rsa": frozenset({"RSA"}),
}

_REGION_GROUPS: dict[str, list[str]] = {
    "Бордо": ["бордо", "bordeaux"],
    "Бургундия": ["бургундия", "бургундское", "burgundy", "bourgogne"],
    "Шампань": ["шампань"],  # English "champagne" only after from/in/of, see below
    "Тоскана": ["тоскана", "тосканы", "тосканское", "tuscany", "toscana", "tuscan"],
    "Пьемонт": ["пьемонт", "пьемонтское", "piedmont", "piemonte"],
    "Риоха": ["риоха", "rioja"],
    "Мозель": ["мозель", "mosel", "moselle"],
    "Напа": ["напа", "napa", "napa valley"],
    "Калифорния": ["калифорния", "калифорнийское", "california", "californian"],
    "Мендоса": ["мендоса", "mendoza"],
    "Кубань": ["кубань", "кубанское"],
    "Крым": ["крым", "крымское", "crimea", "crimean"],
    "Мальборо": ["мальборо", "marlborough"],
    "Кахетия": ["кахетия", "кахетинское", "kakheti", "kakhetian"],
    "Долина Луары": ["луара", "loire"],
    "Долина Роны": ["рона", "rhone"],
    "Эльзас": ["эльзас", "эльзасское", "alsace"],
    "Прованс": ["прованс", "provence"],
    "Венето": ["венето", "veneto"],
    "Токай": ["токай", "токая", "токайское", "tokaj", "tokaji"],
    "Дору": ["дору", "douro"],
    "Баросса": ["баросса", "barossa", "barossa valley"],
    "Сонома": ["сонома", "sonoma"],
    "Орегон": ["орегон", "oregon"],
    "Дон": ["дон", "донское", "don valley"],
}

REGION_ALIASES: dict[str, str] = phrase_table(with_forms(_REGION_GROUPS))

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
    "Сонома": "США",
    "Орегон": "США",
    "Дон": "Россия",
}

CHAMPAGNE_REGION_PREPOSITIONS = frozenset({"from", "in", "of"})

# Canonical names follow the catalog ("шираз", "москато", "пино гри" finds "пино гриджо").
