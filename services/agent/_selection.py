"""Wines for a conversation state without a model: the offline answer and the prompt slices.

Order of evidence: wines the request names (кьянти, просекко) → structured filters (relaxed
least-important first when nothing fits) → the full-text index for moods («с ягодными
нотами») → the taste profile and the day → balanced picks. Wines already shown in the
conversation are left out unless the person names them.

The shop's boost and bury rules (core/shop_picks.py) re-order only wines that meet every
condition of the request: never relaxed ones, and never against an order the person asked
for («самое дешёвое», «подешевле»).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from core.domain import Sweetness, WineFilters, WineType
from core.language.catalog_terms import query_words
from core.language.foods import dish_head, dish_kind, names_dish
from core.language.vocabulary import STYLE_TYPES
from core.recommendation import MAX_WINES
from core.shop_picks import NO_PICKS, ShopPicks
from core.taste import price_ceiling, taste_score
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._request_in_force import welcome_untyped
from services.agent._request_state import RequestState
from services.agent._shop_picks import shop_picks

TYPICAL_PRICE = Decimal(2000)
POOL = 300
RELAXATION_ORDER = (
    "region",
    "body_min",
    "body_max",
    "grape_variety",
    "food_pairing",  # a dish may not suit a new colour («а белое?» after a steak)
    "sweetness",
    "price_min",
    "country",
    "price_max",
    "wine_type",  # a red where sparkling was asked for is the worst answer of all
)


@dataclass
class Selection:
    wines: list[Wine]
    source: str  # named | filters | text | profile | balanced
    relaxed: list[str] = field(default_factory=list)
    all_shown: bool = False  # everything that fits was already shown
    repeated: bool = False  # the wines are ones shown before: nothing new fits
    # «подешевле» (a direction of `_DIRECTIONS`), and nothing further that way fits: the wines
    # that go furthest that way
    nothing_further: str | None = None


# Conditions that may name what no wine of the catalog has at all (a dish, a grape, a region)
_UNKNOWN_FIRST = ("region", "grape_variety", "food_pairing")
# What may be given up to find new wines when every wine that fits was shown: never the
# colour, sweetness, country or price a person notices at once (`WineFilters.hard`).
SOFT_FILTERS = ("region", "body_min", "body_max", "grape_variety", "food_pairing")


def choose(
    wines: Sequence[Wine],
    filters: WineFilters,
    cheapest: bool = False,
    dearest: bool = False,
    picks: ShopPicks = NO_PICKS,
    dish_said: str = "",
) -> list[Wine]:
    """Best within the budget when there is one, else around a typical price; varied producers.
    Asked for no type, a person means a still wine: «пино нуар» is the red, not the sparkling
    made partly from it (a sparkling, dessert or fortified wine comes only when no still one
    fits). `picks`: the shop's rules, when every wine given meets the whole request."""
    if filters.wine_type is not None:
        return _choose(wines, filters, cheapest, dearest, picks, dish_said)
    still = [w for w in wines if welcome_untyped(w, filters)]
    if still:  # fewer cards rather than a sparkling or a port to fill them
        return _choose(still, filters, cheapest, dearest, picks, dish_said)
    return _choose(wines, filters, cheapest, dearest, picks, dish_said)


def _choose(
    wines: Sequence[Wine],
    filters: WineFilters,
    cheapest: bool,
    dearest: bool,
    picks: ShopPicks,
    dish_said: str = "",
) -> list[Wine]:
    if cheapest:
        ranked = sorted(wines, key=lambda w: (w.price_rub, w.slug))
    elif filters.price_max is not None or dearest:
        ranked = sorted(wines, key=lambda w: (-w.price_rub, w.slug))
    else:
        target = filters.price_min or TYPICAL_PRICE
        ranked = sorted(wines, key=lambda w: (abs(w.price_rub - target), w.slug))
        if len(ranked) > MAX_WINES:
            # the dearest wine that fits is kept for «а подороже?», as a sommelier starts
            # within the range rather than at its top
            top = max(w.price_rub for w in ranked)
            ranked.sort(key=lambda w: w.price_rub == top)
    ranked = picks.rerank(ranked)
    if filters.food_pairing is not None and not (cheapest or dearest):
        # «к барбекю»: a wine paired with the barbecue itself before one paired with grilled
        # sausages (a dish of its kind); the price order stays within each.
        dish = filters.food_pairing
        ranked.sort(key=lambda w: not any(names_dish(p, dish) for p in w.food_pairings))
        if dish_said:  # «к торту»: a wine paired with a cake before one with other desserts
            ranked.sort(key=lambda w: not any(names_dish(p, dish_said) for p in w.food_pairings))
    chosen: list[Wine] = []
    for wine in ranked:
        if all(p.producer != wine.producer for p in chosen):
            chosen.append(wine)
        if len(chosen) == MAX_WINES:
            return chosen
    return chosen + [w for w in ranked if w not in chosen][: MAX_WINES - len(chosen)]


# «Самое дешёвое» names the end of the range: a wine more than this share dearer (or cheaper,
# for «самое дорогое») than the first is not among the cheapest.
EXTREME_SPREAD = Decimal("0.1")


def at_the_end(ranked: list[Wine]) -> list[Wine]:
    """The wines `choose` ranked from one end of the price range that are priced about as the
    first: «самое дешёвое белое» is the 600 ₽ and the 650 ₽ one, not the 800 ₽ one after them."""
    if not ranked:
        return ranked
    end = ranked[0].price_rub
    return [w for w in ranked if abs(w.price_rub - end) <= end * EXTREME_SPREAD]


def liked_style(profile: dict[str, Any]) -> tuple[WineType, Sweetness] | None:
    styles = profile.get("styles") or {}
    liked = [(n, k) for k, n in styles.items() if isinstance(n, int) and n > 0]
    if not liked:
        return None
    _, key = max(liked)
    wine_type, sweetness = key.split(":")
    return WineType(wine_type), Sweetness(sweetness)


async def _pool(repo: WineRepository, state: RequestState, filters: WineFilters) -> list[Wine]:
    wines = await repo.search(filters, limit=POOL)
    if state.named_ids:
        named = set(state.named_ids)
        wines = [w for w in wines if w.id in named]
    return [w for w in wines if state.admits(w)]


async def _structured(
    repo: WineRepository, state: RequestState, picks: ShopPicks = NO_PICKS
) -> Selection:
    shown = set(state.shown) - (set(state.named_ids) if state.named_now else set())
    filters = state.filters
    source = "named" if state.named_ids else "filters"
    pool = await _pool(repo, state, filters)
    if state.extreme and pool:  # «самое дешёвое»: the cheapest, shown before or not
        # The order the person asked for: the shop's rules do not apply to it.
        extreme = at_the_end(
            choose(pool, filters, state.extreme == "cheapest", state.extreme == "dearest")
        )
        return Selection(extreme, source, repeated=all(w.id in shown for w in extreme))
    # «а российский сухой рислинг есть?»: the still one of the grape again, not a sparkling
    # made partly from it to be new
    fresh = [w for w in _still_of_grape(pool, filters) if w.id not in shown]
    if fresh:
        return Selection(choose(fresh, filters, picks=picks, dish_said=state.dish_said), source)
    if pool:
        return await _all_shown(repo, state, pool, shown, picks)
    direction = next((d for d in state.refined if d in _DIRECTIONS), None)
    if direction is not None and state.last_shown and not _asked_bound(state, direction):
        further = await _nothing_further(repo, state, direction)
        if further.wines:
            return further
        # nothing fits that way even without the bound: a condition is given up instead
    if (widened := await _dish_widened(repo, state, shown, source)) is not None:
        return widened
    # Nothing in the catalog fits: give up the least important condition first, and what
    # this message asked for or said again («тоже до тысячи») last; the intro names it.
    said = {*state.asked_now, *state.said_now}
    order = sorted(RELAXATION_ORDER, key=lambda name: name in said)  # stable: in its order
    for name in _UNKNOWN_FIRST:
        value = getattr(filters, name)
        if value is not None and not await _pool(repo, state, WineFilters(**{name: value})):
            order.remove(name)  # «под плов» when no wine is paired with pilaf: the dish goes
            order.insert(0, name)  # first, not the colour and budget said before it
    cheaper = "дешевле" in state.refined
    if cheaper:  # nothing that cheap at all: the closest price in the same style comes first
        order.remove("price_max")
        order.insert(0, "price_max")
    relaxed: list[str] = []
    for name in [n for n in order if getattr(filters, n) is not None]:
        filters = filters.model_copy(update={name: _given_up(state, filters, name)})
        relaxed.append(name)
        fresh = await _unseen(repo, state, filters, shown)
        if fresh:
            closest = cheaper and "price_max" in relaxed
            if closest and state.last_shown:  # fewer cards rather than a dearer one
                below = min(w.price for w in state.last_shown)
                fresh = [w for w in fresh if w.price_rub < below] or fresh
            return Selection(choose(fresh, filters, cheapest=closest), source, relaxed)
    if state.named_ids:  # the named wines are all shown or gone: the rest of the request,
        # and the intro says the name was given up («а белое у них?» when they make none)
        rest = await _structured(repo, _without_names(state), picks)
        return replace(rest, relaxed=["named", *rest.relaxed]) if rest.wines else rest
    return Selection([], "filters", relaxed)


async def _dish_widened(
    repo: WineRepository, state: RequestState, shown: set[Any], source: str
) -> Selection | None:
    """Before any condition is given up, a dish nothing else asked fits widens: to its kind
    («белое к форели» → a white for fish, the dish said to be eased) or to the dish a pairing
    of several words is a kind of («осьминог на гриле»); the shop's rules do not re-order."""
    dish = state.filters.food_pairing
    if dish is None:
        return None
    for wider, eased, ranked_by in (
        (dish_kind(dish), True, state.dish_said),
        (dish_head(dish), False, dish),
    ):
        if wider is None or wider == dish:
            continue
        loose = state.filters.model_copy(update={"food_pairing": wider})
        fresh = await _unseen(repo, state, loose, shown)
        if fresh:
            wines = choose(fresh, loose, dish_said=ranked_by)
            return Selection(wines, source, ["food_pairing"] if eased else [])
    return None


def _given_up(state: RequestState, filters: WineFilters, name: str) -> Any:
    """What a condition becomes when it is given up: nothing, but a step's ceiling below the
    person's own budget («до 1500», then «подешевле» past the cheapest) gives back to it."""
    ceiling = filters.price_max
    if name == "price_max" and state.budget is not None and ceiling is not None:
        return state.budget if ceiling < state.budget else None
    return None


async def _all_shown(
    repo: WineRepository,
    state: RequestState,
    pool: list[Wine],
    shown: set[Any],
    picks: ShopPicks = NO_PICKS,
) -> Selection:
    """Every wine that fits was shown: new wines by giving up a soft condition only, else the
    fitting ones again («а сухое есть?» — yes, the one shown)."""
    filters = state.filters
    relaxed: list[str] = []
    # Only «ещё», «другие», «похожее» ask for new wines at the price of a condition, and never
    # one this message set («а из Крыма?») or says again («а ещё варианты к десерту?»):
    # otherwise the fitting ones again («under 5000» after three wines under 5000).
    more = "другие варианты" in state.refined or "похожие" in state.refined
    kept = {*state.asked_now, *state.said_now}
    soft = [n for n in SOFT_FILTERS if n not in kept] if more else []
    for name in [n for n in soft if getattr(filters, n) is not None]:
        filters = filters.model_copy(update={name: None})
        relaxed.append(name)
        fresh = await _unseen(repo, state, filters, shown)
        if fresh:
            return Selection(choose(fresh, filters), "filters", relaxed, all_shown=True)
    cheapest = "дешевле" in state.refined
    fitting = choose(pool, state.filters, cheapest, picks=NO_PICKS if cheapest else picks)
    return Selection(fitting, "filters", all_shown=True, repeated=True)


# A follow-up that moves one way («подешевле», «полегче», «посуше»): the bound it set, and how
# to rank the wines that fit everything else when nothing goes further that way.
_DIRECTIONS: dict[str, tuple[tuple[str, ...], Any]] = {
    "дешевле": (("price_max",), lambda w: w.price_rub),
    "дороже": (("price_min",), lambda w: -w.price_rub),
    "легче": (("body_max",), lambda w: w.body),
    "плотнее": (("body_min",), lambda w: -w.body),
    "суше": (("sweetness",), lambda w: _SWEETNESS.index(w.sweetness)),
    "слаще": (("sweetness",), lambda w: -_SWEETNESS.index(w.sweetness)),
}
_SWEETNESS = (Sweetness.dry, Sweetness.semi_dry, Sweetness.semi_sweet, Sweetness.sweet)


def _asked_bound(state: RequestState, direction: str) -> bool:
    """«Something cheaper? Under 1000»: the bound is the person's own, not only «than those»."""
    return any(bound in state.said_now for bound in _DIRECTIONS[direction][0])


async def _nothing_further(repo: WineRepository, state: RequestState, direction: str) -> Selection:
    """«Подешевле» (or «полегче», «посуше»…), and nothing further that way fits everything
    else: the wines that go furthest that way and still fit (never by dropping the colour,
    and never back the other way past what was shown). «Подороже» gives up the dish first: a
    dearer wine of the same style is what was asked, the same wines again are not; any step
    does when the dish fits nothing of the style at all (it was given up a turn before)."""
    dish = state.filters.food_pairing is not None
    if direction == "дороже" and dish and (found := await _beyond_the_dish(repo, state)):
        return found  # «а посолиднее?» after the dearest wines for the dish
    bounds, rank = _DIRECTIONS[direction]
    limit = max(rank(w) for w in state.last_shown)  # none worse that way than those shown
    filters = state.filters.model_copy(update=dict.fromkeys(bounds))
    furthest = _furthest(_still_of_grape(await _pool(repo, state, filters), filters), rank, limit)
    if not furthest and dish:
        # «а итальянское?» after a shashlik answer, then «а подешевле?»
        if found := await _beyond_the_dish(repo, state):
            return found
        loose = filters.model_copy(update={"food_pairing": None})
        furthest = _furthest(await _pool(repo, state, loose), rank, limit)
    return Selection(furthest, "filters", nothing_further=direction, repeated=bool(furthest))


async def _beyond_the_dish(repo: WineRepository, state: RequestState) -> Selection | None:
    """New wines of the step without the dish, the intro saying the dish was given up."""
    loose = state.filters.model_copy(update={"food_pairing": None})
    fresh = await _unseen(repo, state, loose, set(state.shown))
    return Selection(choose(fresh, loose), "filters", ["food_pairing"]) if fresh else None


async def _unseen(
    repo: WineRepository, state: RequestState, filters: WineFilters, shown: set[Any]
) -> list[Wine]:
    return [w for w in await _pool(repo, state, filters) if w.id not in shown]


def _still_of_grape(pool: list[Wine], filters: WineFilters) -> list[Wine]:
    """A grape asked with no type is its still wines while one fits («шардоне, подешевле» is
    no brut made partly from chardonnay)."""
    if filters.wine_type is not None or filters.grape_variety is None:
        return pool
    still = [w for w in pool if w.wine_type not in STYLE_TYPES]
    return still or pool


def _furthest(pool: list[Wine], rank: Any, limit: Any) -> list[Wine]:
    fitting = [w for w in pool if rank(w) <= limit]
    return sorted(fitting, key=lambda w: (rank(w), w.slug))[:MAX_WINES]


def _without_names(state: RequestState) -> RequestState:
    return replace(state, named_ids=(), named_words=(), named_now=False)


async def _by_text(repo: WineRepository, state: RequestState) -> list[Wine]:
    words = query_words(state.mood)
    if not words:
        return []
    found = await repo.text_search(" ".join(words), k=12)
    shown = set(state.shown)
    return [w for w in found if w.id not in shown and state.admits(w)]


async def _balanced(
    repo: WineRepository, state: RequestState, types: Sequence[WineType], picks: ShopPicks
) -> list[Wine]:
    chosen: list[Wine] = []
    shown = set(state.shown)
    for wine_type in dict.fromkeys([*types, WineType.red, WineType.white, WineType.sparkling]):
        candidates = await repo.search(WineFilters(wine_type=wine_type), limit=POOL)
        fresh = [w for w in candidates if w.id not in shown]
        chosen.extend(choose(fresh, WineFilters(), picks=picks)[:1])
        if len(chosen) == MAX_WINES:
            break
    return chosen


async def select_wines(
    repo: WineRepository,
    state: RequestState,
    profile: dict[str, Any] | None = None,
    day_types: Sequence[WineType] = (),
) -> Selection:
    picks = await shop_picks(repo.session)
    if state.structured:
        selection = await _structured(repo, state, picks)
        if selection.wines:
            return selection
    style = liked_style(profile or {})
    if state.mood:
        found = await _by_text(repo, state)
        if found:
            if profile:  # the same text matches, the person's taste first
                found.sort(key=lambda w: -taste_score(w, profile))
            return Selection(picks.rerank(found)[:MAX_WINES], "text")
    if style is not None:
        wine_type, sweetness = style
        ceiling = price_ceiling(profile)
        liked = await repo.search(
            WineFilters(wine_type=wine_type, sweetness=sweetness, price_max=ceiling), limit=POOL
        ) or await repo.search(WineFilters(wine_type=wine_type, sweetness=sweetness), limit=POOL)
        fresh = [w for w in liked if w.id not in set(state.shown)]
        if fresh:
            best = max(taste_score(w, profile) for w in fresh)
            fitting = [w for w in fresh if taste_score(w, profile) == best]
            chosen = choose(fitting, WineFilters(price_max=ceiling), picks=picks)
            return Selection(chosen, "profile")
    return Selection(await _balanced(repo, state, day_types, picks), "balanced")
