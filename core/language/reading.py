"""A message read once: what it is, what it asks for, what it changes in the request before.

A turn reads its message here, once, and hands the `Reading` to everything that needs its
words: the conversation state, the wines chosen, the offline and catalog-slice answers, the
checks of the model's prose, the fixed answers. In this order:

1. the social words come off (`social`): «привет!», «спасибо» around the message proper;
2. the message proper is read for its conditions (`request.parse_query`; country groups and
   price words have readers of their own: `world`, `price_bands`), for what it changes in the
   request before (`followups`) and for a price word; its words are weighed against the
   knowledge base when first asked for (`knowledge.Question`);
3. what the message is (`kinds`), from those readings;
4. a request is also read with the catalog's own words (`catalog_terms.CatalogIndex`): the
   shop's dishes and the wines it names (`Asked`).

Parts of a message are read on their own where a reader needs them (the words after «без», a
clause that asks what something is); the message itself is never read twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.domain import WineFilters, WineType
from core.language.about_shown import asks_food_of_shown, points_at_one, points_at_shown
from core.language.catalog_terms import CatalogIndex
from core.language.claims import read_claims
from core.language.followups import (
    FollowUp,
    asks_similar,
    compares,
    keeps_budget,
    measures_by_named,
    opens_as_refinement,
    read_followup,
    without_step_measure,
    word_count,
)
from core.language.intent import asks_for_wine
from core.language.kinds import MessageKind, MessageReading, Proper, read_kind
from core.language.knowledge import KnowledgeEntry, Question
from core.language.negation import without_negated
from core.language.price_bands import PriceBand, read_price_band, without_price_words
from core.language.request import (
    ParsedQuery,
    implied_wine_type,
    named_choices,
    parse_query,
    region_from_text,
    style_words,
)
from core.language.social import split_social
from core.language.typos import split_glued, step_words_spelt
from core.language.world import countries_of_group, without_group

_COLOURS = (WineType.red, WineType.white, WineType.rose)
# «сухое вино, а мокрое — шутка)», «just kidding»: the person says it is a joke
_JOKE = re.compile(
    r"(?<![a-zа-яё])(?:шутк[аиуе]|шучу|шутю|шуточн\w*|прикалываюсь|прикол\w*|kidding|jk"
    r"|just joking|a joke)(?![a-zа-яё])"
)


@dataclass(frozen=True)
class Asked:
    """What a request asks for, read with the catalog's own words."""

    # Its filters, with a dish of the shop's own pairings («к хачапури») and the colour a word
    # implies; a filter the message rules out («чили не хочу») is not one it asks for.
    query: ParsedQuery
    countries: tuple[str, ...]  # any of these (a group: «Новый Свет»), unless ruled out
    named_ids: tuple[object, ...]  # catalog wines its words name (кьянти, просекко)
    named_words: tuple[str, ...]
    similar: bool  # «похожее», «что-то в этом роде», «как Моэт, но …»
    compares: bool  # «уровнем выше, чем просекко»: a wine named is a measure, not a pick
    choices: dict[str, frozenset[str]]  # «белое или розовое»: any of these colours/sweetness
    same_budget: bool  # «в том же бюджете»
    opens_as_refinement: bool  # «а …», «what about …»
    words: int  # how many words it has


@dataclass(frozen=True)
class Reading:
    text: str  # the message as written
    proper: str  # the message without its greetings and thanks
    message: MessageReading  # what it is: a request, a wine question, small talk…
    query: ParsedQuery  # the conditions its words name
    followup: FollowUp  # what it changes in the request before
    price_band: PriceBand | None  # a price word without a number («недорогое»)
    countries: tuple[str, ...]  # a group of countries it names («Новый Свет»)
    question: Question  # its words as the knowledge base weighs them
    asked: Asked | None = None  # a request, read with the catalog's words

    @property
    def kind(self) -> MessageKind:
        return self.message.kind

    @property
    def is_request(self) -> bool:
        return self.message.kind is MessageKind.request

    @property
    def entry(self) -> KnowledgeEntry | None:
        return self.message.entry

    @property
    def entries(self) -> tuple[KnowledgeEntry, ...]:
        """The knowledge entries sure enough to answer from, best first."""
        return self.question.entries

    @property
    def asks_for_wine(self) -> bool:
        """Picks are asked for, not a general word: a verb of choosing, a budget, a dish, a
        grape."""
        return asks_for_wine(self.text, self.query.filters)


def read(text: str, index: CatalogIndex | None = None) -> Reading:
    """The message read once; with the catalog's `index`, a request's names and dishes too."""
    text = split_glued(text)  # «белоесухое дотысячи», typed without the spaces
    text = step_words_spelt(text)  # «а подишевле?»
    split = split_social(text)
    proper = split.rest or text
    countries = countries_of_group(proper)
    plain = without_step_measure(without_price_words(without_group(proper)))
    query = parse_query(plain)
    followup = read_followup(without_price_words(proper))  # «не очень дорогое» rules nothing out
    band = read_price_band(proper)
    question = Question(proper)
    message = read_kind(text, split, Proper(query, followup, band, question, countries))
    if index is not None and _names_a_wine_only(message, plain, index):
        # «kindzmarauli?», «а casillero сколько?»: a name of the shop's own, not off-topic
        message = MessageReading(MessageKind.request, text=message.text)
    joke = message.kind is MessageKind.request and bool(_JOKE.search(text.lower()))
    if joke and not followup.changes and not asks_for_wine(proper, query.filters):
        # a joke about wine asks for none: no verb of choosing, budget, dish or grape
        message = MessageReading(MessageKind.smalltalk, social="ack", text=message.text)
    asked = None
    if index is not None and message.kind is MessageKind.request:
        asked = _asked(proper, plain, query, followup, countries, index)
    return Reading(text, proper, message, query, followup, band, countries, question, asked)


def _names_a_wine_only(message: MessageReading, plain: str, index: CatalogIndex) -> bool:
    """Off-topic by its words alone, yet naming a wine of the catalog in its own Latin letters
    (no dictionary knows «Casillero»), in a few words."""
    if message.kind is not MessageKind.offtopic or message.health or word_count(plain) > 8:
        return False
    ids, used = index.match(plain)
    # a name in Latin letters, not a Russian word that sounds like one («чемпионат мира»)
    return bool(ids) and all(w.isascii() for w in used)


def about_shown(reading: Reading, index: CatalogIndex) -> Reading | None:
    """A message about the wines just shown («чем они отличаются?», «к ним что приготовить?»,
    «первое звучит интересно, к чему оно?»), read as a request among them — the same cards
    again (or the one it points at) — when it asks nothing else: no new condition, no health
    or manipulation."""
    message = reading.message
    if message.kind is MessageKind.manipulation or message.health:
        return None
    if (pick := points_at_shown(reading.proper)) is None:
        return None
    one = points_at_one(reading.proper)
    if one and message.entry is not None and not asks_food_of_shown(reading.proper):
        return None  # «его надо охлаждать?»: the reviewed answer says more than the cards
    # «оно сладкое?», «а это сухое?»: whether the wine shown is so, not a wish for such a wine
    whether = one and "?" in reading.proper and word_count(reading.proper) <= 4
    asked = reading.asked
    if not whether and (
        not reading.query.filters.is_empty()
        or reading.countries
        or reading.followup.changes
        or (asked is not None and (asked.named_ids or not asked.query.filters.is_empty()))
    ):
        return None  # «а из них сухое?», «они подходят к рыбе, как рислинг?»: a condition
    followup = replace(reading.followup, among_shown=True, shown_pick=pick)
    plain = without_price_words(without_group(reading.proper))
    request = MessageReading(MessageKind.request, text=reading.proper)
    query = ParsedQuery(WineFilters(), {}) if whether else reading.query
    asked = _asked(reading.proper, plain, query, followup, (), index)
    return replace(reading, message=request, followup=followup, asked=asked)


def _asked(
    proper: str,
    plain: str,
    query: ParsedQuery,
    followup: FollowUp,
    countries: tuple[str, ...],
    index: CatalogIndex,
) -> Asked:
    filters = query.filters
    dish = index.food(plain)
    said = filters.food_pairing
    # «к хачапури»; «к колбаскам гриль»: a pairing of the shop's own said whole, over the
    # table's reading of one of its words («гриль» → барбекю) when that is no word of it
    whole = dish is not None and said is not None and " " in dish and said not in dish
    if dish is not None and (said is None or whole):
        filters = filters.model_copy(update={"food_pairing": dish})
    if filters.wine_type is None and (implied := implied_wine_type(plain)) is not None:
        filters = filters.model_copy(update={"wine_type": implied})
    if countries and followup.negated.get("countries") == countries:
        countries = ()  # «наше не надо» rules the group out
    ruled_out = {
        name: None
        for name, value in followup.negated.items()
        if getattr(filters, name, None) == value
    }
    filters = filters.model_copy(update=ruled_out) if ruled_out else filters
    # Colour words («красное») name no wine; style words («просекко» → sparkling) may.
    colour = filters.wine_type in _COLOURS
    ignore = [w for k, w in query.matched.items() if k != "wine_type" or colour]
    ignore += style_words(plain)
    if filters.region is not None:  # «Крым… крымское»: every word of the region is the region
        ignore += [w for w in plain.split() if region_from_text(w) == filters.region]
    ids, used = index.match(without_negated(plain), ignore=ignore)
    return Asked(
        ParsedQuery(filters, query.matched),
        countries,
        tuple(ids),
        tuple(used) if ids else (),
        asks_similar(plain) or (len(ids) == 1 and measures_by_named(plain)),
        compares(plain),
        named_choices(plain),
        keeps_budget(plain),
        opens_as_refinement(proper),
        word_count(plain),
    )


def prepare() -> None:
    """Build what reading a message needs once (the dictionary, the knowledge index: the slow
    part of a first question), so that a serving process does it at start rather than then."""
    read("что такое танины и какое красное вино к стейку до 2000 посоветуешь?")
    # and the claims reader's tables: the terms of the trade, names by their sound
    read_claims("Его делает Vega Sicilia из Риохи, урожай 2019 года, с долей мукузани.")
