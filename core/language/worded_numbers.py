"""Numbers written in words, read by their dictionary forms: «двенадцать месяцев» is 12,
«полутора тысяч метров» 1500, «в тысяча восемьсот восемьдесят третьем году» 1883, «от четырёх
до шести лет» 4 and 6. What the claims reader (`claims`) holds to the wine's own words as it
holds a number written in digits.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from core.language.folding import TOKEN_RE, fold, word_set, words
from core.language.lemmas import Word, with_forms, words_of

_WORDS_0_19 = words(
    "ноль один два три четыре пять шесть семь восемь девять десять одиннадцать двенадцать "
    "тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать"
)
_TENS = words("двадцать тридцать сорок пятьдесят шестьдесят семьдесят восемьдесят девяносто")
_HUNDREDS = words("сто двести триста четыреста пятьсот шестьсот семьсот восемьсот девятьсот")
_ORDINALS_1_10 = words(
    "первый второй третий четвертый пятый шестой седьмой восьмой девятый десятый"
)
_CARDINALS = {word: number for number, word in enumerate(_WORDS_0_19)}
_CARDINALS |= {word: (position + 2) * 10 for position, word in enumerate(_TENS)}
_CARDINALS |= {word: (position + 1) * 100 for position, word in enumerate(_HUNDREDS)}
_HALF_MORE = {"полтора": Decimal("1.5"), "полторы": Decimal("1.5")}
# An ordinal ends a longer number («восемьдесят третьем году»); alone («второе крю», «первой
# в Италии») it is a rank or an order, read elsewhere.
_ORDINALS = {word: number for number, word in enumerate(_ORDINALS_1_10, start=1)}
_ORDINALS |= {
    "двадцатый": 20,
    "тридцатый": 30,
    "сороковой": 40,
    "пятидесятый": 50,
    "шестидесятый": 60,
    "семидесятый": 70,
    "восьмидесятый": 80,
    "девяностый": 90,
    "сотый": 100,
}
_THOUSAND = "тысяча"
# What a number measures: a number before one of these is a claim («двенадцать месяцев»).
UNITS = word_set(
    "год лет месяц неделя день век столетие час минута метр километр гектар литр миллилитр "
    "балл очко градус процент грамм килограмм тонна сорт"
)
_RANGE_WORDS = frozenset({"до", "или", "и", "-", "–", "—"})


@dataclass(frozen=True)
class WordedNumber:
    value: Decimal
    start: int  # character span in the text
    end: int
    next_lemma: str  # the dictionary form of the word after it ("" at the end)
    measured: bool  # followed by a unit, or first of a range of one («от двух до трех лет»)
    compound: bool  # more than one word («сто двадцать»)


def _part(word: Word, first: bool) -> Decimal | None:
    if word.lemma in _CARDINALS:
        return Decimal(_CARDINALS[word.lemma])
    if word.lemma in _HALF_MORE or word.text in _HALF_MORE:
        return _HALF_MORE.get(word.lemma) or _HALF_MORE[word.text]
    if word.lemma in _ORDINALS and not first:
        return Decimal(_ORDINALS[word.lemma])
    return None


@cache
def _number_forms() -> frozenset[str]:
    """Every form of the words a number in words begins with, but «один» (alone, «одно из
    лучших», it is no number): a text without one has no number to read."""
    starts = [w for w in (*_CARDINALS, *_HALF_MORE, _THOUSAND) if w != "один"]
    found = {form for forms in with_forms({"n": starts}).values() for form in forms}
    return frozenset(found | _MISSING_FORMS)


# Oblique forms the dictionary's table of forms lacks: «около ста дней», «со ста метров».
_MISSING_FORMS = frozenset({"ста"})


def worded_numbers(text: str) -> list[WordedNumber]:
    """Every number written in words in `text`, with the word that follows it."""
    forms = _number_forms()
    if not any(match.group() in forms for match in TOKEN_RE.finditer(fold(text))):
        return []  # most sentences: no dictionary look-up at all
    words = words_of(text)
    chains: list[tuple[Decimal, int, int, bool]] = []  # value, first word, last word, compound
    position = 0
    while position < len(words):
        word = words[position]
        if word.lemma != _THOUSAND and _part(word, True) is None:
            position += 1
            continue
        total, current, last = Decimal(0), Decimal(0), position
        while last < len(words):
            candidate = words[last]
            if candidate.lemma == _THOUSAND:
                total += (current or 1) * 1000
                current = Decimal(0)
            elif (value := _part(candidate, last == position)) is not None:
                current += value
                if candidate.lemma in _ORDINALS:
                    last += 1
                    break  # an ordinal closes the number
            else:
                break
            last += 1
        chains.append((total + current, position, last - 1, last - 1 > position))
        position = last
    found: list[WordedNumber] = []
    for index, (value, first, last, compound) in enumerate(chains):
        following = words[last + 1] if last + 1 < len(words) else None
        next_lemma = following.lemma if following else ""
        # «лет пять», «года три»: a rough measure, said after its unit
        measured = next_lemma in UNITS or (first > 0 and words[first - 1].lemma in UNITS)
        if not measured and next_lemma in _RANGE_WORDS and index + 1 < len(chains):
            _, then_first, then_last, _ = chains[index + 1]
            after = words[then_last + 1].lemma if then_last + 1 < len(words) else ""
            measured = then_first == last + 2 and after in UNITS
        found.append(
            WordedNumber(value, words[first].start, words[last].end, next_lemma, measured, compound)
        )
    return found
