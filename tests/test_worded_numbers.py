"""Numbers written in words, read as a person writes them: parts in falling order («сто
двадцать», not «четыре шесть»), an ordinal closing a year («тысяча восемьсот четырнадцатом»),
an ordinal alone only where it dates («двадцатого года», «девятнадцатого века», «с
пятидесятых»), «с половиной» inside a number, a range of two, and nouns that are numbers
(«полвека», «две трети», «пара лет»)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.language.worded_numbers import worded_numbers

CASES = [
    ("в тысяча восемьсот четырнадцатом году", [Decimal(1814)]),
    ("урожая две тысячи пятнадцатого", [Decimal(2015)]),
    ("около ста двадцати дней", [Decimal(120)]),
    ("выдерживают четыре–шесть лет", [Decimal(4), Decimal(6)]),
    ("от четырёх до шести лет", [Decimal(4), Decimal(6)]),
    ("шесть с половиной тысяч", [Decimal(6500)]),
    ("двадцать второго года", [Decimal(22)]),
    ("с девятнадцатого века", [Decimal(19)]),
    ("с пятидесятых", [Decimal(50)]),
    ("лозам полвека", [Decimal(50)]),
    ("две трети купажа", [Decimal("0.66")]),
    ("дюжина месяцев", [Decimal(12)]),
    ("пара лет в бочке", [Decimal(2)]),
    ("возьмите пару бокалов", []),
    ("пятое гран крю", []),  # a rank, read elsewhere
    ("одно из лучших", []),
]


@pytest.mark.parametrize(("text", "values"), CASES, ids=[text for text, _ in CASES])
def test_a_number_in_words_reads_as_written(text: str, values: list[Decimal]) -> None:
    assert [number.value for number in worded_numbers(text)] == values


def test_a_decade_and_an_ordinal_year_are_told_apart() -> None:
    decade, year = worded_numbers("с пятидесятых, а вино двадцать второго года")
    assert decade.decade and decade.ordinal
    assert year.ordinal and not year.decade and year.next_lemma == "год"
