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
    {"тысяча", "тысячу", "тысячи", "тыща", "тыщу", "тыщи", "тыщщи", "косарь", "thousand"}
)
_WORD_AMOUNT_RE = re.compile(
    r"(?<![a-zа-я])(?:(?P<num>" + "|".join(_NUMBER_WORDS) + r")(?P<half>\s+с половиной)?\s+)?"
    r"(?:a\s+)?(?P<mult>" + _MULTIPLIER_WORD + r")(?![a-zа-я])"
    r"(?:\s?(?P<cur>" + _CURRENCY + r")(?![a-zа-я]))?"
)

# «до двух», «не дороже полутора», «в пределах трёх»: in a wine shop a bare number word after a
# price bound counts thousands (not «до двух человек», «до трёх часов»).
_BARE_AFTER_BOUND_RE = re.compile(
    r"(?<![a-zа-я])(?:до|дороже|больше|пределах|рамках|максимум)\s+"
    r"(?P<num>полутора|полторы|двух|трех|четырех|пяти|две|три|пять)(?![a-zа-я])"
    r"(?!\s+(?:с половиной|бутыл|челов|гост|лет|год|штук|персон|бокал|час|дн|недел|месяц|раз"
    r"|градус|минут|тысяч|тыщ))"
)
# «бюджет тысяч десять»: the multiplier first, in speech.
_MULTIPLIER_FIRST_RE = re.compile(
    r"(?<![a-zа-я])(?:тысяч|тыщ)\s+(?P<num>" + "|".join(_NUMBER_WORDS) + r")(?![a-zа-я])"
)

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


def find_amounts(folded: str) -> list[Amount]:
    amounts: list[Amount] = []
    for match in _DIGIT_AMOUNT_RE.finditer(folded):
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
    for match in _WORD_AMOUNT_RE.finditer(folded):
        if any(a.start < match.end() and match.start() < a.end for a in amounts):
            continue  # "2 тысячи": already read as digits with a multiplier
        number = match.group("num")
        if number is None and match.group("mult") not in _BARE_THOUSAND:
            continue  # "несколько тысяч" is no amount
        raw = _NUMBER_WORDS[number] if number else Decimal(1)
        if match.group("half"):  # «две с половиной тысячи»
            raw += Decimal("0.5")
        amounts.append(
            Amount(match.start(), match.end(), raw, _THOUSAND, bool(match.group("cur")), False)
        )
    for pattern in (_BARE_AFTER_BOUND_RE, _MULTIPLIER_FIRST_RE):
        for match in pattern.finditer(folded):
            start, end = match.span("num") if pattern is _BARE_AFTER_BOUND_RE else match.span()
            if any(a.start < end and start < a.end for a in amounts):
                continue
            raw = _NUMBER_WORDS[match.group("num")]
            amounts.append(Amount(start, end, raw, _THOUSAND, False, False))
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
