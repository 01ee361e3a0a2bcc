"""A message about the wines just shown: «чем они отличаются?», «что к ним приготовить?»,
«первое звучит интересно, к чему оно?» — pure reading; the conversation (services/agent/
_conversation.py) answers it with those wines again, or the one it points at.
"""

from __future__ import annotations

import re

from core.language.folding import fold
from core.language.worded_numbers import ORDINAL_STEMS

# Words that point at the wines just shown: «чем они отличаются?», «что к ним приготовить?»,
# «возьму оба», «what do they go with?».
_POINTS_AT_SHOWN = re.compile(
    r"(?<![a-zа-я])(?:они|них|ним|ними|оба|обе|обоих|обеих|эти|этих|этим|этими|those|these|them"
    r"|they|both|either of|из них|из этих|of (?:those|these|them))(?![a-zа-я])"
)
# «сколько градусов в нём?», «чем закусывать его?», «оно сладкое?»: one of them, unnamed
_POINTS_AT_ONE = re.compile(
    r"(?<![a-zа-я])(?:его|него|нем|нём|ему|нему|оно|это вино|этого вина|этому вину|it|this one"
    r"|that one)(?![a-zа-я])"
)
_ORDINAL = re.compile(
    r"(?<![a-zа-я])(?:(?P<ru>перв|втор|трет|последн)(?:ое|ый|ая|ой|ую|ее|ий|яя|юю|ье|ья|ью|ьей|ого|ому|ым|ом|его|ему|ьего|ьему|ьим|ьем)"
    r"|(?:the )?(?P<en>first|second|third|last)(?: one| wine)?)(?![a-zа-я])"
)
# What such a message asks of them: a dish, the difference, which to take.
_ASKS_OF_SHOWN = re.compile(
    r"(?<![a-zа-я])(?:к (?:ним|нему|чему)|из еды|приготов|подать|подава|go with|pair|отлича"
    r"|разниц|differ|выбрать|взять|брать|лучше|choose|pick|recommend|посовет|сколько|how much"
    r"|цена|price|звучит|sounds"
    # what it is like: «второе подробнее», «первое что за вино?», «tell me about the first one»
    r"|(?:по)?подробн|расскаж|опиш|что за|на вкус|tell me|more about|describe|what is it like"
    # what one of them is: «первое какое по крепости?», «у второго какой год?», «третье откуда?»
    r"|как\w+ (?:по|у)|крепост|градус|урожа|откуда|из како|сорт|выдерж|strong|alcohol|vintage"
    r"|where (?:is it )?from|закус)"
)
# What is asked of one wine shown: «его охладить?», «оно сладкое?» (of «они» it is a taste told)
_ASKS_OF_ONE = re.compile(r"(?<![a-zа-я])(?:охлажд|охлад|декант|хран|сладк|сух\w+\W*$|пузыр)")


def points_at_shown(text: str) -> int | None:
    """Does a message ask about the wines just shown («чем они отличаются?», «к ним что
    приготовить?», «первое звучит интересно, к чему оно?»)? 0 for all of them, n for the n-th
    (-1 for the last); None when it does not point at them."""
    folded = fold(text)
    if not _ASKS_OF_SHOWN.search(folded):
        return 0 if _ASKS_OF_ONE.search(folded) and points_at_one(text) else None
    if ordinal := _ORDINAL.search(folded):
        return ORDINAL_STEMS[ordinal.group("ru") or ordinal.group("en")]
    if _POINTS_AT_SHOWN.search(folded) or _POINTS_AT_ONE.search(folded):
        return 0
    return None


_FOOD_OF_SHOWN = re.compile(r"(?<![a-zа-я])(?:к (?:нему|ним)|закус|приготов|из еды|go with)")


def asks_food_of_shown(text: str) -> bool:
    """«к нему что приготовить?», «чем закусывать его?»: the dish for the wine shown."""
    return bool(_FOOD_OF_SHOWN.search(fold(text)))


def points_at_one(text: str) -> bool:
    """Does the message point at one wine shown without saying which («оно сладкое?»)?"""
    folded = fold(text)
    if _ORDINAL.search(folded) or _POINTS_AT_SHOWN.search(folded):
        return False  # «первое, к чему оно?» says which
    return bool(_POINTS_AT_ONE.search(folded))
