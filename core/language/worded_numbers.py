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
_ORDINALS_1_19 = words(
    "первый второй третий четвертый пятый шестой седьмой восьмой девятый десятый одиннадцатый "
    "двенадцатый тринадцатый четырнадцатый пятнадцатый шестнадцатый семнадцатый восемнадцатый "
    "девятнадцатый"
)
_TENS_ORDINALS = words(
    "двадцатый тридцатый сороковой пятидесятый шестидесятый семидесятый восьмидесятый девяностый"
)
_HUNDREDS_ORDINALS = words(
    "сотый двухсотый трехсотый четырехсотый пятисотый шестисотый семисотый восьмисотый девятисотый"
)
# The first few places by the stem of their word, as a place among things or in a rank
# («второе» of the wines shown, «пятое гран крю»); -1 the last.
ORDINAL_STEMS = {"перв": 1, "втор": 2, "трет": 3, "четверт": 4, "пят": 5, "последн": -1}
ORDINAL_STEMS |= {"first": 1, "second": 2, "third": 3, "last": -1}
_CARDINALS = {word: number for number, word in enumerate(_WORDS_0_19)}
_CARDINALS |= {word: (position + 2) * 10 for position, word in enumerate(_TENS)}
_CARDINALS |= {word: (position + 1) * 100 for position, word in enumerate(_HUNDREDS)}
_HALF_MORE = {"полтора": Decimal("1.5"), "полторы": Decimal("1.5")}
# Nouns that are numbers by meaning: «полвека», «дюжина месяцев», «треть купажа», «две трети»;
# «пара» only before a unit («пара лет», not «пара бокалов»).
_NUMBER_NOUNS = {"полвека": Decimal(50), "дюжина": Decimal(12), "сотня": Decimal(100)}
_NUMBER_NOUNS |= {"десяток": Decimal(10)}
_PART = "часть"  # «пятая часть»: a share by an ordinal
_FRACTIONS = {"треть": Decimal("0.33"), "четверть": Decimal("0.25"), "половина": Decimal("0.5")}
_PAIR = "пара"
# An ordinal ends a longer number («восемьдесят третьем году»); alone («второе крю», «первой
# в Италии») it is a rank or an order, read elsewhere.
_ORDINALS = {word: number for number, word in enumerate(_ORDINALS_1_19, start=1)}
_ORDINALS |= {word: (position + 2) * 10 for position, word in enumerate(_TENS_ORDINALS)}
_ORDINALS |= {word: (position + 1) * 100 for position, word in enumerate(_HUNDREDS_ORDINALS)}
_ORDINALS["тысячный"] = 1000
_THOUSAND = "тысяча"
# What an ordinal standing alone dates: «двадцатого года», «девятнадцатого века».
_DATED = frozenset({"год", "век", "столетие"})
# Plural forms of a tens ordinal: a decade («с пятидесятых», «в девяностые»).
_DECADE_ENDINGS = ("ых", "ые", "ыми")
# What a number measures: a number before one of these is a claim («двенадцать месяцев»).
UNITS = word_set(
    "год лет месяц неделя день век столетие час минута метр километр гектар литр миллилитр "
    "балл очко градус процент грамм килограмм тонна сорт г гр кг мг га км м см мл л ч мин"
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
    ordinal: bool = False  # ended by an ordinal («восемьдесят третьем», «двадцатого года»)
    noun: bool = False  # a number by meaning: «полвека», «треть», «две трети»
    decade: bool = False  # a tens ordinal in the plural («с пятидесятых», «девяностые»)


def _part(word: Word, first: bool) -> Decimal | None:
    """The value one word adds to a number; an ordinal starts one only where it dates
    something (checked by the caller)."""
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
    starts = [w for w in (*_CARDINALS, *_HALF_MORE, _THOUSAND, *_ORDINALS) if w != "один"]
    starts += [*_NUMBER_NOUNS, *_FRACTIONS, _PAIR]
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
    chains: list[tuple[Decimal, int, int, bool, bool]] = []  # value, first, last, compound, ordinal
    nouns: set[int] = set()  # the first words of numbers by meaning
    position = 0
    while position < len(words):
        word = words[position]
        if (noun := _number_noun(words, position)) is not None:
            value, last = noun
            chains.append((value, position, last, last > position, False))
            nouns.add(position)
            position = last + 1
            continue
        starts = word.lemma == _THOUSAND or _part(word, True) is not None
        if not starts and not _starts_date(words, position):
            position += 1
            continue
        total, current, last, ordinal = Decimal(0), Decimal(0), position, False
        # the order the next part must stay below: «сто двадцать», not «четыре шесть»
        place = Decimal(10_000)
        while last < len(words):
            candidate = words[last]
            if candidate.lemma == _THOUSAND:
                if total:
                    break
                total += (current or 1) * 1000
                current, place = Decimal(0), Decimal(1000)
            elif current and _half_follows(words, last):  # «шесть с половиной тысяч»
                current += Decimal("0.5")
                last += 2
                continue
            elif (value := _part(candidate, last == position) or _ordinal(candidate)) is not None:
                if value >= place or (current and value >= _order(current)):
                    break
                current += value
                place = _order(value)
                if candidate.lemma in _ORDINALS:
                    ordinal = True
                    last += 1
                    break  # an ordinal closes the number
            else:
                break
            last += 1
        if last == position:  # an ordinal that dates nothing
            position += 1
            continue
        chains.append((total + current, position, last - 1, last - 1 > position, ordinal))
        position = last
    found: list[WordedNumber] = []
    for index, (value, first, last, compound, ordinal) in enumerate(chains):
        following = words[last + 1] if last + 1 < len(words) else None
        next_lemma = following.lemma if following else ""
        # «лет пять», «года три»: a rough measure, said after its unit
        measured = next_lemma in UNITS or (
            first > 0 and words[first - 1].lemma in UNITS and words[first].lemma != "один"
        )
        if not measured and index + 1 < len(chains):
            _, then_first, then_last, _, _ = chains[index + 1]
            after = words[then_last + 1].lemma if then_last + 1 < len(words) else ""
            between = text[words[last].end : words[then_first].start].strip()
            ranged = (then_first == last + 2 and next_lemma in _RANGE_WORDS) or (
                then_first == last + 1 and between in _RANGE_WORDS
            )
            measured = ranged and after in UNITS
        decade = (
            ordinal
            and words[last].lemma in _TENS_ORDINALS
            and (words[last].text.endswith(_DECADE_ENDINGS))
        )
        found.append(
            WordedNumber(
                value,
                words[first].start,
                words[last].end,
                next_lemma,
                measured,
                compound,
                ordinal=ordinal,
                decade=decade,
                noun=first in nouns,
            )
        )
    return found


def _number_noun(words: list[Word], position: int) -> tuple[Decimal, int] | None:
    """A number said by a noun at `position` (value, last word): «полвека», «дюжина», «пара
    лет», «треть», «две трети»."""
    word = words[position]
    following = words[position + 1] if position + 1 < len(words) else None
    if word.lemma in _NUMBER_NOUNS:
        return _NUMBER_NOUNS[word.lemma], position
    if word.lemma == _PAIR and following is not None and following.lemma in UNITS:
        return Decimal(2), position
    if word.lemma in _FRACTIONS:
        return _FRACTIONS[word.lemma], position
    if following is not None and following.lemma in _NUMBER_NOUNS and word.lemma in _CARDINALS:
        return _CARDINALS[word.lemma] * _NUMBER_NOUNS[
            following.lemma
        ], position + 1  # «три десятка»
    if (
        following is not None
        and following.lemma == _PART
        and 3 <= _ORDINALS.get(word.lemma, 0) <= 10
    ):
        share = Decimal(1) / _ORDINALS[word.lemma]  # «пятая часть», «десятая часть»
        return share.quantize(Decimal("0.01")), position + 1
    if following is not None and following.lemma in _FRACTIONS and word.lemma in _CARDINALS:
        share = _CARDINALS[word.lemma] * _FRACTIONS[following.lemma]
        return share.quantize(Decimal("0.01")), position + 1
    return None


def _half_follows(words: list[Word], position: int) -> bool:
    return (
        position + 1 < len(words)
        and words[position].text == "с"
        and words[position + 1].text == "половиной"
    )


def _ordinal(word: Word) -> Decimal | None:
    return Decimal(_ORDINALS[word.lemma]) if word.lemma in _ORDINALS else None


def _order(value: Decimal) -> Decimal:
    """The place a part fills: 1 for units and teens, 10 for tens, 100 for hundreds."""
    return Decimal(1) if value < 20 else Decimal(10) if value < 100 else Decimal(100)


def _starts_date(words: list[Word], position: int) -> bool:
    """Does an ordinal start a number here: «двадцатого года», «девятнадцатого века», a decade
    («с пятидесятых»)?"""
    word = words[position]
    if word.lemma not in _ORDINALS:
        return False
    following = words[position + 1].lemma if position + 1 < len(words) else ""
    decade = word.lemma in _TENS_ORDINALS and word.text.endswith(_DECADE_ENDINGS)
    return following in _DATED or decade
