"""Conversation state: the structured request each turn answered, read again from the thread.

The state is rebuilt on every turn from what the conversation already stores — the person's
messages and the wine ids of every answer (`[WINE:<id>]` in the stored assistant text) — so
no extra column is needed and every path (agent, catalog prompt, offline) and every adapter
(bot, HTTP API, terminal) sees the same state. A follow-up is read as a change to it:
cheaper / dearer than the wines just shown, drier / sweeter, lighter / fuller, another type,
colour, country, grape or dish (the budget stays), «ещё» (the same request without the wines
already shown), «без …» (removing or ruling out); a complete new request replaces it.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import Sweetness, WineFilters, WineType
from core.language.catalog_terms import CatalogIndex
from core.language.followups import FollowUp, is_new_request, read_followup, without_negated
from core.language.kinds import MessageKind, read_message
from core.language.knowledge import entry_by_id
from core.language.price_bands import band_bounds, read_price_band, without_price_words
from core.language.request import (
    ParsedQuery,
    implied_wine_type,
    named_choices,
    parse_query,
    style_words,
)
from core.language.world import countries_of_group, without_group
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent.catalog_index import catalog_index
from services.agent.price_bands import catalog_percentiles
from services.agent.request_state import RequestState, ShownWine

_WINE_MARKER = re.compile(r"\[WINE:([0-9a-fA-F-]{36})\]")
_SWEETNESS_ORDER = (Sweetness.dry, Sweetness.semi_dry, Sweetness.semi_sweet, Sweetness.sweet)
SAME_BUDGET = re.compile(
    r"(same|that) (budget|price|range)|(тот же|такой же|прежн\w*|том же) (бюджет|цен)"
    r"|(на|в) (эту|ту же|такую же) сумму|в (этом|том же) (диапазоне|бюджете|пределе)"
    r"|(тоже|также) (до|в пределах|не дороже)"
    r"|in (that|this|the same) range",
    re.IGNORECASE,
)
_OPENERS = ("а ", "и ", "and ", "what about", "how about", "или ", "тогда ")
# Wine types whose grapes/places do not carry over to another colour.
_STYLE_TYPES = (WineType.sparkling, WineType.dessert, WineType.fortified)


def _step(current: Sweetness, delta: int) -> Sweetness:
    index = _SWEETNESS_ORDER.index(current) + delta
    return _SWEETNESS_ORDER[max(0, min(len(_SWEETNESS_ORDER) - 1, index))]


def _colour(filters: WineFilters) -> bool:
    return filters.wine_type in (WineType.red, WineType.white, WineType.rose)


def _starts_as_refinement(text: str) -> bool:
    lowered = text.strip().lower()
    return lowered.startswith(_OPENERS)


def _merge(
    state: RequestState,
    text: str,
    parsed: WineFilters,
    followup: FollowUp,
    named: tuple[tuple[uuid.UUID, ...], tuple[str, ...]],
    group: tuple[str, ...],
    choices: dict[str, frozenset[str]],
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
    compared = bool(_THAN.search(text))  # «уровнем выше, чем просекко»: a measure, not a pick
    if (followup.cheaper or followup.dearer) and (not named[0] or compared):
        named_ids, named_words = (), ()  # another wine of that style, not that wine again
    if followup.cheaper:
        refined.append("дешевле")
        reference = min((w.price for w in last), default=None)
        if reference is None and "price_max" in values:
            reference = Decimal(values["price_max"]) + 1
        if reference is not None:  # cheaper than those, and within a ceiling just asked
            values["price_max"] = min(reference - 1, Decimal(asked.get("price_max", reference)))
            if "price_min" not in asked:
                values.pop("price_min", None)
    if followup.dearer:
        refined.append("дороже")
        reference = max((w.price for w in last), default=None)
        if reference is None and "price_min" in values:
            reference = Decimal(values["price_min"]) - 1
        if reference is not None:
            values["price_min"] = reference + 1
            if "price_max" not in asked:  # «а дороже, до 2000?» keeps its new ceiling
                values.pop("price_max", None)
    if followup.drier or followup.sweeter:
        refined.append("суше" if followup.drier else "слаще")
        current = values.get("sweetness")
        if current is None and last:
            shown = [w.sweetness for w in last]
            current = max(shown, key=_SWEETNESS_ORDER.index)
            if followup.sweeter:
                current = min(shown, key=_SWEETNESS_ORDER.index)
        values["sweetness"] = _step(
            Sweetness(current or Sweetness.semi_dry), -1 if followup.drier else 1
        ).value
        named_ids, named_words = (), ()
    if followup.lighter and last:
        refined.append("легче")
        values["body_max"] = max(1, min(w.body for w in last) - 1)
        values.pop("body_min", None)
    if followup.fuller and last:
        refined.append("плотнее")
        values["body_min"] = min(5, max(w.body for w in last) + 1)
        values.pop("body_max", None)
    # A filter asked for again is no longer ruled out («а розовое?» after «белое и красное»).
    excluded = [(n, v) for n, v in state.excluded if str(asked.get(n, "")) != v]
    for name, chosen in choices.items():  # «белое и красное»: any of them, nothing else
        kinds: type[WineType] | type[Sweetness] = WineType if name == "wine_type" else Sweetness
        excluded += [(name, v.value) for v in kinds if v.value not in chosen]
        excluded = [(n, v) for n, v in excluded if not (n == name and v in chosen)]
        values.pop(name, None)
    for name in followup.dropped:  # «не обязательно французское»
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
        if values.get(name) == value:
            values.pop(name)
        if name == "country" and value in countries:
            countries = tuple(c for c in countries if c != value)
        excluded.append((name, str(value)))
    if followup.other_grape:  # the grape of what was asked or shown before, ruled out
        grapes = {state.filters.grape_variety} | _shared_grapes(last)
        if "grape_variety" not in asked:  # «…, maybe carmenere?» names the new one
            values.pop("grape_variety", None)
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
    )


def _keep_bounds_in_order(values: dict[str, Any], asked: dict[str, Any]) -> None:
    """A bound this message set wins over an older one it contradicts: «полнотелое», then
    «что-нибудь легкое» is light, not an empty search for body ≥ 4 and ≤ 2."""
    for low, high in (("body_min", "body_max"), ("price_min", "price_max")):
        if values.get(low) is None or values.get(high) is None:
            continue
        if Decimal(str(values[low])) > Decimal(str(values[high])):
            values.pop(low if high in asked else high)


def read_turn(
    state: RequestState,
    text: str,
    index: CatalogIndex,
    percentiles: dict[float, Decimal] | None = None,
) -> RequestState:
    """The state after one message (without the wines this message is answered with)."""
    text = read_message(text).text or text  # without «привет!» and «спасибо»
    group = countries_of_group(text)
    plain = without_price_words(without_group(text))
    parsed = parse_query(plain)
    if parsed.filters.food_pairing is None and (dish := index.food(plain)) is not None:
        parsed = ParsedQuery(  # a dish of this shop's own pairings: «к хачапури»
            parsed.filters.model_copy(update={"food_pairing": dish}), parsed.matched
        )
    if parsed.filters.wine_type is None and (implied := implied_wine_type(plain)) is not None:
        parsed = ParsedQuery(
            parsed.filters.model_copy(update={"wine_type": implied}), parsed.matched
        )
    followup = read_followup(without_price_words(text))  # with its group: «наше не надо»
    if group and followup.negated.get("countries") == group:
        group = ()  # «наше не надо» rules the group out (`_merge`)
    # «чили не хочу»: a filter the message rules out is not one it asks for
    asked = {
        name: None
        for name, value in followup.negated.items()
        if getattr(parsed.filters, name, None) == value
    }
    if asked:
        parsed = ParsedQuery(parsed.filters.model_copy(update=asked), parsed.matched)
    # Colour words («красное») name no wine; style words («просекко» → sparkling) may.
    ignore = [w for k, w in parsed.matched.items() if k != "wine_type" or _colour(parsed.filters)]
    ignore += style_words(plain)
    ids, used = index.match(without_negated(plain), ignore=ignore)
    named = (tuple(ids), tuple(used)) if ids else ((), ())
    similar = bool(SIMILAR.search(plain)) and bool(state.last_shown or ids)
    similar = similar or (len(ids) == 1 and bool(_LIKE_NAMED.search(plain)))  # «как Моэт, но…»
    if similar and len(ids) == 1:  # «похожее на Cloudy Bay»: its style, not that wine itself
        style = _style_of_named(index, ids)
        price = _price_of_named(index, ids)
        said = parsed.filters.price_min is not None or parsed.filters.price_max is not None
        if price is not None and not said and (followup.cheaper or followup.dearer):
            # «…, но дешевле»: than that wine
            bound = {"price_max": price - 1} if followup.cheaper else {"price_min": price + 1}
            style = style.model_copy(update=bound)
        parsed = ParsedQuery(style.merged_over(parsed.filters), {})
        state = replace(state, shown=tuple(dict.fromkeys((*state.shown, *ids))))
        ids, used, named = [], [], ((), ())
    elif similar and not ids:  # «а что-то похожее, но дешевле»: the style of what was shown
        parsed = ParsedQuery(_style_of(state.last_shown).merged_over(parsed.filters), {})
    if followup.among_shown and state.last_shown:  # «а из них сухое какое?»
        shown_ids = tuple(w.id for w in state.last_shown)
        ids, used, named = list(shown_ids), ["показанные"], (shown_ids, ("показанные",))
    bare = parsed.filters.is_empty() and not ids and not group and not followup.changes
    if bare and state.topic and (topic := entry_by_id(state.topic)) is not None:
        # «а у вас есть?» after «что такое амароне?»: the wines of that topic.
        ids, used = index.match(" ".join((topic.title, *topic.keywords)))
        named = (tuple(ids), tuple(used)) if ids else ((), ())
        if not ids and topic.cards:
            parsed = ParsedQuery(WineFilters.model_validate(topic.cards), {})
    opener = _starts_as_refinement(text) or similar
    fresh = state.turns == 0 or (
        not opener
        and not followup.changes
        and (bool(ids) or is_new_request(plain, _with_group(parsed.filters, group), followup))
    )
    base = replace(state, topic="")
    if similar:
        base = replace(base, named_ids=(), named_words=(), named_now=False)
    if fresh:
        base = RequestState(shown=state.shown, last_shown=state.last_shown, turns=state.turns)
        if SAME_BUDGET.search(plain):  # «also a red wine, same budget»
            kept = {k: getattr(state.filters, k) for k in ("price_min", "price_max")}
            base = replace(base, filters=base.filters.model_copy(update=kept))
    choices = {  # «только брют, сладкое она не любит» is no choice of two
        name: chosen - {_text_of(followup.ruled_out.get(name))}
        for name, chosen in named_choices(plain).items()
    }
    if (single := choices.get("sweetness")) and len(single) == 1 and not parsed.filters.sweetness:
        # «только брют, сладкое она не любит»: the one left is asked for
        update = {"sweetness": Sweetness(next(iter(single)))}
        parsed = ParsedQuery(parsed.filters.model_copy(update=update), parsed.matched)
        followup = replace(followup, drier=False, sweeter=False)  # said, not a step
    choices = {name: chosen for name, chosen in choices.items() if len(chosen) >= 2}
    merged = _merge(base, plain, parsed.filters, followup, named, group, choices)
    if similar and "похожие" not in merged.refined:  # new wines like those, not the same again
        merged = replace(merged, refined=(*merged.refined, "похожие"))
    merged = _price_band(merged, text, parsed.filters, followup, percentiles)
    structured = not parsed.filters.is_empty() or bool(ids or group or followup.changes)
    mood = text.strip() if fresh and not structured else ("" if fresh else state.mood)
    return replace(merged, mood=mood, named_now=bool(ids), turns=state.turns + 1)


SIMILAR = re.compile(
    r"похож|аналог|в (том же|таком же) (стиле|духе)|что-то (в этом роде|такое же)|similar"
    r"|like (it|this|that|those)|something like|same (vibe|style|kind|feel)|в том же (стиле|духе)",
    re.IGNORECASE,
)


_THAN = re.compile(r"(?<![a-zа-яё])(чем|than)(?![a-zа-яё])", re.IGNORECASE)
# «как Моэт, только бюджетнее», «вроде Cloudy Bay»: one wine named as a measure, not asked for
_LIKE_NAMED = re.compile(
    r"(?:^|[\s,])(?:как|вроде|типа|наподобие|в духе|в стиле)\s+(?!насч|бы\b|вы\b|у\b)\S+.*"
    r"(?:,|\s)(?:но|только|а)\s",
    re.IGNORECASE,
)


def _style_of(shown: Sequence[ShownWine]) -> WineFilters:
    """What the wines just shown share: type and sweetness (a grape or a country of theirs is
    what «похожее» usually wants changed)."""
    values: dict[str, Any] = {}
    if len({w.wine_type for w in shown}) == 1:
        values["wine_type"] = shown[0].wine_type
    if len({w.sweetness for w in shown}) == 1:
        values["sweetness"] = shown[0].sweetness
    return WineFilters.model_validate(values)


def _shared_grapes(shown: Sequence[ShownWine]) -> set[str]:
    """The grape every wine shown is made of, if there is one."""
    grapes = [set(w.grapes) for w in shown]
    return set.intersection(*grapes) if grapes else set()


def _text_of(value: object) -> str:
    return str(value.value) if isinstance(value, (WineType, Sweetness)) else str(value)


def _with_group(filters: WineFilters, group: tuple[str, ...]) -> WineFilters:
    """The filters with a group of countries counted as a place («что-нибудь из Европы»)."""
    return filters.model_copy(update={"country": group[0]}) if group else filters


def _style_of_named(index: CatalogIndex, ids: Sequence[object]) -> WineFilters:
    """What the wines a message names share (type and sweetness, and the grape of a
    single-grape wine: «похожее на Cloudy Bay» is another sauvignon blanc while one fits),
    from the catalog's index."""
    styles = {index.styles.get(i) for i in ids}
    if len(styles) != 1 or not (style := styles.pop()) or len(style) < 2:
        return WineFilters()
    grape = style[2] if len(style) > 2 and style[2] else None
    return WineFilters(
        wine_type=WineType(style[0]), sweetness=Sweetness(style[1]), grape_variety=grape
    )


def _price_of_named(index: CatalogIndex, ids: Sequence[object]) -> Decimal | None:
    style = index.styles.get(ids[0]) if len(ids) == 1 else None
    return Decimal(style[3]) if style and len(style) > 3 else None


def _price_band(
    state: RequestState,
    text: str,
    parsed: WineFilters,
    followup: FollowUp,
    percentiles: dict[float, Decimal] | None,
) -> RequestState:
    """A price word without a number («недорогое», «на подарок начальнику») as a band of the
    catalog's prices; a number in the message wins, and «подешевле» after wines were shown
    stays «cheaper than those»."""
    band = read_price_band(text)
    if band is None or not percentiles or parsed.price_min or parsed.price_max:
        return state
    if (followup.cheaper or followup.dearer) and state.last_shown and state.refined:
        return state
    low, high = band_bounds(band, percentiles)
    filters = state.filters.model_copy(update={"price_min": low, "price_max": high})
    asked = tuple(
        dict.fromkeys(
            (*state.asked_now, *(n for n, v in (("price_min", low), ("price_max", high)) if v))
        )
    )
    refined = tuple(r for r in state.refined if r not in ("дешевле", "дороже"))
    return replace(state, filters=filters, asked_now=asked, refined=refined)


def _turns(history: Sequence[dict[str, Any]]) -> list[tuple[str | None, list[uuid.UUID]]]:
    """(the person's message, the wine ids answered) for each stored turn, oldest first."""
    turns: list[tuple[str | None, list[uuid.UUID]]] = []
    pending: str | None = None
    for message in history:
        role = message.get("role")
        if role == "user":
            if pending is not None:
                turns.append((pending, []))
            pending = str(message.get("content") or "")
        elif role == "assistant" and not message.get("tool_calls"):
            ids = [uuid.UUID(m) for m in _WINE_MARKER.findall(message.get("content") or "")]
            turns.append((pending, ids))
            pending = None
    if pending is not None:
        turns.append((pending, []))
    return turns


def _shown(wine: Wine) -> ShownWine:
    return ShownWine(
        wine.id,
        wine.price_rub,
        wine.sweetness,
        wine.body,
        wine.wine_type,
        tuple(wine.grape_varieties),
    )


def ids_in_answers(history: Sequence[dict[str, Any]]) -> set[uuid.UUID]:
    return {i for _, ids in _turns(history) for i in ids}


async def conversation_state(
    sessions: async_sessionmaker[AsyncSession], history: Sequence[dict[str, Any]], text: str
) -> RequestState:
    """The state the current message leaves the conversation in."""
    turns = _turns(history)
    all_ids = list(dict.fromkeys(i for _, ids in turns for i in ids))
    async with sessions() as session:
        repo = WineRepository(session)
        known = {w.id: w for w in await repo.get_by_ids(all_ids)} if all_ids else {}
        index = await catalog_index(repo)
        percentiles = await catalog_percentiles(repo)
    state = RequestState()
    for message, ids in turns:
        # A question about wine, small talk or off-topic leaves the request as it was; a
        # question's topic is kept for a request about it («а у вас есть?»).
        if message is not None and _is_request(message):
            state = read_turn(state, message, index, percentiles)
        elif message is not None and (entry := read_message(message).entry) is not None:
            state = replace(state, topic=entry.id)
        if ids:
            shown = tuple(_shown(known[i]) for i in ids if i in known)
            state = replace(
                state, shown=tuple(dict.fromkeys((*state.shown, *ids))), last_shown=shown
            )
    if not _is_request(text):
        return replace(state, refined=(), asked_now=(), named_now=False)
    return read_turn(state, text, index, percentiles)


def _is_request(text: str) -> bool:
    return read_message(text).kind is MessageKind.request
