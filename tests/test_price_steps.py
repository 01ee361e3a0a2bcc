"""«Dearer» or «cheaper» said in the words of the price («ценой повыше», «с более низкой
стоимостью», «ниже по цене») is a step from the wines shown; «не выше по цене» is not (issue 40)."""

from __future__ import annotations

import pytest

from core.language.followups import read_followup


@pytest.mark.parametrize(
    "text",
    ["а что-нибудь ценой повыше", "покажите вина более высокой стоимости", "а выше по цене?"],
)
def test_a_higher_price_is_a_step_up(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize(
    "text",
    [
        "нужны позиции с более низкой стоимостью",
        "а пониже в цене найдётся?",
        "что-то из меньшего ценового сегмента",
        "деньги на исходе, покажите что-то экономичнее",
    ],
)
def test_a_lower_price_is_a_step_down(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


def test_a_bound_on_the_price_is_no_step() -> None:
    step = read_followup("только не выше по цене")
    assert not step.dearer and not step.cheaper


@pytest.mark.parametrize(
    "text",
    [
        "может, повысим планку?",
        "готов заплатить побольше",
        "ладно, раскошелюсь",
        "хочется шикануть",
        "поднимите уровень, пожалуйста",
    ],
)
def test_a_bar_raised_or_money_spent_is_a_step_up(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize(
    "text", ["давай снизим планку", "хочу потратить поменьше", "надо бы сэкономить"]
)
def test_a_bar_lowered_or_money_saved_is_a_step_down(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


def test_a_raised_glass_is_no_step() -> None:
    step = read_followup("поднимем бокалы за именинника")
    assert not step.dearer and not step.cheaper
