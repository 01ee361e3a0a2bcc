"""The one price reader: the price bounds a message states, from the amounts written in it.

«до 2000», «от 1500 до 3000», «около 2 тысяч», «бюджет 2k». A year-like number next to
«год»/«урожая» is a vintage, and a number before «бутылки»/«человек» a count, not a price. The
amounts themselves are read by `core.language.amounts`. Used by the request reader (budget bounds).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol

from core.language.amounts import MIN_PLAIN_PRICE, Amount, find_amounts
from core.language.folding import TOKEN_RE, Token


class ReadableText(Protocol):
    original: str
    folded: str
    tokens: list[Token]


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
            ("у", "меня"),
            ("у", "нас"),
            ("имею",),
            ("have",),
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
# «5000 и выше», «5000 rub and up», «от 3000+»: what follows an amount that makes it a floor.
_AND_UP = re.compile(
    r"\s*(?:₽|руб\w*|rub\w*|р)?\.?\s*(?:и выше|и дороже|или дороже|и больше|и более|и вверх"
    r"|and up|and above|or more|or higher|\+|plus)(?![a-zа-я])"
)
_MAX_AFTER = re.compile(
    r"\s*(?:₽|руб\w*|р)?\.?,?\s*(?:максимум|макс|не больше|не дороже|не выше|max|maximum|tops"
    r"|at most)(?![a-zа-я])"
)
# A step of the price beside «на N»: «подороже на 500», «на 300 дешевле»
_STEP_STEMS = ("подорож", "дорож", "подешев", "дешев", "дешевл")
_STEP_AFTER = re.compile(r"\s*(?:₽|руб\w*|р)?\.?\s*(?:по)?(?:дороже|дешевле)(?![a-zа-я])")
_ABOUT_LOW = Decimal("0.8")
_ABOUT_HIGH = Decimal("1.2")


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

    def _max_follows(self, amount: Amount) -> bool:
        """«1500 максимум», «косарь, не больше»: the bound said after the sum."""
        return bool(_MAX_AFTER.match(self.text.folded[amount.end :]))

    def _is_step(self, amount: Amount, before: list[Token], first: int) -> bool:
        """«подороже рублей на 500», «на 300 дешевле»: «на» with a step of the price beside it
        says by how much the price moves."""
        if before[first].text != "на" or len(before) - first != 1:
            return False
        if _STEP_AFTER.match(self.text.folded[amount.end :]):
            return True
        cue = before[first]
        return any(
            token.text.startswith(_STEP_STEMS)
            and "," not in self.text.folded[token.end : cue.start]  # «подороже, на 3000»
            for token in before[max(0, first - 3) : first]
        )

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
        low_ok = low_value > 0 and (low_value >= MIN_PLAIN_PRICE or low.marked or high.marked)
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
        upward = _AND_UP.match(self.text.folded[amount.end :])
        if upward is not None:  # «5000 и выше», «5000 rub and up»: a floor
            self._set_min(amount.value, self._phrase(amount.start, amount.end + upward.end()))
            return
        cue = self._cue(before)
        if cue is None:
            # "2000 ₽", "3к", "рублей 1000" (the money named first, as speech has it): a lone
            # sum of money is a budget
            money_first = bool(before) and before[-1].text.startswith(("руб", "rub"))
            if amount.approximate and not self._max_follows(amount):
                words = self._phrase(amount.start, amount.end)
                self._set_min(amount.value * _ABOUT_LOW, words)
                self._set_max(amount.value * _ABOUT_HIGH, words)
            elif amount.marked or money_first or self._max_follows(amount):
                start = before[-1].start if money_first and not amount.marked else amount.start
                self._set_max(amount.value, self._phrase(start, amount.end))
            return
        kind, first = cue
        if self._is_step(amount, before, first):
            return  # «подороже рублей на 500», «на 300 дешевле»: by how much, not a bound
        if amount.approximate and kind == _MAX:
            kind = _ABOUT  # «за тыщи за четыре»: the inversion says «about»
        words = self._phrase(before[first].start, amount.end)
        if kind == _MAX:
            self._set_max(amount.value, words)
        elif kind == _MIN:
            self._set_min(amount.value, words)
        else:
            self._set_min(amount.value * _ABOUT_LOW, words)
            self._set_max(amount.value * _ABOUT_HIGH, words)
