"""«Только шардоне» says the wine is one grape; «только каберне и мерло» names a blend's grapes
and says nothing of either alone. A maker's name with a place inside it («Кими Мальборо
Винъярдс») is still a maker's name, held to the wine's own words, while a place with a
title («Апелласьон Мендоса», «Из Южной Австралии») is the place (issue 40)."""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands


def _blend() -> Facts:
    return facts_of(
        "Terre Alte Bianco",
        "Tenuta Alta",
        "Италия",
        ("Тоскана", "Toscana IGT"),
        ("шардоне", "совиньон блан"),
        WineType.white,
        Sweetness.dry,
        "Купаж шардоне и совиньон блан с холмов Тосканы, выдержан на осадке.",
        vintage=2021,
    )


def _single() -> Facts:
    return facts_of(
        "Ridge Sauvignon Blanc",
        "Southern Ridge",
        "Новая Зеландия",
        ("Мальборо", "Marlborough"),
        ("совиньон блан",),
        WineType.white,
        Sweetness.dry,
        "Совиньон блан из долины Уаирау в Мальборо.",
        vintage=2023,
    )


@pytest.mark.parametrize(
    "sentence",
    ["В составе лишь шардоне.", "Здесь только шардоне, без примесей.", "Исключительно шардоне."],
)
def test_only_one_grape_of_a_blend_is_false(sentence: str) -> None:
    assert not stands(_blend(), sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Только шардоне и совиньон блан, никакого дуба.",
        "Не только шардоне: в купаже есть совиньон блан.",
    ],
)
def test_a_blend_said_with_only_stands(sentence: str) -> None:
    assert stands(_blend(), sentence)


def test_only_the_one_grape_of_a_single_grape_wine_stands() -> None:
    assert stands(_single(), "Здесь только совиньон блан.")


@pytest.mark.parametrize(
    "sentence",
    ["Его создатель — Кими Мальборо Винъярдс.", "Вино от хозяйства Хантер Мальборо Эстейт."],
)
def test_a_made_up_maker_with_a_true_place_inside_is_false(sentence: str) -> None:
    assert not stands(_single(), sentence)


@pytest.mark.parametrize("sentence", ["Апелласьон Мальборо.", "Из Долины Уаирау, Мальборо."])
def test_a_place_with_a_title_stands(sentence: str) -> None:
    assert stands(_single(), sentence)


def _sparkling(name: str, own: str) -> Facts:
    return facts_of(
        name,
        "Maison Lumière",
        "Франция",
        ("Шампань", "Champagne AOC"),
        ("шардоне", "пино нуар"),
        WineType.sparkling,
        Sweetness.dry,
        own,
    )


def test_a_sparkling_wine_is_rose_only_when_its_words_say_so() -> None:
    white = _sparkling("Lumière Brut", "Брют из Шампани с нотами бриоши.")
    pink = _sparkling("Lumière Brut Rosé", "Розовый брют из Шампани с нотами малины.")
    assert stands(white, "Белое игристое с тонкой перляжью.")
    assert not stands(white, "Розовое шампанское с ягодным ароматом.")
    assert stands(pink, "Розовое шампанское с ягодным ароматом.")


@pytest.mark.parametrize(
    ("sentence", "true"),
    [
        ("Соломенно-жёлтое вино с зеленоватым отливом.", True),
        ("В бокале рубиновое, почти чёрное.", False),
        ("Аромат жёлтых слив и айвы.", True),
    ],
)
def test_a_colour_told_by_the_look_of_the_wine(sentence: str, true: bool) -> None:
    assert stands(_single(), sentence) is true


def test_a_maker_named_in_common_words_is_held_to_the_words() -> None:
    wine = facts_of(
        "Мускат белый Красного Камня",
        "Массандра",
        "Россия",
        ("Крым",),
        ("мускат белый",),
        WineType.dessert,
        Sweetness.sweet,
        "Легендарный мускат с виноградника Красный Камень у подножия Ай-Петри.",
    )
    assert stands(wine, "Виноград с участка «Красный камень».")
    assert not stands(wine, "Изготовитель — ООО «Винный дом».")
    assert not stands(wine, "Многократный призёр крымских конкурсов.")
