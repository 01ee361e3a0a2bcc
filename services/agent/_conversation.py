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
from core.language.reading import Reading, about_shown, read
from core.language.request import ParsedQuery, sweet_at_large
from core.language.wine_names import asked_for_by_name
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._catalog_index import catalog_index
from services.agent._catalog_percentiles import catalog_percentiles
from services.agent._pooled_reads import read_wines
from services.agent._request_merge import merge
from services.agent._request_state import RequestState, ShownWine

_STYLE_FIELDS = frozenset({"sweetness", "grape_variety"})
_WINE_MARKER = re.compile(r"\[WINE:([0-9a-fA-F-]{36})\]")


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
    # «есть амароне?» — «дорого»: a price step from the wines named is a wine of their kind
    # (not «а подешевле от них же?», which keeps the maker)
    priced_like = not similar and bool(
        not ids
        and state.named_ids
        and state.last_shown
        and (followup.cheaper or followup.dearer)
        and not followup.same_maker
    )
    similar = similar or priced_like
    if similar and len(ids) == 1:  # «похожее на Cloudy Bay»: its style, not that wine itself
        style = _style_of_named(index, ids)
        price = _price_of_named(index, ids)
        said = parsed.filters.price_min is not None or parsed.filters.price_max is not None
        if price is not None and not said and (followup.cheaper or followup.dearer):
            # «…, но дешевле»: than that wine
            bound = {"price_max": price - 1} if followup.cheaper else {"price_min": price + 1}
            style = style.model_copy(update=bound)
        parsed = ParsedQuery(_like(style, parsed.filters, followup), {})
        state = replace(state, shown=tuple(dict.fromkeys((*state.shown, *ids))))
        ids, used, named = [], [], ((), ())
    elif similar and not ids:  # «а что-то похожее, но дешевле»: the style of what was shown
        style = _style_of(state.last_shown)
        if priced_like:  # of its kind: the sweetness and grape were the name's, not asked
            style = style.model_copy(update={"grape_variety": None, "sweetness": None})
        parsed = ParsedQuery(_like(style, parsed.filters, followup), {})
    if followup.among_shown and state.last_shown:  # «а из них сухое какое?»
        shown_ids = tuple(w.id for w in state.last_shown)
        if followup.shown_pick and abs(followup.shown_pick) > len(shown_ids):
            shown_ids = tuple(w.id for w in state.listed) or shown_ids  # «а третье?» after one
        if followup.shown_pick and abs(followup.shown_pick) <= len(shown_ids):  # «первое»
            place = followup.shown_pick
            shown_ids = (shown_ids[place - 1 if place > 0 else place],)
        ids, used, named = list(shown_ids), ["показанные"], (shown_ids, ("показанные",))
    bare = parsed.filters.is_empty() and not ids and not group and not followup.changes
    if bare and state.topic and (topic := entry_by_id(state.topic)) is not None:
        # «а у вас есть?» after «что такое амароне?»: the wines of that topic.
        ids, used = index.match(" ".join((topic.title, *topic.keywords)))
        named = (tuple(ids), tuple(used)) if ids else ((), ())
        if not ids and topic.cards:
            parsed = ParsedQuery(WineFilters.model_validate(topic.cards), {})
    opener = asked.opens_as_refinement or similar
    # «а Château Margaux есть?» that the shop lacks: the request in force is still what fits
    missing = "" if ids else _missing_name(reading.proper, index)
    new = bool(ids) or is_new_request(_with_group(parsed.filters, group), followup, asked.words)
    fresh = state.turns == 0 or (
        not opener and not followup.changes and new and not (missing and parsed.filters.is_empty())
    )
    base = replace(state, topic="")
    if similar:
        base = replace(base, named_ids=(), named_words=(), named_now=False)
    if fresh:
        base = RequestState(
            shown=state.shown, last_shown=state.last_shown, listed=state.listed, turns=state.turns
        )
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
    if followup.not_sweet and parsed.filters.sweetness is None and "sweetness" not in choices:
        # «только не сладкое»: dry or semi-dry, said rather than a step from the wines shown;
        # «кисловато, но не приторное»: between the two, short of sweet
        low = Sweetness.semi_sweet if followup.sweeter else Sweetness.dry
        choices["sweetness"] = frozenset({low.value, Sweetness.semi_dry.value})
        followup = replace(followup, drier=False, sweeter=False)
    stepped = followup.drier or followup.sweeter  # «less sweet»: a step, not a style asked
    if "sweetness" not in choices and not stepped and sweet_at_large(parsed, reading.proper):
        # «она любит сладкое»: a semi-sweet wine is sweet to her too
        choices["sweetness"] = frozenset({Sweetness.semi_sweet.value, Sweetness.sweet.value})
        parsed = ParsedQuery(parsed.filters.model_copy(update={"sweetness": None}), parsed.matched)
    merged = merge(base, parsed.filters, followup, named, group, choices, asked.compares)
    if similar and "похожие" not in merged.refined:  # new wines like those, not the same again
        merged = replace(merged, refined=(*merged.refined, "похожие"))
    if similar:
        # the style's sweetness and grape are a likeness, not words of this message:
        # given up before what it says («такое же, но белое» after a red to duck keeps the duck)
        own = asked.query.filters.model_dump(exclude_none=True)
        asked_now, said_now = (
            tuple(n for n in names if n in own or n not in _STYLE_FIELDS)
            for names in (merged.asked_now, merged.said_now)
        )
        merged = replace(merged, asked_now=asked_now, said_now=said_now)
    merged = _price_band(merged, reading.price_band, parsed.filters, followup, percentiles)
    if asked.same_budget and not fresh:  # «в ту же сумму»: the budget is said again
        kept = [n for n in ("price_min", "price_max") if getattr(merged.filters, n) is not None]
        merged = replace(merged, said_now=tuple(dict.fromkeys((*merged.said_now, *kept))))
    structured = not parsed.filters.is_empty() or bool(ids or group or followup.changes or choices)
    mood = reading.proper.strip() if fresh and not structured else ("" if fresh else state.mood)
    if parsed.filters.food_pairing:  # «к торту»: the person's word, to rank by
        dish_said = parsed.matched.get("food_pairing", "")
    elif merged.filters.food_pairing == state.filters.food_pairing:
        dish_said = state.dish_said
    else:
        dish_said = ""
    return replace(
        merged,
        mood=mood,
        named_now=bool(ids),
        turns=state.turns + 1,
        missing_name=missing,
        dish_said=dish_said,
    )


def _missing_name(text: str, index: CatalogIndex) -> str:
    """The wine the message asks for by a name the catalog has none of."""
    name = asked_for_by_name(text)
    return name if name and not index.match(name)[0] else ""


def _style_of(shown: Sequence[ShownWine]) -> WineFilters:
    """What the wines just shown share: type and sweetness, and the one grape when every one
    of them is that single grape («похожее» after a sauvignon blanc is another while one fits,
    as after a wine named). A blend's grapes or a country are what «похожее» leaves open."""
    values: dict[str, Any] = {}
    if len({w.wine_type for w in shown}) == 1:
        values["wine_type"] = shown[0].wine_type
    if len({w.sweetness for w in shown}) == 1:
        values["sweetness"] = shown[0].sweetness
    if shown and len(grapes := {w.grapes for w in shown}) == 1 and len(shown[0].grapes) == 1:
        values["grape_variety"] = grapes.pop()[0]
    return WineFilters.model_validate(values)


def _like(style: WineFilters, said: WineFilters, followup: FollowUp) -> WineFilters:
    """A wine like `style` with what the message says taking its place; «такое же, но
    белое» is the request in force in another colour (a red's sweetness and grape say nothing
    of a white), «другой сорт» the style without its grape."""
    if said.wine_type is not None and said.wine_type != style.wine_type:
        return said
    if followup.other_grape:
        style = style.model_copy(update={"grape_variety": None})
    return said.merged_over(style)


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
    budget = high if high is not None else state.budget
    return replace(state, filters=filters, asked_now=asked, refined=refined, budget=budget)


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
        known = {w.id: w for w in await read_wines(sessions, repo, all_ids)} if all_ids else {}
        index = await catalog_index(repo)
        percentiles = await catalog_percentiles(repo)
    state = RequestState()
    for message, ids in turns:
        if message is not None:
            state = _after(state, _read_in(state, message, index), index, percentiles)
        if ids:
            shown = tuple(_shown(known[i]) for i in ids if i in known)
            state = replace(
                state,
                shown=tuple(dict.fromkeys((*state.shown, *ids))),
                last_shown=shown,
                listed=shown if len(shown) > 1 else state.listed,
            )
    reading = _read_in(state, text, index)
    if reading.is_request:
        state = read_turn(state, reading, index, percentiles)
    else:
        state = replace(state, refined=(), asked_now=(), named_now=False)
    return Conversation(reading, state)


def _read_in(state: RequestState, text: str, index: CatalogIndex) -> Reading:
    """A message read in its conversation: one about the wines just shown («чем они
    отличаются?») asks for them again."""
    reading = read(text, index)
    if state.last_shown and (pointed := about_shown(reading, index)) is not None:
        return pointed
    return reading


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
