"""One message's change to the request in force: what it asks replaces what was asked, a
follow-up («подешевле», «посуше», «другой сорт», «без …») moves from the wines just shown, a
choice («белое или розовое») rules the rest out."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from core.domain import Sweetness, WineFilters, WineType
from core.language.followups import FollowUp
from services.agent._request_state import RequestState, ShownWine

_SWEETNESS_ORDER = (Sweetness.dry, Sweetness.semi_dry, Sweetness.semi_sweet, Sweetness.sweet)
# Wine types whose grapes/places do not carry over to another colour.
_STYLE_TYPES = (WineType.sparkling, WineType.dessert, WineType.fortified)


def _beyond(current: Sweetness | None, drier: bool) -> list[Sweetness]:
    """The levels drier (or sweeter) than `current`, nearest first; `current` itself at the
    end of the scale (none: the whole scale)."""
    if current is None:
        return list(_SWEETNESS_ORDER)
    index = _SWEETNESS_ORDER.index(current)
    levels = _SWEETNESS_ORDER[:index][::-1] if drier else _SWEETNESS_ORDER[index + 1 :]
    return list(levels) or [current]


def merge(
    state: RequestState,
    parsed: WineFilters,
    followup: FollowUp,
    named: tuple[tuple[uuid.UUID, ...], tuple[str, ...]],
    group: tuple[str, ...],
    choices: dict[str, frozenset[str]],
    compared: bool,
) -> RequestState:
    values: dict[str, Any] = state.filters.model_dump(exclude_none=True)
    asked = parsed.model_dump(exclude_none=True)
    named_ids, named_words = state.named_ids, state.named_words
    countries = state.countries
    refined: list[str] = []
    new_type = asked.get("wine_type")
    if new_type is not None and new_type != values.get("wine_type"):
        for name in ("grape_variety", "region"):
            values.pop(name, None)
        if new_type in _STYLE_TYPES or values.get("wine_type") in _STYLE_TYPES:
            values.pop("sweetness", None)
        if not followup.same_maker:  # «а его розовое?»: the maker named stays
            named_ids, named_words = (), ()
    if "country" in asked or "region" in asked:
        values.pop("region", None)
        countries = ()
        named_ids, named_words = (), ()
    if "grape_variety" in asked:
        named_ids, named_words = (), ()
    if named[0]:  # «а Бароло?»: that wine, whatever country or colour was asked before
        values = {k: v for k, v in values.items() if k in ("price_min", "price_max")}
        countries = ()
    values.update(asked)
    if named[0]:
        named_ids, named_words = named
    if group:
        countries = group
        values.pop("country", None)
        values.pop("region", None)
    last = state.last_shown
    # «уровнем выше, чем просекко»: a wine compared with is a measure, not a pick
    stays = followup.same_maker  # «а подешевле от них же?»: of the same maker
    if (followup.cheaper or followup.dearer) and (not named[0] or compared) and not stays:
        named_ids, named_words = (), ()  # another wine of that style, not that wine again
    if followup.cheaper:
        refined.append("дешевле")
        reference = min((w.price for w in last), default=None)
        floor = asked.get("price_min")
        if reference is not None and floor is not None and reference <= Decimal(floor):
            reference = max(w.price for w in last)  # «подешевле, но от 1000»: under the dearest
        if reference is None and "price_max" in values:
            reference = Decimal(values["price_max"]) + 1
        if reference is not None:  # cheaper than those, and within a ceiling just asked
            ceiling = reference - 1
            if followup.price_share is not None:  # «вдвое дешевле»: that share of the price
                ceiling = (reference * Decimal(str(round(followup.price_share, 4)))).quantize(1)
            values["price_max"] = min(ceiling, Decimal(asked.get("price_max", reference)))
            if "price_min" not in asked:
                values.pop("price_min", None)
    if followup.dearer:
        refined.append("дороже")
        reference = max((w.price for w in last), default=None)
        cap = asked.get("price_max")
        if reference is not None and cap is not None and reference >= Decimal(cap):
            # «чуть подороже, но не дороже 2000» after 1300–2200: dearer than the cheapest
            reference = min(w.price for w in last)
        if reference is None and "price_min" in values:
            reference = Decimal(values["price_min"]) - 1
        if reference is not None:
            values["price_min"] = reference + 1
            if "price_max" not in asked:  # «а дороже, до 2000?» keeps its new ceiling
                values.pop("price_max", None)
    if followup.drier or followup.sweeter:
        refined.append("суше" if followup.drier else "слаще")
        before = state.filters.sweetness
        if before is None and last:
            shown = [w.sweetness for w in last]
            pick = min if followup.sweeter else max
            before = pick(shown, key=_SWEETNESS_ORDER.index)
        said = Sweetness(asked["sweetness"]) if "sweetness" in asked else None
        if said is not None and before is not None and said in _beyond(before, not followup.drier):
            said = None  # «слишком сладкое» after a semi-dry one: the word is the complaint
        if said is not None and said != before and said in _beyond(before, followup.drier):
            values["sweetness"] = said.value  # «послаще, полусладкое»: the level said
        else:
            # «брют кислый, а слаще?»: a level said is the one to move from
            beyond = _beyond(said or before or Sweetness.semi_dry, followup.drier)
            if len(beyond) > 1:  # «послаще» after a dry one: semi-dry, semi-sweet or sweet
                choices = {**choices, "sweetness": frozenset(level.value for level in beyond)}
                values.pop("sweetness", None)
            else:
                values["sweetness"] = beyond[0].value
        if followup.drier and values.get("wine_type") == WineType.dessert:
            values.pop("wine_type")  # a dessert wine is sweet by kind: drier is another kind
        named_ids, named_words = (), ()
    # Lighter than the heaviest shown, fuller than the lightest — as a sweetness step moves
    # from the sweetest or the driest shown («полегче» after bodies 2, 4, 2 may be a 3)
    if followup.lighter and last:
        refined.append("легче")
        values["body_max"] = max(1, max(w.body for w in last) - 1)
        values.pop("body_min", None)
    if followup.fuller and last:
        refined.append("плотнее")
        values["body_min"] = min(5, min(w.body for w in last) + 1)
        values.pop("body_max", None)
    # A filter asked for again is no longer ruled out («а розовое?» after «белое и красное»).
    excluded = [(n, v) for n, v in state.excluded if str(asked.get(n, "")) != v]
    for name, chosen in choices.items():  # «белое и красное»: any of them, nothing else
        kinds: type[WineType] | type[Sweetness] = WineType if name == "wine_type" else Sweetness
        excluded += [(name, v.value) for v in kinds if v.value not in chosen]
        excluded = [(n, v) for n, v in excluded if not (n == name and v in chosen)]
        values.pop(name, None)
    for name in followup.dropped:  # «не обязательно французское»
        if name in asked:
            continue  # «можно не сухое, а полусладкое»: given up for the one said instead
        values.pop(name, None)
        if name == "country":
            countries = ()
    for name, value in followup.negated.items():
        if name == "countries":  # «наше не надо»: each country of the group ruled out
            assert isinstance(value, tuple)
            countries = tuple(c for c in countries if c not in value)
            excluded += [("country", c) for c in value]
            if values.get("country") in value:
                values.pop("country")
            continue
        if name == "wine_type" and "region" in followup.negated and values.get(name) == value:
            continue  # «игристое…», then «и не шампанское»: not Champagne, still sparkling
        if values.get(name) == value:
            values.pop(name)
        if name == "country" and value in countries:
            countries = tuple(c for c in countries if c != value)
        excluded.append((name, str(value)))
    if followup.other_grape:  # the grape of what was asked or shown before, ruled out
        grapes = {state.filters.grape_variety} | _shared_grapes(last)
        if "grape_variety" not in asked:  # «…, maybe carmenere?» names the new one
            values.pop("grape_variety", None)
        colours = {w.wine_type for w in last}
        if "wine_type" not in values and len(colours) == 1:
            # «пино нуар», then «другой сорт»: another grape of the colour shown
            values["wine_type"] = next(iter(colours)).value
        excluded += [("grape_variety", g) for g in grapes if g and g != asked.get("grape_variety")]
        refined.append("другой сорт")
    if followup.more:
        refined.append("другие варианты")
    if followup.extreme:
        refined.append("самые недорогие" if followup.extreme == "cheapest" else "самые дорогие")
    _keep_bounds_in_order(values, asked)
    new = WineFilters.model_validate(values).model_dump(exclude_none=True)
    return replace(
        state,
        filters=WineFilters.model_validate(values),
        countries=countries,
        named_ids=named_ids,
        named_words=named_words,
        excluded=tuple(dict.fromkeys(excluded)),
        refined=tuple(refined),
        extreme=followup.extreme,
        asked_now=tuple(k for k, v in new.items() if state.filters.model_dump().get(k) != v),
        said_now=tuple(asked),
        budget=Decimal(str(asked["price_max"])) if "price_max" in asked else state.budget,
    )


def _keep_bounds_in_order(values: dict[str, Any], asked: dict[str, Any]) -> None:
    """A bound this message set wins over an older one it contradicts: «полнотелое», then
    «что-нибудь легкое» is light, not an empty search for body ≥ 4 and ≤ 2."""
    for low, high in (("body_min", "body_max"), ("price_min", "price_max")):
        if values.get(low) is None or values.get(high) is None:
            continue
        if Decimal(str(values[low])) > Decimal(str(values[high])):
            values.pop(low if high in asked else high)


def _shared_grapes(shown: Sequence[ShownWine]) -> set[str]:
    """The grape every wine shown is made of, if there is one."""
    grapes = [set(w.grapes) for w in shown]
    return set.intersection(*grapes) if grapes else set()
