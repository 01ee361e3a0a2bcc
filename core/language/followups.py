"""Words that refine the previous request: cheaper, drier, another, «без …» (Russian, English).

Pure reading, no catalog: `read_followup` says which changes a message asks for; the
conversation state (services/agent/_conversation.py) applies them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.domain import WineFilters
from core.language.folding import fold
from core.language.giving_up import dropped_conditions
from core.language.lemmas import words_of
from core.language.negation import negated_filters
from core.language.price_steps import (
    has_cue,
    price_share,
    price_steps_as_words,
    steps_cheaper,
    steps_dearer,
)
from core.language.request import parse_query
from core.language.step_words import (
    CORRECTIONS,
    DRIER,
    FULLER,
    LEAD_INS,
    LIGHTER,
    MORE,
    OPENERS,
    SWEETER,
    complaint_steps,
    steps_away,
    without_complaint,
)
from core.language.subjects import offtopic_subject

_WORD = re.compile(r"[a-zа-яё]+")


@dataclass(frozen=True)
class FollowUp:
    """What a message changes in the request before it."""

    cheaper: bool = False
    dearer: bool = False
    drier: bool = False
    sweeter: bool = False
    lighter: bool = False
    fuller: bool = False
    more: bool = False
    refines: bool = False  # starts like a refinement («а белое?», «and from Spain?»)
    # Filters the message rules out («без Италии», «не красное»): name -> value.
    negated: dict[str, object] = field(default_factory=dict)
    # Conditions the message gives up («не обязательно французское», «from anywhere»).
    dropped: tuple[str, ...] = ()
    among_shown: bool = False  # «а из них сухое какое?», «which of those are dry?»
    extreme: str = ""  # «самое дешёвое белое»: "cheapest" or "dearest" of what fits
    # Everything the message rules out, before «не сладкое» becomes «посуше» (`negated` then
    # leaves it out): what no choice of values may include.
    ruled_out: dict[str, object] = field(default_factory=dict)
    other_grape: bool = False  # «то же, но другой сорт», «same vibe, different grape»
    # «не сладкое», «not sweet»: no sugar to speak of (dry or semi-dry), not a step drier
    # than the wines shown, as «не такое сладкое», «менее сладкое» are
    not_sweet: bool = False
    # «а его розовое?», «белое у них есть?», «their white»: the maker of the wines named before
    same_maker: bool = False
    shown_pick: int = 0  # «первое», «the second one»: that wine of the ones shown (1-based)
    # «вдвое дешевле», «за полцены», «в три раза дешевле»: the share of the price shown
    price_share: float | None = None

    @property
    def changes(self) -> bool:
        return any(
            (
                self.cheaper,
                self.dearer,
                self.drier,
                self.sweeter,
                self.lighter,
                self.fuller,
                self.more,
                bool(self.negated),
                bool(self.dropped),
                bool(self.extreme),
                self.other_grape,
            )
        )


def _fold(text: str) -> str:
    return " ".join(_WORD.findall(text.lower().replace("ё", "е")))


# «будем есть пасту», «у нас паста будет», «это на свадьбу, в подарок», «we're having lamb»:
# the meal or the occasion of the wine being chosen, added to the request in force
_STORY = re.compile(
    r"^(?:это|it s|it is|this is)\s|(?:^|\s)(?:будем|будут|буду) (?:есть|кушать|готовить|жарить"
    r"|подавать|запекать|отмечать|праздновать)"
    r"|(?:^|\s)у нас (?:будет|будут|на ужин|на обед|сегодня)?"
    r"|(?:^|\s)на (?:ужин|обед|горячее|стол) (?:будет|будут)|(?:^|\s)(?:готовлю|готовим|жарю|жарим"
    r"|запекаю|запекаем|подаю|подаем)\s|we re having|we ll have|we are having|we will have"
    r"|i m cooking|we re cooking|i am cooking|we are cooking"
    # «к нему будет курица», «подавать будем с уткой», «будет ещё сыр»: the meal of this wine
    r"|(?:^|\s)к (?:нему|ней|ним|этому|этой|этим)(?:\s|$)"
    r"|(?:^|\s)(?:есть|кушать|готовить|жарить|подавать|запекать) (?:будем|будут|буду)(?:\s|$)"
    r"|^(?:а |и )?(?:еще |ещё )?будет\s"
    # «рыба будет красная, лосось», «кстати, стейк будет из мраморной говядины»
    r"|^(?:(?:кстати|ну|а|и|да|ой|так|вообще) )*[а-я]+ (?:будет|будут)(?:\s|$)"
)
# «сладости бы побольше», «больше сахара хочется»; «поменьше сладости»
_SUGAR = r"(?:сахар|сладост|сладк|сладен)\w*"
_MORE_SUGAR = re.compile(
    rf"(?<![a-zа-я]){_SUGAR}(?: \w+)? (?:по)?больше(?![a-zа-я])"
    rf"|(?<![a-zа-я])(?:по)?больше(?: \w+)? {_SUGAR}"
)
_LESS_SUGAR = re.compile(
    rf"(?<![a-zа-я]){_SUGAR}(?: \w+)? (?:по)?меньше(?![a-zа-я])"
    rf"|(?<![a-zа-я])(?:по)?меньше(?: \w+)? {_SUGAR}"
)
_RICHER_TASTE = re.compile(r"(?<![a-zа-я])(?:по)?богаче (?:по |на )?вкус\w*")
# «остаточный сахар мне ни к чему», «никакого остаточного сахара»: less sugar, not the sweeter
# step «остаточный» would be
_NO_SUGAR = re.compile(
    r"(?<![a-zа-я])(?:остаточн\w* )?(?:сахар|сладост)\w*(?: \w+){0,2} (?:ни к чему|не нуж\w*"
    r"|не надо|не хочу|не люблю|лишн\w*)"
    r"|(?<![a-zа-я])(?:никак\w*|без) (?:остаточн\w* )?(?:сахар|сладост)\w*"
)
# «не дороже тысячи», «не дешевле 500»: a bound on the price, not «dearer» or «cheaper».
_PRICE_BOUND = re.compile(r"(?:^|\s)не (?:дороже|дешевле|больше|меньше)\b")


_AMONG_SHOWN = re.compile(
    r"(?:^|\s)(?:из них|из этих|из показанных|среди них|of (?:those|these|them)"
    r"|among (?:them|those))"
)
_SAME_MAKER = re.compile(
    r"(?:^|\s)(?:его|ее|их) (?:красн|бел|розов|игрист|сух|слад|полу|шипуч|розе|крепл)"
    r"|(?:^|\s)(?:у|от) (?:них|него|нее|этого производителя|того же производителя|этой винодельни)"
    r"(?:\s|$)|(?:same|that) (?:producer|winery|maker)|from them|(?:their|its) (?:red|white|ros"
    r"|sparkling|dry)"
)
# «не очень сладкое», «не слишком сладкое», «not too sweet»: a degree, so a step drier
_SWEET_DEGREE = re.compile(
    r"(?:очень|слишком|сильно|так\w*|приторн\w*|too|very|overly) (?:слад|sweet)"
)
_OTHER_GRAPE = re.compile(
    r"(?<![a-zа-я])(друг\w*|ин\w*|не так\w*) сорт|(different|another|other) (grape|variety)"
)
# «самое», «самых»: a form of «самый», not «самолёт» («билеты на самолёт дорогие»)
_MOST = r"сам(?:ый|ое|ая|ую|ые|ого|ой|ых|ым|ыми|ом|ому)(?![а-я])"
# «самое дешёвое белое», «cheapest red»: the end of the price range, not «cheaper than those».
_CHEAPEST = re.compile(
    rf"(?<![a-zа-я])(?<!не )({_MOST} (дешев|бюджетн|недорог)\w*|дешевле всего|подешевле всего"
    r"|cheapest|least expensive|most affordable|lowest[- ]priced)"
)
_DEAREST = re.compile(
    rf"(?<![a-zа-я])({_MOST} (дорог|элитн|роскошн|премиальн)\w*|дороже всего|most expensive"
    r"|priciest|dearest|top[- ]shelf)"
)


def _tells_story(text: str) -> bool:
    """The meal or occasion told, with no style of wine named («у нас паста будет»; not «у
    нас паста, нужно белое»: a request of its own)."""
    if not _STORY.search(_fold(text)):
        return False
    said = parse_query(text).filters
    return said.wine_type is None and said.sweetness is None and said.grape_variety is None


def _opens_as_refinement(words: list[str]) -> bool:
    if not words:
        return False
    if len(words) <= 3:
        return True
    lead = 0
    while lead < len(words) - 1 and words[lead] in LEAD_INS:
        lead += 1
    return words[lead] in OPENERS or words[lead] in CORRECTIONS


def read_followup(text: str) -> FollowUp:
    dropped = dropped_conditions(text)
    folded = price_steps_as_words(_PRICE_BOUND.sub(" ", _fold(text)))
    folded = _RICHER_TASTE.sub(" насыщеннее ", folded)  # «побогаче вкусом»: body, not price
    folded = _NO_SUGAR.sub(" посуше ", folded)
    folded = folded.replace("легкомысл", "несерьезн")  # «легкомысленно»: no wine's body
    extreme = "cheapest" if _CHEAPEST.search(folded) else ""
    extreme = "dearest" if not extreme and _DEAREST.search(folded) else extreme
    words = folded.split()
    negated = negated_filters(text)
    away, rest = steps_away(folded)
    away |= complaint_steps(folded)  # «сухое кажется кислым»: a step away from it
    stepped = has_cue(rest, DRIER) or bool(_LESS_SUGAR.search(folded)) or "drier" in away
    sweeter = has_cue(rest, SWEETER) or bool(_MORE_SUGAR.search(folded)) or "sweeter" in away
    # «слишком кисло, но не приторное»: sweeter than shown, short of sweet
    between = stepped and sweeter
    # «не кислое, ну сладенькое»: a wish for sweeter is never ruled out by the «не» before it
    drier = (stepped and not between) or (
        negated.get("sweetness") in ("sweet", "semi_sweet") and not sweeter
    )
    not_sweet = between or (
        negated.get("sweetness") == "sweet" and not stepped and not _SWEET_DEGREE.search(folded)
    )
    return FollowUp(
        cheaper=steps_cheaper(folded) and not extreme,
        price_share=price_share(folded),
        dearer=steps_dearer(folded) and not extreme,
        drier=drier,
        sweeter=sweeter,
        lighter=has_cue(rest, LIGHTER) or "lighter" in away,
        fuller=has_cue(rest, FULLER) or "fuller" in away,
        more=has_cue(folded, MORE),
        # «бюджет не ограничен», «страна не важна»: a condition given up is of the request
        refines=_opens_as_refinement(words) or _tells_story(text) or bool(dropped),
        negated={
            k: v
            for k, v in negated.items()
            if not (k == "sweetness" and drier)
            and k not in dropped
            and not (k == "countries" and "country" in dropped)
        },
        dropped=dropped,
        among_shown=bool(_AMONG_SHOWN.search(folded)),
        extreme=extreme,
        ruled_out=negated,
        other_grape=bool(_OTHER_GRAPE.search(folded)),
        not_sweet=not_sweet,
        same_maker=bool(_SAME_MAKER.search(folded)),
    )


_STYLE_FIELDS = {"wine_type", "sweetness", "body_min", "body_max"}


def is_new_request(filters: WineFilters, followup: FollowUp, word_count: int) -> bool:
    """A complete request of its own replaces the conversation's state.

    «красное сухое к стейку до 2000» is new; «а белое?», «подешевле», «из Испании?» refine, and
    so do a price, a place or a dish alone («what's under a thousand?», «что-нибудь из
    Европы», «к сырной тарелке с бри»).
    """
    if followup.changes or followup.refines:
        return False
    others = filters.model_copy(
        update={"price_min": None, "price_max": None, "country": None, "region": None}
    )
    said = others.model_dump(exclude_none=True)
    # a sweetness said in a longer message too («мама хочет полусладкое, чтоб всем зашло»); a
    # colour with more words is a request of its own («добрый день! хочу розовое на лето»)
    longest = 8 if said.keys() == {"sweetness"} else 6
    if said.keys() <= _STYLE_FIELDS and len(said) == 1 and word_count <= longest:
        return False  # «мне всё-таки сухой», «лучше полусладкое»: one trait of the same request
    if said.keys() == {"food_pairing"}:
        # «к запечённой курочке», «планы поменялись, будет азиатская еда»: a meal named with
        # no style of wine is the meal of the wine in force; its colour, sweetness and budget
        # stay (a colour with nothing for that meal is relaxed, and the answer says so)
        return False
    if said:
        return True
    if filters.country is not None or filters.region is not None:
        # «теперь что-нибудь из Европы», «up to 3k, but something French»: the place of what
        # was asked, unless it is a whole request of its own words
        return word_count > 8
    return filters.is_empty() and word_count > 3


def word_count(text: str) -> int:
    return len(_fold(text).split())


_SIMILAR = re.compile(
    r"похож|аналог|в (том же|таком же) (стиле|духе)|что-то (в этом роде|такое же)|similar"
    r"|like (it|this|that|those)|something like|same (vibe|style|kind|feel)|в том же (стиле|духе)"
    # «такое же, но подешевле», «что-нибудь подобное», «the same but cheaper»
    r"|(?<![а-я])так(ое|ой|ую|ие|ого|ая|им) же(?![а-я])|(?<![а-я])подобн"
    r"|в (этом|том|таком) же (роде|ключе)|(the )?same (one |thing |wine )?but|along those lines"
    # «в таком стиле», «в подобном духе», «такого плана»: the wines shown as a measure
    r"|в (таком|этом|том|подобном|похожем|их) (же )?(стил|дух|род|ключ|плане)"
    r"|(?<![а-я])(такого|этого|того|подобного) (же )?(плана|типа|рода|стиля|характера)",
    re.IGNORECASE,
)
# «как Моэт, только бюджетнее», «вроде Cloudy Bay»: one wine named as a measure, not asked for
_LIKE_NAMED = re.compile(
    r"(?:^|[\s,])(?:как|вроде|типа|наподобие|в духе|в стиле)\s+(?!насч|бы\b|вы\b|у\b)\S+.*"
    r"(?:,|\s)(?:но|только|а)\s",
    re.IGNORECASE,
)
_THAN = re.compile(r"(?<![a-zа-яё])(чем|than)(?![a-zа-яё])", re.IGNORECASE)
_SAME_BUDGET = re.compile(
    r"(same|that) (budget|price|range)|(тот же|такой же|прежн\w*|том же) (бюджет|цен)"
    r"|(на|в) (эту|ту же|такую же) сумму|в (этом|том же) (диапазоне|бюджете|пределе)"
    r"|(тоже|также) (до|в пределах|не дороже)"
    r"|in (that|this|the same) range",
    re.IGNORECASE,
)
_REFINEMENT_OPENERS = ("а ", "и ", "and ", "what about", "how about", "или ", "тогда ")


def asks_similar(text: str) -> bool:
    """«похожее», «в том же стиле», «something like it»."""
    return bool(_SIMILAR.search(text))


def keeps_budget(text: str) -> bool:
    """«also a red wine, same budget», «в том же диапазоне»."""
    return bool(_SAME_BUDGET.search(text))


# «он любит красное итальянское»: what the person the wine is for likes adds to the request
_LIKES = re.compile(
    r"^\W*(?:[\w-]+\s+){0,2}(?:любит|любят|люблю|обожа\w+|предпочита\w+|фанат\w*|likes|loves"
    r"|prefers|is into|is a fan)(?![\w-])",
    re.IGNORECASE,
)


def opens_as_refinement(text: str) -> bool:
    """«а …», «and …», «what about …», «он любит …»: it goes on from the request before."""
    stripped = text.strip().lower()
    return stripped.startswith(_REFINEMENT_OPENERS) or bool(_LIKES.match(stripped))


def measures_by_named(text: str) -> bool:
    """«как Моэт, но дешевле»: a wine named as the measure of another, not asked for."""
    return bool(_LIKE_NAMED.search(text))


def compares(text: str) -> bool:
    """«уровнем выше, чем просекко»: a wine named as a measure, not a pick."""
    return bool(_THAN.search(text))


# «менее сладкое», «not as dry», «слишком сладкое», «too sweet for me»: the sweetness named is
# the measure of a step (of the wines shown), not asked for.
_STEP_MEASURE = re.compile(
    r"(?<![a-zа-яё])(менее|не так\w*|less|not so|not as|слишком|чересчур|too|overly)\s+"
    r"(сладк\w*|сух\w*|sweet|dry)\b",
    re.IGNORECASE,
)


def without_step_measure(text: str) -> str:
    """The text without the sweetness a step is measured by («менее сладкое» → «», «сухое
    кажется кислым» → «кажется кислым»)."""
    return without_complaint(_STEP_MEASURE.sub(" ", text))


_CLAUSE_BREAKS = re.compile(r"[,;.!?—:]+| (?:так что|поэтому|в общем|короче) ")


def steps_apart_from_a_story(text: str) -> bool:
    """«ремонт, машина сломалась… так что что-нибудь подешевле»: a step of the request in a
    clause of its own, beside a story about other things (not «посоветуй ноутбук подешевле»,
    where the step is the other thing's)."""
    for clause in _CLAUSE_BREAKS.split(fold(text)):
        if read_followup(clause).changes and offtopic_subject(words_of(clause)) is None:
            return True
    return False
