"""Amounts of money as people and models write them: the one place they are read.

«2 000 ₽», «2000р.», «2k», «1,5 тыс», «две тысячи». A bare number below 100 is a count, not
rubles. Used by the price reader (`core.language.prices`, budget bounds), the tool-argument
normalizer (`amount_in`) and answer safety (`money_mentions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from core.language.folding import fold
from core.language.required_words import finditer_gated

_CURRENCY = r"(?:₽|руб(?:л[а-я]*)?\.?|р\.?|rub(?:les?)?\.?|roubles?|rur)"
_MULTIPLIER_WORD = r"(?:тыс(?:яч[а-я]*)?\.?|тыщ[а-я]*|косар[а-я]*|thousands?)"
_DIGIT_AMOUNT_RE = re.compile(
    r"(?<!\d)(?<!\d[.,])"
    r"(?P<int>\d{1,3}(?:[ .,]\d{3})+(?!\d)|\d+)"
    r"(?:[.,](?P<frac>\d{1,2})(?!\d))?"
    r"(?:(?P<k>[kк])(?![a-zа-я])|\s?(?P<mult>" + _MULTIPLIER_WORD + r")(?![a-zа-я]))?"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)

_DIGIT = re.compile(r"\d")  # what every digit amount holds: most sentences have none

_NUMBER_WORDS: dict[str, Decimal] = {
    "одна": Decimal(1),
    "одну": Decimal(1),
    "один": Decimal(1),
    "две": Decimal(2),
    "двух": Decimal(2),
    "трех": Decimal(3),
    "четырех": Decimal(4),
    "пяти": Decimal(5),
    "шести": Decimal(6),
    "семи": Decimal(7),
    "восьми": Decimal(8),
    "девяти": Decimal(9),
    "десяти": Decimal(10),
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
    "полутора": Decimal("1.5"),
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
_BARE_THOUSAND = frozenset(
    {"тысяча", "тысячу", "тысячи", "тыща", "тыщу", "тыщи", "тыщщи", "thousand"}
    | {"косарь", "косаря", "косарю", "косарем"}
)
# Hundreds and tens in every case a price takes: «до семисот», «тысяча двести», «за пятьсот».
_HUNDRED_WORDS: dict[str, int] = {
    **dict.fromkeys(("сто", "ста"), 100),
    **dict.fromkeys(("двести", "двухсот", "двумстам"), 200),
    **dict.fromkeys(("триста", "трехсот", "тремстам"), 300),
    **dict.fromkeys(("четыреста", "четырехсот", "четыремстам"), 400),
    **dict.fromkeys(("пятьсот", "пятисот", "пятистам"), 500),
    **dict.fromkeys(("шестьсот", "шестисот", "шестистам"), 600),
    **dict.fromkeys(("семьсот", "семисот", "семистам"), 700),
    **dict.fromkeys(("восемьсот", "восьмисот", "восемисот", "восьмистам"), 800),
    **dict.fromkeys(("девятьсот", "девятисот", "девятистам"), 900),
}
_TEN_WORDS: dict[str, int] = {
    **dict.fromkeys(("двадцать", "двадцати"), 20),
    **dict.fromkeys(("тридцать", "тридцати"), 30),
    **dict.fromkeys(("сорок", "сорока"), 40),
    **dict.fromkeys(("пятьдесят", "пятидесяти"), 50),
    **dict.fromkeys(("шестьдесят", "шестидесяти"), 60),
    **dict.fromkeys(("семьдесят", "семидесяти"), 70),
    **dict.fromkeys(("восемьдесят", "восьмидесяти"), 80),
    **dict.fromkeys(("девяносто", "девяноста"), 90),
}
_HUNDREDS = (
    r"(?P<hund>" + "|".join(_HUNDRED_WORDS) + r")(?:\s+(?P<tens>" + "|".join(_TEN_WORDS) + r"))?"
)
# Slang sums: «за полторашку» is 1500, «пятихатка» 500.
_SLANG_SUMS: dict[str, Decimal] = {
    "полторашк": Decimal(1500),
    "пятихат": Decimal(500),
    "двушк": Decimal(2000),
    "трешк": Decimal(3000),
}
_SLANG_RE = re.compile(r"(?<![a-zа-я])(?P<stem>" + "|".join(_SLANG_SUMS) + r")[а-я]*")
_WORD_AMOUNT_RE = re.compile(
    r"(?<![a-zа-я])(?:(?P<num>" + "|".join(_NUMBER_WORDS) + r")(?P<half>\s+с половиной)?\s+)?"
    r"(?:a\s+)?(?P<mult>" + _MULTIPLIER_WORD + r")(?![a-zа-я])"
    r"(?:\s+" + _HUNDREDS + r"(?![a-zа-я]))?"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)
# «семьсот рублей», «до пятисот»: hundreds alone, rubles by their size.
_HUNDREDS_RE = re.compile(
    r"(?<![a-zа-я])" + _HUNDREDS + r"(?![a-zа-я])"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)

# «до двух», «за полторы», «в пределах трёх»: in a wine shop a bare number word after a
# price bound counts thousands (not «до двух человек», «до трёх часов»).
_BARE_AFTER_BOUND_RE = re.compile(
    r"(?<![a-zа-я])(?:до|за|дороже|больше|пределах|рамках|максимум)\s+"
    r"(?P<num>полутора|полторы|двух|трех|четырех|пяти|две|три|пять)(?![a-zа-я])"
    r"(?P<half>\s+с\s+половиной)?+"
    r"(?!\s+(?:бутыл|челов|гост|лет|год|штук|персон|бокал|час|дн|недел|месяц|раз"
    r"|градус|минут|тысяч|тыщ))"
)
# «бюджет тысяч десять»: the multiplier first, in speech; with «за» («тыщи за четыре») the
# inversion says «about».
_MULTIPLIER_FIRST_RE = re.compile(
    r"(?<![a-zа-я])(?:тысяч|тыщ)[а-я]*\s+(?P<about>за\s+)?(?P<num>"
    + "|".join(_NUMBER_WORDS)
    + r")(?P<half>\s+с\s+половиной)?(?![a-zа-я])"
)
# «тысячи за 2-3», «тыщи за 4»: the same inversion with digits
_MULTIPLIER_FIRST_DIGITS_RE = re.compile(
    r"(?<![a-zа-я])(?:тысяч|тыщ)[а-я]*\s+за\s+(?P<low>\d+(?:[.,]\d+)?)"
    r"(?:\s*-\s*(?P<high>\d+(?:[.,]\d+)?))?(?![\d.,]*\d)"
)
_NUMBER_WORD = r"(?P<num>" + "|".join(_NUMBER_WORDS) + r")(?P<half>\s+с\s+половиной)?"
# The bare end of a range of thousands: «полторы-две тысячи», «от двух до трёх тысяч»,
# «тыща-полторы».
_RANGE_BEFORE_RE = re.compile(r"(?<![a-zа-я])" + _NUMBER_WORD + r"\s*(?:-|до)\s*$")
_RANGE_AFTER_RE = re.compile(r"\s*-\s*" + _NUMBER_WORD + r"(?![a-zа-я])")

_THOUSAND = Decimal(1000)
MIN_PLAIN_PRICE = Decimal(100)  # a bare number below this is a count, not rubles
_VINTAGE_RANGE = (1900, 2030)


@dataclass(frozen=True)
class Amount:
    start: int
    end: int
    raw: Decimal  # the number as written, before a multiplier
    multiplier: Decimal | None
    currency: bool
    fraction: bool
    approximate: bool = False  # «тыщи за четыре»: about that much

    @property
    def value(self) -> Decimal:
        return self.raw * self.multiplier if self.multiplier is not None else self.raw

    @property
    def marked(self) -> bool:
        """Written unmistakably as money: with a currency or a "k"/"тысяч" multiplier."""
        return self.currency or self.multiplier is not None

    def plausible(self) -> bool:
        return self.value > 0 and (self.marked or self.value >= MIN_PLAIN_PRICE)

    def looks_like_year(self) -> bool:
        low, high = _VINTAGE_RANGE
        return (
            not self.marked and not self.fraction and low <= self.value <= high
        ) and self.value == self.value.to_integral_value()


def _digit_amounts(folded: str) -> list[Amount]:
    amounts: list[Amount] = []
    for match in _DIGIT_AMOUNT_RE.finditer(folded) if _DIGIT.search(folded) else ():
        integer = re.sub(r"\D", "", match.group("int"))
        raw = Decimal(integer)
        if match.group("frac"):
            raw += Decimal(f"0.{match.group('frac')}")
        multiplier = _THOUSAND if match.group("k") or match.group("mult") else None
        amounts.append(
            Amount(
                match.start(),
                match.end(),
                raw,
                multiplier,
                bool(match.group("cur")),
                bool(match.group("frac")),
            )
        )
    return amounts


def _number(match: re.Match[str]) -> Decimal:
    """A number word's value, with its «с половиной»."""
    raw = _NUMBER_WORDS[match.group("num")]
    return raw + Decimal("0.5") if match.group("half") else raw


def _hundreds(match: re.Match[str]) -> int:
    if match.group("hund") is None:
        return 0
    return _HUNDRED_WORDS[match.group("hund")] + _TEN_WORDS.get(match.group("tens") or "", 0)


def _word_amounts(folded: str) -> list[Amount]:
    """Amounts in words: «две с половиной тысячи», «тысяча двести», «тыщи за четыре»,
    «до двух», «семьсот рублей», «за полторашку»."""
    found: list[Amount] = []

    def add(amount: Amount) -> None:
        if not any(a.start < amount.end and amount.start < a.end for a in found):
            found.append(amount)

    for match in _MULTIPLIER_FIRST_RE.finditer(folded):
        about = match.group("about") is not None
        add(Amount(match.start(), match.end(), _number(match), _THOUSAND, False, False, about))
    for match in finditer_gated(_WORD_AMOUNT_RE, folded):
        if match.group("num") is None and match.group("mult") not in _BARE_THOUSAND:
            continue  # "несколько тысяч" is no amount
        raw = _number(match) if match.group("num") else Decimal(1)
        raw += Decimal(_hundreds(match)) / _THOUSAND
        add(Amount(match.start(), match.end(), raw, _THOUSAND, bool(match.group("cur")), False))
    for match in finditer_gated(_BARE_AFTER_BOUND_RE, folded):
        add(Amount(match.start("num"), match.end(), _number(match), _THOUSAND, False, False))
    for match in finditer_gated(_SLANG_RE, folded):
        value = _SLANG_SUMS[match.group("stem")]
        add(Amount(match.start(), match.end(), value / _THOUSAND, _THOUSAND, False, False))
    for match in finditer_gated(_HUNDREDS_RE, folded):
        value = _hundreds(match)
        if value > 100:  # «на все сто» is no price
            add(
                Amount(
                    match.start(),
                    match.end(),
                    Decimal(value),
                    None,
                    bool(match.group("cur")),
                    False,
                )
            )
    for amount in [a for a in found if a.multiplier is not None]:
        # the bare other end of a range of thousands
        if (before := _RANGE_BEFORE_RE.search(folded, 0, amount.start)) is not None:
            end = before.end("half") if before.group("half") else before.end("num")
            add(Amount(before.start("num"), end, _number(before), _THOUSAND, False, False))
        if (after := _RANGE_AFTER_RE.match(folded, amount.end)) is not None:
            add(Amount(after.start("num"), after.end(), _number(after), _THOUSAND, False, False))
    return found


def _inverted_digit_amounts(folded: str) -> list[Amount]:
    """«тысячи за 2-3» is 2 000–3 000; «тыщи за 4» about 4 000."""
    found: list[Amount] = []
    for match in _MULTIPLIER_FIRST_DIGITS_RE.finditer(folded):
        low = Decimal(match.group("low").replace(",", "."))
        if match.group("high") is None:
            found.append(Amount(match.start(), match.end(), low, _THOUSAND, False, False, True))
            continue
        high = Decimal(match.group("high").replace(",", "."))
        found.append(Amount(match.start(), match.end("low"), low, _THOUSAND, False, False))
        found.append(Amount(match.start("high"), match.end(), high, _THOUSAND, False, False))
    return found


def find_amounts(folded: str) -> list[Amount]:
    inverted = _inverted_digit_amounts(folded)
    amounts = [
        a
        for a in _digit_amounts(folded)
        if not any(i.start < a.end and a.start < i.end for i in inverted)
    ] + inverted
    for amount in _word_amounts(folded):
        if not any(a.start < amount.end and amount.start < a.end for a in amounts):
            amounts.append(amount)  # "2 тысячи": already read as digits with a multiplier
    return sorted(amounts, key=lambda a: a.start)


def amount_in(text: str) -> Decimal | None:
    """The first amount written in `text` («2 000 ₽», «2k», «1,5 тыс»), or None."""
    amounts = find_amounts(fold(text))
    return amounts[0].value if amounts else None


@dataclass(frozen=True)
class MoneyMention:
    start: int
    end: int
    value: Decimal


def money_mentions(text: str) -> list[MoneyMention]:
    """Sums of money in `text` written with a currency («1 990 ₽», «5 тыс. руб.»)."""
    return [MoneyMention(a.start, a.end, a.value) for a in find_amounts(fold(text)) if a.currency]
