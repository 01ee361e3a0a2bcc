"""A step of the price told by the price itself: «более высокой стоимости», «с меньшей ценой»,
«выше по цене», «пониже в цене», «ценовой категории повыше» — «dearer» or «cheaper» in the
words of the price, not of the wine — said again as «дороже» / «дешевле» for the follow-up
reader. The text comes folded and without its numbers; a «не» before it («не выше по цене») is
a bound, not a step."""

from __future__ import annotations

import re

_PRICE_NOUN = r"(?:цен\w*|стоимост\w*|ценов\w+ (?:сегмент|категори|уров|класс)\w*)"
_HIGHER = r"(?:(?:более |чуть |немного )?(?:высок|больш|высш)\w*|выше|повыше)"
_LOWER = r"(?:(?:более |чуть |немного )?(?:низк|меньш|невысок)\w*|ниже|пониже)"


def _price_step(word: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![a-zа-я])(?<!не )(?:{word} (?:(?:по|в|с) )?{_PRICE_NOUN}"
        rf"|{_PRICE_NOUN} (?:(?:по|в|с) )?{word})(?![a-zа-я])"
    )


_HIGHER_PRICE = _price_step(_HIGHER)
_LOWER_PRICE = _price_step(_LOWER)


_THRIFTIER = re.compile(r"(?<![a-zа-я])(?:(?:более )?экономичн\w*|бюджет ограничен\w*)")


def price_steps_as_words(folded: str) -> str:
    """«позиции более высокой стоимости» -> «позиции дороже»; «экономичнее» -> «дешевле»."""
    stepped = _HIGHER_PRICE.sub(" дороже ", folded)
    return _THRIFTIER.sub(" дешевле ", _LOWER_PRICE.sub(" дешевле ", stepped))
