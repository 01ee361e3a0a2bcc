"""What a message is: a request for wine, a question about wine, small talk, off-topic, or an
attempt to manipulate the bot: the kind in the one reading of a message
(core/language/reading.py), shared by every path (agent, catalog prompt, offline) and every
adapter. It is told from what that reading already holds of the message, in this order:

1. **manipulation** — attempts to change the bot's role or get its instructions, claims of
   privilege, threats and bribes (`manipulation`); counted by kind, never answered;
2. **social words come off** (`social`): «привет!», «спасибо», «ты классный», «хорошего дня»
   at the start or end. A message of nothing else is **small talk**; otherwise the rest is
   the message proper, and greeting words never become search terms;
3. **code** is declined even when wine is mentioned («напиши на питоне функцию сортировки
   вин»);
4. **health, age and safety** (`subjects`): a question about pregnancy, medicines, calories,
   the heart, age or driving that speaks of wine or alcohol is a wine question answered
   from the health entries only, never with cards; without wine or alcohol it is off-topic;
5. **off-topic** — a subject outside wine (a phone, the weather, beer) with no wine word;
6. **request** — a verb of choosing («посоветуй», «подбери», «что взять»), a budget, a dish,
   a price word, or a catalog term with no question around it. A request that also asks
   what something is («что такое танины и какое вино с мягкими танинами посоветуешь?»)
   keeps the knowledge entry: the answer gives the fact first, then the wines;
7. **wine question** — a question whose words the knowledge base explains (`knowledge`,
   ranked retrieval), or a question with wine words and no entry (answered honestly); the
   shapes a question takes beside a request's words are in `question_shapes`;
8. a question with no wine word is off-topic; anything else is read as a request (a mood:
   «хочется чего-то легкого и свежего»).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass
from functools import cache, cached_property

from core.language import message_cues as cue
from core.language.folding import fold
from core.language.followups import FollowUp, steps_apart_from_a_story
from core.language.knowledge import (
    FULL_COVERAGE,
    KnowledgeEntry,
    KnowledgeMatch,
    Question,
    entry_by_id,
    health_match,
    match_knowledge,
)
from core.language.lemmas import is_past_verb, is_predicate, reacts_only, words_of
from core.language.manipulation import manipulation_kind
from core.language.price_bands import PriceBand
from core.language.question_shapes import (
    about_subject,
    asks_after_subject,
    names_a_place,
    unknown_term,
)
from core.language.request import ParsedQuery
from core.language.social import SocialSplit
from core.language.subjects import (
    PREGNANCY_TERM,
    about_health,
    health_sentences,
    names_alcohol,
    names_wine,
    offtopic_subject,
)
from core.language.wine_names import asked_for_by_name

# A subject said without a question form is asked about when one entry explains this much of it
# (measured on the development questions).
TOPIC_COVERAGE = 0.8


class MessageKind(enum.StrEnum):
    request = "request"
    wine_question = "wine_question"
    smalltalk = "smalltalk"
    offtopic = "offtopic"
    manipulation = "manipulation"


@dataclass(frozen=True)
class MessageReading:
    kind: MessageKind
    entry: KnowledgeEntry | None = None  # the knowledge-base entry the message asks about
    social: str | None = None  # greeting | thanks | about | help | bye | how_are_you | …
    manipulation: str | None = None  # role | instructions | privilege | threat | bribe
    asks_which: bool = False  # «какое игристое…»: a question that asks which wine
    health: bool = False  # a health, age or safety question: never cards
    text: str = ""  # the message proper: without its greetings and thanks

    @property
    def wants_cards(self) -> bool:
        """Cards belong to a request, or to a question that asks which wine when its entry
        names the wines that help («какое игристое подают холоднее?» → two sparkling)."""
        if self.kind is MessageKind.request:
            return True
        return (
            self.kind is MessageKind.wine_question
            and not self.health
            and self.asks_which
            and self.entry is not None
            and bool(self.entry.cards)
        )


def _smalltalk(kinds: tuple[str, ...]) -> MessageReading:
    social = next((k for k in kinds if k != "ack"), kinds[0] if kinds else "greeting")
    return MessageReading(MessageKind.smalltalk, social=social)


@dataclass(frozen=True)
class Proper:
    """What the reading of the message proper (without its social words) already knows."""

    query: ParsedQuery
    followup: FollowUp
    price_band: PriceBand | None
    question: Question
    countries: tuple[str, ...]  # a group of countries named («Европа»)


def read_kind(text: str, split: SocialSplit, proper: Proper) -> MessageReading:
    """What the message is; `split` its social words, `proper` the rest of it as read
    (core/language/reading.py reads a message once and calls this)."""
    folded = fold(text).strip()
    if not words_of(folded):
        if folded and not re.search(r"\d", folded):  # «👍», «)))», «!»
            return _smalltalk(("ack",))
        return MessageReading(MessageKind.request, text=text)
    manipulation = manipulation_kind(folded)
    if manipulation is not None:
        return MessageReading(MessageKind.manipulation, manipulation=manipulation)
    if not split.rest:
        return _smalltalk(split.kinds)
    rest = fold(split.rest)
    # «что любишь больше, красное или белое?»: the bot's own taste, between two styles
    between = " или " in rest and len(words_of(rest)) <= 5 and not cue.REQUEST.search(rest)
    if "about" in split.kinds and between:
        return _smalltalk(split.kinds)
    reading = _read_proper(split.rest, proper)
    if reading.kind is MessageKind.smalltalk and split.kinds:
        return _smalltalk(split.kinds)
    if reading.kind is MessageKind.wine_question and not reading.health:
        # Health words the health reader does not know («painkillers», «ехать»): answered as
        # a health question all the same — reviewed words, never cards.
        entry = reading.entry
        if (entry is not None and entry.health) or (
            entry is None and proper.question.health_undecided
        ):
            return dataclasses.replace(reading, health=True)
    return reading


def _read_proper(text: str, proper: Proper) -> MessageReading:
    """The message without its social words."""
    folded = fold(text).strip()
    words = words_of(folded)
    if cue.CODE.search(folded) or cue.DIRECTIONS.search(folded):
        return MessageReading(MessageKind.offtopic, text=text)
    # A question word, or a question mark on a sentence that says something about its subject
    # («просекко — это шампанское?», «рислинг бывает сухим?»); not a bare name of a wine with a
    # question mark («Barolo?», «dry riesling?»), which asks whether the shop has it.
    # «без разницы откуда», «не такое сладкое, как компот» ask nothing
    plain = cue.SIMILE.sub(" ", cue.INDIFFERENT.sub(" ", folded))
    interrogative = bool(
        cue.QUESTION.search(plain) or cue.DEFINING.search(folded) or asks_after_subject(words)
    )
    question = interrogative or "?" in folded
    asks = (
        interrogative
        or (
            "?" in folded
            and (cue.COPULA.search(folded) is not None or any(is_predicate(w.text) for w in words))
        )
        or bool(cue.COPULA.search(folded) and re.search(r"(?<![а-я])или(?![а-я])", folded))
    )
    parsed = proper.query
    f = parsed.filters
    # A country, a dish or a price alone is no wine word: «какая столица Австралии?», «как
    # приготовить утку?».
    unnamed = dict.fromkeys(("country", "region", "price_min", "price_max", "food_pairing"))
    wine_named = names_wine(words) or not f.model_copy(update=unnamed).is_empty()
    # A health question: health words in a sentence that asks («можно ли при беременности?»),
    # not in a story around a request («врачи запретили коньяк… посоветуйте вино в подарок»).
    if cue.MINOR.search(folded) and (
        names_alcohol(words) or wine_named or cue.requested_words(folded)
    ):
        # «мне 17, могу я купить вино?»: the legal age, whatever else is asked.
        return MessageReading(
            MessageKind.wine_question, entry_by_id("legal_age"), health=True, text=text
        )
    if PREGNANCY_TERM.search(folded) and (names_alcohol(words) or wine_named):
        return MessageReading(
            MessageKind.wine_question, entry_by_id("health_pregnancy"), health=True, text=text
        )
    unasked = not (cue.REQUEST.search(folded) or cue.AVAILABLE.search(folded))
    asked_health = [
        h for h in health_sentences(text) if cue.QUESTION.search(h) or "?" in h or unasked
    ]
    clauses = [c for c in re.split(r"[,;.!?—]+", folded) if c.strip()]
    choosing = [c for c in clauses if cue.CHOOSE.search(c) and not about_health(words_of(c), c)]
    if asked_health and choosing:
        # «я беременна, а муж хочет отметить — что ему взять к стейку?»: the health answer
        # first, then the wines asked for apart from it.
        health = [c for c in clauses if about_health(words_of(c), c)]
        match = health_match(" ".join(health))
        return MessageReading(MessageKind.request, match.entry if match else None, text=text)
    if asked_health and (names_alcohol(words) or wine_named):
        match = proper.question.health_match()
        return MessageReading(
            MessageKind.wine_question, match.entry if match else None, health=True, text=text
        )
    # «полусухого красного нет?», «шабли нет?»: whether the shop has a wine it names
    absent = bool(cue.ABSENT.search(folded)) and not f.is_empty()
    available = bool(cue.AVAILABLE.search(folded)) or absent
    requested = (bool(cue.REQUEST.search(folded)) or available) and not cue.KNOWING.search(folded)
    # Each decision below asks the knowledge base only when its cheaper conditions hold.
    known = _Known(proper.question, wine_named)
    # «ремонт, машина сломалась… так что что-нибудь подешевле»: a step of the request in a
    # story, not a subject of its own (but «где купить машину подешевле?» asks one)
    stepped = proper.followup.changes and not interrogative and steps_apart_from_a_story(text)
    if offtopic_subject(words) and not known.wine_named and not stepped:
        return MessageReading(MessageKind.offtopic, text=text)
    if cue.OFFTOPIC_PHRASES.search(folded) and not known.wine_named and not stepped:
        return MessageReading(MessageKind.offtopic, text=text)
    # medicine, not wine; but «благородная плесень — это не опасно?» asks about a wine term
    if (
        about_health(words, folded)
        and not known.wine_named
        and not requested
        and (known.entry is None or known.entry.health)
    ):
        return MessageReading(MessageKind.offtopic, text=text)
    # «какое вино подать?» asks which; «какое вино пил Наполеон?» asks about the past.
    asks_which = (
        bool(cue.WHICH.search(folded))
        and not cue.WHICH_NOT.search(folded)
        and not any(is_past_verb(w.text) for w in words if w.text not in cue.WISHING)
    )
    followup = proper.followup
    # «а белое?», «а из Старого Света?», «есть амароне?»: the request before goes on; not
    # «а что такое танины?» or «а ты умеешь шутить?».
    defines = "?" in folded and cue.COPULA.search(folded) is not None  # «X — это дешевка?»
    opens = bool(cue.OPENER.search(folded)) and not (
        cue.EXPLAIN.search(folded)
        or cue.YES_NO.search(folded)
        or (defines and known.entry is not None)
    )
    # A change («подешевле») refines when said briefly or asked for («…можно что-то послаще?»);
    # in a longer question («если крышка винтовая, значит вино дешевое?») it is its part.
    if_step = followup.changes and bool(cue.IF_STEP.search(folded))
    asks_step = followup.changes and bool(cue.WHAT_STEP.search(folded))
    changes = followup.changes and (len(words) <= 6 or opens or if_step or asks_step)
    changes = changes and not defines
    refines = changes or available or (opens and not cue.TO_THE_BOT.search(folded))
    if cue.AMONG_SHOWN.search(folded):
        return MessageReading(MessageKind.request, text=text)
    if refines and (not interrogative or if_step or asks_step or cue.ABOUT_OPENER.search(folded)):
        # «а белое?», «подешевле», «только не шардоне», «есть мадера?»: a request goes on —
        # with the answer to a question asked beside it («Токай — это …? Что у вас есть?»).
        part = cue.knowledge_part(text)
        both = match_knowledge(part) if part != text else None
        return MessageReading(MessageKind.request, both.entry if both else None, text=text)
    if (
        (asks or (question and f.is_empty()))
        and len(words) > 3
        and not requested
        and not asks_which
        and not _priced_or_paired(f)
        and (entry := known.entry) is not None
    ):
        # «если крышка винтовая, значит вино дешевое?»: a question with a price word in it.
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    if cue.ABOUT_SHOWN.search(folded) and known.entry is None:
        # «расскажи подробнее про первое»: about the wines just shown.
        return MessageReading(MessageKind.request, text=text)
    if cue.YES_NO.search(folded) and not requested and (entry := known.entry) is not None:
        # «можно ли красное к рыбе?», «нужно ли давать вину подышать?»: a question, not a pick.
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    # «что дает выдержка в бочке?»; with a dish, only a question that asks why or whether
    # («правда что к рыбе нельзя красное?»), not «что к шоколаду?».
    # «к лососю красное — это ошибка?» says something of the pairing and asks whether it holds.
    # An entry that explains the whole question, dish and all («алкоголь испаряется при
    # тушении мяса в вине?»), answers it too.
    knowing = bool(
        cue.EXPLAIN.search(folded) or cue.YES_NO.search(folded) or defines
    ) or not _priced_or_paired(f)
    whole = (
        f.price_min is None
        and f.price_max is None
        and known.match is not None
        and known.match.coverage >= FULL_COVERAGE
    )
    if asks and not requested and not asks_which and (knowing or whole) and (entry := known.entry):
        return MessageReading(MessageKind.wine_question, entry, text=text)
    if about_subject(folded, asks_which, proper.query.filters, proper.price_band) and (
        known.entry is not None and proper.question.names_subject(known.entry)
    ):
        # «какое вино подходит к сыру?», «какое вино брать для глинтвейна?»: the entry on the
        # subject answers, with two wines when it asks which; not «какое вино к рыбе?» (no
        # entry is about fish alone) or «подбери вино к сыру» (a pick asked for).
        entry = known.entry
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    if requested or proper.price_band is not None or _priced_or_paired(parsed.filters):
        part = cue.knowledge_part(text)
        if part != text or cue.EXPLAIN.search(folded):
            # «что такое танины и какое вино с мягкими танинами посоветуешь?»: both.
            both = match_knowledge(part) if part != text else proper.question.match()
            return MessageReading(MessageKind.request, both.entry if both else None, text=text)
        return MessageReading(MessageKind.request, text=text)
    # «танины», «винный камень»; not «белое полусладкое» (a request with no verb)
    short = len(words) <= 3 and f.is_empty() and not cue.MOOD.search(folded)
    # «пробка раскрошилась и упала в вино», «срок хранения вина в закрытой бутылке»: a subject
    # an entry explains whole, with nothing a pick would need
    topic = (
        len(words) > 2  # «Barolo?», «dry riesling?» name a wine: a request
        and f.is_empty()
        and not cue.MOOD.search(folded)
        and not cue.DESCRIBED.search(folded)
        and not cue.ABOUT_SHOWN.search(folded)  # «повторите то первое вино»
        and known.match is not None
        and known.match.coverage >= TOPIC_COVERAGE
        and not names_a_place(known.match.entry)  # «вина краснодарского края»: their wines
    )
    # «танины?» asks what they are; «Barolo?», «dry riesling?» — a wine, a grape, a style with
    # no question word — ask whether the shop has it.
    if (
        (asks or question or short or topic)
        and (entry := known.entry) is not None
        and (asks or topic or (not entry.cards and f.is_empty()))
    ):
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)

    if question and not requested and known.match is None and proper.question.health_undecided:
        # «выпил бокал, ехать можно?»: two health entries fit as well — the general answer
        return MessageReading(MessageKind.wine_question, health=True, text=text)

    @cache  # asked by up to four of the decisions below; the name reader is the dear part
    def wine_words() -> bool:
        # «European?», «а с Кавказа?»: a group of wine countries, as a country alone would be
        return (
            known.wine_named
            or not f.is_empty()
            or known.entry is not None
            or bool(proper.countries)
            or asked_for_by_name(text) is not None  # «есть мартин кодакс?»
        )

    # «что такое Эгри Бикавер?», «Чем известен Лангедок?»: a term no dictionary knows, asked
    # about in a message with no subject outside wine — a wine term the base lacks
    if (interrogative or asks) and not asks_which and any(unknown_term(w) for w in words):
        return MessageReading(MessageKind.wine_question, known.entry, text=text)

    # «самый дешёвый белый вариант какой?» asks for the end of the price range: a pick
    # «мурведр даёт тяжёлое вино?» says something and asks whether it holds: a question with no
    # checked answer; not a change said as a question («а крымское попроще, пусть не сухое?»).
    says = asks and not followup.changes
    if (interrogative or says) and not asks_which and not followup.extreme and wine_words():
        return MessageReading(MessageKind.wine_question, text=text)
    if reacts_only(words) and not (wine_words() or followup.changes or proper.price_band):
        return MessageReading(MessageKind.smalltalk, social="ack", text=text)  # «смешно»
    if cue.TO_THE_BOT.search(folded) and not cue.MOOD.search(folded) and not wine_words():
        return MessageReading(MessageKind.smalltalk, social="about", text=text)  # «ты умеешь…?»
    # «а не такое сладкое, как компот?»: a step from the wines shown is about wine
    if question and not cue.MOOD.search(folded) and not wine_words() and not followup.changes:
        return MessageReading(MessageKind.offtopic, text=text)
    return MessageReading(MessageKind.request, text=text)


class _Known:
    """The knowledge entry the message asks about, ranked for only when a decision needs it
    (ranking the whole base is the dearest part of reading a message)."""

    def __init__(self, question: Question, named: bool) -> None:
        self.question = question
        self.named = named  # a wine word, a grape, a style: wine is named without the base

    @cached_property
    def match(self) -> KnowledgeMatch | None:
        return self.question.match()

    @cached_property
    def wine_named(self) -> bool:
        # «рипассо крепче вальполичеллы?»: a wine term of the base names wine as a grape would
        return self.named or (self.match is not None and self.match.term)

    @cached_property
    def entry(self) -> KnowledgeEntry | None:
        if self.match is None:
            return None
        if not self.wine_named and self.match.coverage < cue.BARE_COVERAGE:
            return None  # «у меня кот не ест, что делать?»: a few common words, no wine
        return self.match.entry


def _priced_or_paired(filters: object) -> bool:
    return any(
        getattr(filters, name) is not None for name in ("price_min", "price_max", "food_pairing")
    )
