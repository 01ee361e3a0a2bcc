"""Places named by an adjective the dictionary knows, said of the land: «с альпийских склонов»,
«прохлада атлантического бриза», «дунайские террасы». The dictionary knowing «альпийский» as a
word does not make it no place: the place it is made from (the Alps) is one the dictionary
knows as a place, and a wine's words must bear it out like any other.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.language.folding import Token, stem, word_set
from core.language.lemmas import is_place_name

# The land and the air a place adjective may be said of («альпийских склонов», «бриз»).
_LANDSCAPE = tuple(
    stem(word)
    for word in word_set(
        "склон склоны берег берега побережье холм холмы гора горы предгорье предгорья долина "
        "долины терраса террасы бриз бризы ветер ветра климат море моря океан океана озеро "
        "озера река реки остров острова плато хребет хребта подножие почвы высоты воздух "
        "влияние дыхание прохлада туманы вершины ледники"
    )
)
# How a place's name ends beside its adjective's stem: «альп|ийский» — «Альпы», «атланти|ческий»
# — «Атлантика», «средиземномор|ский» — «Средиземноморье».
_NAME_ENDINGS = ("", "ы", "и", "а", "ь", "ье", "ия", "еи", "ика")
_ICAL = re.compile(r"(?:иче|ече)$")


@lru_cache(maxsize=65536)
def names_a_place(adjective_stem: str) -> bool:
    """Is the stem of a place adjective («альп», «атлантиче», «дунай») the stem of a place the
    dictionary knows first as a place («Альпы», «Атлантика», «Дунай»), not a common word
    («морской» ← «море») or a town that is first a word («королевский» ← «королева»)?"""
    base = _ICAL.sub("", adjective_stem)
    for ending in _NAME_ENDINGS:
        name = base + ending
        if len(name) >= 3 and is_place_name(name):
            return True
    return False


def said_of_land(tokens: list[Token], position: int) -> bool:
    """Is the adjective at `position` said of the land or the air («альпийских склонов»,
    «склоны альпийские»), not of a dish or a style («средиземноморская кухня»)?"""
    near = tokens[position + 1 : position + 3] + tokens[max(0, position - 1) : position]
    return any(token.stem.startswith(_LANDSCAPE) for token in near)
