"""Numbers a sentence gives in words or in the shop's short forms, read as claims:

- a measure or a longer number («двенадцать месяцев», «ста двадцати солдат»);
- a year in full («в тысяча восемьсот восемьдесят третьем году») or short («урожая двадцать
  второго года», «шираз 23-го», «в шестьдесят первом году прошлого века»);
- a decade («с пятидесятых», «в середине восьмидесятых», «с тридцатых годов прошлого века»)
  and a century («с девятнадцатого века», «в прошлом веке»);
- an age or a length said as an adjective («трёхлетняя выдержка», «столетние лозы»);
- a bare sum at the end of a clause, as a shop assistant says a price («тысяча четыреста»).

A short year or a decade names no century: the check (services/agent/_wine_facts.py) takes it
as true when the wine's row or own words give a year it can be.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from core.language.claim import Claim
from core.language.folding import fold
from core.language.lemmas import words_of
from core.language.names import ROMAN_CENTURY
from core.language.required_words import finditer_gated
from core.language.worded_numbers import worded_numbers

YEARS = (1900, 2030)
HISTORY_YEAR = re.compile(r"основа|\bс\s*$|since\s*$|founded|в\s*$|век")
_CURRENCIES = frozenset({"рубль", "руб", "доллар", "евро", "тысяча", "тыс"})
# «прошлого века», «в позапрошлом веке»: the century a short year or a decade is in.
_PAST_CENTURY = re.compile(r"(поза)?прошл\w*\s+(?:век|столет)\w*")
_YEAR_WORDS = re.compile(r"^\s*(?:год\w*\s+)?")
# Words before a short year that make it a vintage: «урожай двадцать второго».
_HARVEST = re.compile(r"(?:урожа\w*|винтаж\w*|vintage)\s*$")
# What ends a clause after a bare number: «…, тысяча четыреста.»
_CLAUSE_END = re.compile(r"^\s*(?:$|[.,;:!?)—–-])")
# Words that round the amount after them: «около двух тысяч» of 1900 ₽ is a price said.
ROUGHLY = re.compile(
    r"(?<![а-яё])(?:около|примерно|приблизительно|порядка|почти|где-то|в районе|под"
    r"|чуть (?:меньше|больше)|немногим (?:меньше|больше)|about|around|roughly|almost)\s*$"
)
# «трёхлетняя», «столетние», «двухмесячная»: a length said as an adjective.
_LENGTH_ADJECTIVE = re.compile(
    r"(?<![а-яё])(одно|полу|двух|дву|трех|четырех|пяти|шести|семи|восьми|девяти|десяти"
    r"|двенадцати|пятнадцати|двадцати|тридцати|сорока|пятидесяти|ста|сто)(летн|месячн)\w*"
)
_LENGTH_PREFIXES = {
    "одно": 1,
    "полу": 0.5,
    "двух": 2,
    "дву": 2,
    "трех": 3,
    "четырех": 4,
    "пяти": 5,
    "шести": 6,
    "семи": 7,
    "восьми": 8,
    "девяти": 9,
    "десяти": 10,
    "двенадцати": 12,
    "пятнадцати": 15,
    "двадцати": 20,
    "тридцати": 30,
    "сорока": 40,
    "пятидесяти": 50,
    "ста": 100,
    "сто": 100,
}
# A number in digits with an ordinal ending: «23-го», «21-й» — a short year; so are «'21» and
# «21 года».
SHORT_YEAR_DIGITS = re.compile(r"(?<![\d.,])(\d{2})-(?:го|й|м|ом|ого|ый|ий)(?![а-яё])")
# «с 1870-х», «в 90-е», «since the 1980s», «the '90s»
_DECADE_DIGITS = re.compile(
    r"(?<![\d.,])['’]?(1[5-9]\d0|20[0-2]0|[1-9]0)(?:-?(?:х|е|ых|ые|ми)(?![а-яё])|['’]?s(?![a-z]))"
)
_SHORT_YEAR_APOSTROPHE = re.compile(r"(?<![\w'’])['’](\d{2})(?![\d'’]|s(?![a-z]))")
# «in the nineties»: a decade in English words
_ENGLISH_DECADE = re.compile(
    r"(?<![a-z])(twent|thirt|fort|fift|sixt|sevent|eight|ninet)ies(?![a-z])"
)
_ENGLISH_TENS = {"twent": 20, "thirt": 30, "fort": 40, "fift": 50, "sixt": 60}
_ENGLISH_TENS |= {"sevent": 70, "eight": 80, "ninet": 90}
_SHORT_YEAR_BEFORE_NOUN = re.compile(r"(?<![\d.,])((?!1[1-4])\d{2})\s+год(а|у)(?![а-яё])")


def worded_number_claims(text: str, number_kind: str, taken: list[tuple[int, int]]) -> list[Claim]:
    """Claims of numbers written in words (see the module's docstring)."""
    found: list[Claim] = []
    folded = fold(text)
    dated_centuries: list[int] = []  # where «прошлого века» qualifies a year or decade
    for number in worded_numbers(text):
        if _overlaps((number.start, number.end), taken) or number.next_lemma in _CURRENCIES:
            continue  # a price, which the price check reads («девятьсот пятьдесят рублей»)
        value = number.value.normalize()
        after = folded[number.end : number.end + 40]
        before = folded[max(0, number.start - 12) : number.start]
        past = _PAST_CENTURY.match(after[_YEAR_WORDS.match(after).end() :])  # type: ignore[union-attr]
        century_base = (1800 if past.group(1) else 1900) if past else None
        if past:
            dated_centuries.append(number.end + _YEAR_WORDS.match(after).end())  # type: ignore[union-attr]
        if number.next_lemma == "сорт":  # «из одного сорта», «купаж трёх сортов»
            found.append(Claim("grape_count", int(value)))
        elif number.next_lemma in ("процент", "градус", "percent"):
            found.append(Claim("alcohol", number.value))
        elif number.noun:  # «полвека», «треть купажа»
            found.append(Claim(number_kind, value))
        elif number.decade:
            year = int(value) + (century_base or 0)
            found.append(Claim("decade", year))
        elif number.ordinal and number.next_lemma in ("век", "столетие"):
            found.append(Claim("century", int(value)))
        elif number.ordinal and value < 100 and _dates(number.next_lemma, after, before):
            if century_base is None:
                found.append(Claim("short_year", int(value)))
            else:
                found.append(Claim(_year_kind(before), century_base + int(value)))
        elif number.measured or number.compound:
            # a year in words ends in an ordinal («две тысячи пятнадцатого»); «две тысячи» is
            # a sum or a count
            year = YEARS[0] <= value <= YEARS[1] and value == value.to_integral_value()
            if year and (number.ordinal or number.next_lemma == "год"):
                found.append(Claim(_year_kind(before), int(value)))
            elif value >= 100 and not number.ordinal and _CLAUSE_END.match(after):
                # «…, тысяча четыреста.»: a price said; «около двух тысяч.» one rounded
                found.append(Claim("rough_sum" if ROUGHLY.search(before) else "sum", value))
            else:
                found.append(Claim(number_kind, value))
        elif value >= 10 and not number.ordinal:
            found.append(Claim("sum" if _CLAUSE_END.match(after) else number_kind, value))
        elif number.next_lemma and not _known(number.next_lemma):
            found.append(Claim("number", number.value))
    for match in finditer_gated(_PAST_CENTURY, folded):
        if not any(abs(match.start() - end) <= 2 for end in dated_centuries):
            found.append(Claim("century", 19 if match.group(1) else 20))
    for match in finditer_gated(ROMAN_CENTURY, text):
        if not text[max(0, match.start() - 1) : match.start()].isalnum():
            found.append(Claim("century", _roman(match.group(1))))
    for match in finditer_gated(_LENGTH_ADJECTIVE, folded):
        if not _overlaps(match.span(), taken):
            found.append(Claim(number_kind, Decimal(str(_LENGTH_PREFIXES[match.group(1)]))))
    return found


def short_year_claims(folded: str) -> list[tuple[tuple[int, int], Claim]]:
    """«шираз 23-го»: short years written in digits, with their spans; «прошлогоднего
    урожая»: a vintage told from this year."""
    found = [] if not _DIGIT.search(folded) else _short_years_in_digits(folded)
    if "ies" in folded:
        found += [
            (match.span(), Claim("decade", _ENGLISH_TENS[match.group(1)]))
            for match in _ENGLISH_DECADE.finditer(folded)
        ]
    for match in finditer_gated(_RELATIVE_VINTAGE, folded):
        said = match.group()
        back = 2 if "позапрошл" in said else 1 if "прошл" in said else 0
        found.append((match.span(), Claim("vintage", date.today().year - back)))
    return found


def _short_years_in_digits(folded: str) -> list[tuple[tuple[int, int], Claim]]:
    found = [
        (match.span(), Claim("short_year", int(match.group(1))))
        for pattern in (SHORT_YEAR_DIGITS, _SHORT_YEAR_APOSTROPHE)
        for match in pattern.finditer(folded)
    ]
    for match in _DECADE_DIGITS.finditer(folded):  # «с 1870-х», «в 90-е»
        found.append((match.span(), Claim("decade", int(match.group(1)))))
    for match in _SHORT_YEAR_BEFORE_NOUN.finditer(folded):
        number = match.group(1)
        # «22 года» may be a count of years; «урожай 22 года», «21 года», «в 22 году» a date
        harvest = _HARVEST.search(folded, max(0, match.start() - 20), match.start())
        if match.group(2) == "у" or number[-1] not in "234" or harvest:
            found.append((match.span(), Claim("short_year", int(number))))
    return found


_DIGIT = re.compile(r"\d")
# «прошлогоднего урожая», «винтаж позапрошлого года», «урожай этого года» (not «этого
# урожая»: this wine's own)
_RELATIVE_VINTAGE = re.compile(
    r"(?<![а-я])(?:(?:позапрошл\w*|прошл\w*|нынешн\w*|текущ\w*)(?:\s+год\w*)?|этого\s+год\w*)"
    r"\s+(?:урожа\w*|винтаж\w*|сбор\w*)"
    r"|(?<![а-я])(?:урожа\w*|винтаж\w*)\s+(?:позапрошл\w*|прошл\w*|этого|нынешн\w*|текущ\w*)"
    r"\s+год\w*"
)


_ROMAN_DIGITS = {"I": 1, "V": 5, "X": 10, "L": 50}


def _roman(numeral: str) -> int:
    values = [_ROMAN_DIGITS[c] for c in numeral]
    return sum(-v if v < after else v for v, after in zip(values, [*values[1:], 0], strict=True))


def _dates(next_lemma: str, after: str, before: str) -> bool:
    """Is an ordinal under 100 a year: «двадцать второго года», «урожай двадцать второго»,
    «саперави двадцать второго.»?"""
    return next_lemma == "год" or bool(_HARVEST.search(before) or _CLAUSE_END.match(after))


def _year_kind(before: str) -> str:
    return "history" if HISTORY_YEAR.search(before) else "vintage"


def _known(lemma: str) -> bool:
    return all(word.known for word in words_of(lemma))


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)
