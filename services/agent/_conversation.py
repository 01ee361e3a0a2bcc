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
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import Sweetness, WineFilters, WineType
from core.language.catalog_terms import CatalogIndex
from core.language.followups import FollowUp, is_new_request
from core.language.knowledge import entry_by_id
from core.language.price_bands import PriceBand, band_bounds
from core.language.reading import Reading, read
from core.language.request import ParsedQuery
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._catalog_index import catalog_index
from services.agent._catalog_percentiles import catalog_percentiles
from services.agent._request_state import RequestState, ShownWine

_WINE_MARKER = re.compile(r"\[WINE:([0-9a-fA-F-]{36})\]")
_SWEETNESS_ORDER = (Sweetness.dry, Sweetness.semi_dry, Sweetness.semi_sweet, Sweetness.sweet)
# Wine types whose grapes/places do not carry over to another colour.
_STYLE_TYPES = (WineType.sparkling, WineType.dessert, WineType.fortified)


def _step(current: Sweetness, delta: int) -> Sweetness:
    index = _SWEETNESS_ORDER.index(current) + delta
    return _SWEETNESS_ORDER[max(0, min(len(_SWEETNESS_ORDER) - 1, index))]


def _merge(
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
    reading: Reading,
    index: CatalogIndex,
    percentiles: dict[float, Decimal] | None = None,
) -> RequestState:
    """The state after one request (without the wines it is answered with); `reading` was
    read with the catalog's `index`."""
    asked = reading.asked
    if asked is None:
        raise ValueError("a request is merged as read with the catalog's words")
    parsed, followup, group = asked.query, reading.followup, asked.countries
    ids, used = list(asked.named_ids), list(asked.named_words)
    named = (asked.named_ids, asked.named_words) if ids else ((), ())
    similar = asked.similar and bool(state.last_shown or ids)
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
    opener = asked.opens_as_refinement or similar
    fresh = state.turns == 0 or (
        not opener
        and not followup.changes
        and (bool(ids) or is_new_request(_with_group(parsed.filters, group), followup, asked.words))
    )
    base = replace(state, topic="")
    if similar:
        base = replace(base, named_ids=(), named_words=(), named_now=False)
    if fresh:
        base = RequestState(shown=state.shown, last_shown=state.last_shown, turns=state.turns)
        if asked.same_budget:  # «also a red wine, same budget»
            kept = {k: getattr(state.filters, k) for k in ("price_min", "price_max")}
            base = replace(base, filters=base.filters.model_copy(update=kept))
    choices = {  # «только брют, сладкое она не любит» is no choice of two
        name: chosen - {_text_of(followup.ruled_out.get(name))}
        for name, chosen in asked.choices.items()
    }
    if (single := choices.get("sweetness")) and len(single) == 1 and not parsed.filters.sweetness:
        # «только брют, сладкое она не любит»: the one left is asked for
        update = {"sweetness": Sweetness(next(iter(single)))}
        parsed = ParsedQuery(parsed.filters.model_copy(update=update), parsed.matched)
        followup = replace(followup, drier=False, sweeter=False)  # said, not a step
    choices = {name: chosen for name, chosen in choices.items() if len(chosen) >= 2}
    merged = _merge(base, parsed.filters, followup, named, group, choices, asked.compares)
    if similar and "похожие" not in merged.refined:  # new wines like those, not the same again
        merged = replace(merged, refined=(*merged.refined, "похожие"))
    merged = _price_band(merged, reading.price_band, parsed.filters, followup, percentiles)
    structured = not parsed.filters.is_empty() or bool(ids or group or followup.changes)
    mood = reading.proper.strip() if fresh and not structured else ("" if fresh else state.mood)
    return replace(merged, mood=mood, named_now=bool(ids), turns=state.turns + 1)


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
    band: PriceBand | None,
    parsed: WineFilters,
    followup: FollowUp,
    percentiles: dict[float, Decimal] | None,
) -> RequestState:
    """A price word without a number («недорогое», «на подарок начальнику») as a band of the
    catalog's prices; a number in the message wins, and «подешевле» after wines were shown
    stays «cheaper than those»."""
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


@dataclass(frozen=True)
class Conversation:
    """A turn's start: its message read once, and the request in force after it."""

    reading: Reading
    state: RequestState


async def read_conversation(
    sessions: async_sessionmaker[AsyncSession], history: Sequence[dict[str, Any]], text: str
) -> Conversation:
    """The message read once, and the state it leaves the conversation in (rebuilt from the
    thread's earlier messages, each read once)."""
    turns = _turns(history)
    all_ids = list(dict.fromkeys(i for _, ids in turns for i in ids))
    async with sessions() as session:
        repo = WineRepository(session)
        known = {w.id: w for w in await repo.get_by_ids(all_ids)} if all_ids else {}
        index = await catalog_index(repo)
        percentiles = await catalog_percentiles(repo)
    state = RequestState()
    for message, ids in turns:
        if message is not None:
            state = _after(state, read(message, index), index, percentiles)
        if ids:
            shown = tuple(_shown(known[i]) for i in ids if i in known)
            state = replace(
                state, shown=tuple(dict.fromkeys((*state.shown, *ids))), last_shown=shown
            )
    reading = read(text, index)
    if reading.is_request:
        state = read_turn(state, reading, index, percentiles)
    else:
        state = replace(state, refined=(), asked_now=(), named_now=False)
    return Conversation(reading, state)


def _after(
    state: RequestState,
    reading: Reading,
    index: CatalogIndex,
    percentiles: dict[float, Decimal] | None,
) -> RequestState:
    """A request moves the state on; a question about wine, small talk or off-topic leaves the
    request as it was, and a question's topic is kept for a request about it («а у вас
    есть?»)."""
    if reading.is_request:
        return read_turn(state, reading, index, percentiles)
    if reading.entry is not None:
        return replace(state, topic=reading.entry.id)
    return state
