"""The one price reader: amounts of money as people and models write them.

«2 000 ₽», «2000р.», «2k», «1,5 тыс», «две тысячи», «от 1500 до 3000», «около 2 тысяч». A bare
number below 100 is a count, not rubles; a year-like number next to «год»/«урожая» is a vintage.
Used by the request reader (budget bounds), the tool-argument normalizer (`amount_in`) and answer
safety (`money_mentions`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from core.language.folding import TOKEN_RE, Token, fold


class ReadableText(Protocol):
    original: str
    folded: str
    tokens: list[Token]


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
        return self.value > 0 and (self.marked or self.value >= _MIN_PLAIN_PRICE)

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
        amounts.append(
            Amount(match.start(), match.end(), raw, _THOUSAND, bool(match.group("cur")), False)
        )
    return sorted(amounts, key=lambda a: a.start)


def _round(value: Decimal) -> Decimal:
    return value.quantize(Decimal(1), rounding=ROUND_HALF_UP)


class PriceReader:
    """The price bounds a message states: «до 2000», «от 1500 до 3000», «около 2 тысяч»…"""

    def __init__(self, text: ReadableText) -> None:
        self.text = text
        self.price_min: Decimal | None = None
        self.price_max: Decimal | None = None
        self.min_words: str | None = None
        self.max_words: str | None = None

    # -- context around an amount

    def _words_between(self, start: int, end: int) -> list[Token]:
        gap = self.text.folded[start:end]
        breaks = list(_SENTENCE_BREAK_RE.finditer(gap))
        if breaks:
            start += breaks[-1].end()
        return [t for t in self.text.tokens if t.start >= start and t.end <= end]

    def _word_after(self, amount: Amount) -> str:
        rest = self.text.folded[amount.end :].lstrip()
        if rest.startswith("%"):
            return "%"
        match = TOKEN_RE.match(rest)
        return match.group() if match else ""

    def _is_vintage_or_count(self, amount: Amount, before: list[Token]) -> bool:
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
    def _cue(words: list[Token]) -> tuple[str, int] | None:
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
        amounts: list[Amount] = []
        previous_end = 0
        for amount in find_amounts(folded):
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

    def _read_range(self, low: Amount, high: Amount, before: list[Token]) -> bool:
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

    def _read_single(self, amount: Amount, before: list[Token]) -> None:
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
