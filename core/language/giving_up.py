"""Conditions a message gives up: «не обязательно из Франции», «сыр уже не важен», «пофиг на
страну», «цвет любой», «from anywhere», «price doesn't matter». Pure reading: the names of the
filters that give way (`followups` carries them to the conversation state)."""

from __future__ import annotations

import re

from core.language.request import parse_query
from core.language.world import countries_of_group

# «не обязательно из Франции», «doesn't have to be French», «страна не важна», «from anywhere».
_GIVE_UP = re.compile(
    r"(не обязательно|необязательно|не важно|неважно|не принципиально|можно не"
    r"|does ?n.?t have to be|does not have to be|don.?t have to be|no need (?:for|to be)"
    r"|doesn.?t matter)\s+"
    r"(?P<what>\w+(?:\s+\w+)?)"
)
# «без ограничения по бюджету», «бюджет не важен», «money is no object»: the price gives way.
_ANY_PRICE = re.compile(
    r"без ограничени\w* по (бюджету|цене)|бюджет (не важен|неважен|не ограничен)|цена не важна"
    r"|money is no object|no budget|budget doesn.?t matter|price doesn.?t matter"
    # «деньги не проблема», «не жалко денег», «за ценой не постою»
    r"|деньги не (проблема|вопрос|важны)|(не жалко|не жаль) денег|за ценой не посто"
    # «а если не ограничиваться двумя тысячами?», «бюджет можно не ограничивать»
    r"|не ограничива\w* (\w+ )?(\d+|\w+ тысяч\w*|тысяч\w*|бюджет\w*|цен\w*)"
    r"|(бюджет|цен)\w* (можно )?не ограничива\w*"
)
_GIVEN_UP = re.compile(
    r"(?P<what>[a-zа-я]+(?:\s+[a-zа-я]+)?)\s+(?:уже\s+)?(?:не важ\w*|неважн\w*|не обязательн\w*"
    r"|не принципиальн\w*|doesn.?t matter)"
)
_ANYWHERE = re.compile(
    r"from anywhere|any country|любой страны|из любой страны|откуда угодно|страна не важна"
    r"|страна неважна|(?:не ?важно|без разницы|все равно),? откуда"
    r"|(?:без разницы|все равно),? (?:какая|из какой) стран|no matter where|wherever from"
)


# «пофиг на страну», «цвет любой», «price doesn't matter», «any colour»: a condition named by
# what it is about, in a clause that says it does not matter
_INDIFFERENT = re.compile(
    r"(?<![a-zа-я])(не ?важ\w*|не принципиальн\w*|без разницы|все равно|пофиг|плевать"
    r"|по барабану|не имеет значения|люб(ой|ая|ое|ую)|как(ой|ая|ое) угодно|does ?n.?t matter"
    r"|does not matter|don.?t care|no matter|any|whatever)(?![a-zа-я])"
)
_CONDITION_WORDS: dict[str, tuple[str, ...]] = {
    "стран": ("country", "region"),
    "country": ("country", "region"),
    "регион": ("region",),
    "region": ("region",),
    "цвет": ("wine_type",),
    "colour": ("wine_type",),
    "color": ("wine_type",),
    "цен": ("price_min", "price_max"),
    "бюджет": ("price_min", "price_max"),
    "price": ("price_min", "price_max"),
    "budget": ("price_min", "price_max"),
    "сладост": ("sweetness",),
    "sweetness": ("sweetness",),
    "сорт": ("grape_variety",),
    "виноград": ("grape_variety",),
    "grape": ("grape_variety",),
}
_CONDITION = re.compile(r"(?<![a-zа-я])(" + "|".join(_CONDITION_WORDS) + r")[a-zа-я]*")


def _indifferent_to(lowered: str) -> list[str]:
    """The conditions a clause of `lowered` says do not matter, named by what they are about."""
    names: list[str] = []
    for clause in re.split(r"[,.;!?]| но | а | but ", lowered):
        if _INDIFFERENT.search(clause):
            for match in _CONDITION.finditer(clause):
                names += _CONDITION_WORDS[match.group(1)]
    return names


def dropped_conditions(text: str) -> tuple[str, ...]:
    """The conditions a message gives up: named («не обязательно французское»), by what they
    are about («страна не важна», «пофиг на цвет»), anywhere, any price."""
    lowered = text.lower().replace("ё", "е")
    names: list[str] = _indifferent_to(lowered)
    for match in [*_GIVE_UP.finditer(lowered), *_GIVEN_UP.finditer(lowered)]:  # «сыр не важен»
        names += parse_query(match.group("what")).filters.model_dump(exclude_none=True)
        if countries_of_group(match.group("what")):  # «не обязательно европейское»
            names.append("country")
    if _ANYWHERE.search(lowered):
        names += ["country", "region"]
    if _ANY_PRICE.search(lowered):
        names += ["price_max"]
    if "country" in names:
        names.append("region")
    return tuple(dict.fromkeys(names))
