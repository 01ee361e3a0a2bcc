"""What a message is: a request for wine, a question about wine, small talk, off-topic, or an
attempt to manipulate the bot. One reading, shared by every path (agent, catalog prompt,
offline) and every adapter.

The message is read once, in this order:

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
   ranked retrieval), or a question with wine words and no entry (answered honestly);
8. a question with no wine word is off-topic; anything else is read as a request (a mood:
   «хочется чего-то легкого и свежего»).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache

from core.language.folding import fold
from core.language.followups import read_followup
from core.language.knowledge import KnowledgeEntry, entry_by_id, health_match, match_knowledge
from core.language.lemmas import is_past_verb, is_predicate, words_of
from core.language.manipulation import manipulation_kind
from core.language.price_bands import read_price_band
from core.language.request import parse_query
from core.language.social import split_social
from core.language.subjects import (
    about_health,
    health_sentences,
    names_alcohol,
    names_wine,
    offtopic_subject,
)
from core.language.world import countries_of_group


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


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts))


_B = r"(?<![a-zа-я])"

_CODE = _rx(
    _B + r"(код|кода|коде|программ|функци[юяи]|скрипт|алгоритм|сортировк|питон|python"
    r"|javascript|java\b|sql\b|регулярн|компилир)",
    _B + r"(write (a |me )?(function|code|script|program)|python code)",
)
# Asking the way is never about wine, whatever colour the place has («Red Square»).
_DIRECTIONS = _rx(
    _B + r"(как (добраться|доехать|пройти|проехать) (до|к|в)|где находится|how (do|can) i get to"
    r"|where is the nearest|directions to)"
)
# Tasks and subjects a lemma cannot name: declined unless the message is about wine.
_OFFTOPIC_PHRASES = _rx(
    _B + r"(курс (доллара|евро|рубля|валют)|сколько будет|посчитай|реши\w* задач|домашн\w* задани"
    r")",
    _B + r"(напиши|сочини|придумай|write)\s+(мне )?(стих|сочинени|эссе|письм|рассказ|песн"
    r"|резюме|поэм|a poem|an essay|a letter)",
    _B + r"(в каком году|кто изобрел|кто написал|capital of|смысл жизни|как похудеть)",
    _B + r"(рецепт|как приготовить|испечь|сварить|recipe)",
    _B + r"(html|css|markdown|json|разметк)",
    _B + r"(запиши(те)? меня|забронируй|закажи(те)? (такси|столик|билет)|book (me|a table))",
    _B + r"(букет\w* (из )?(цвет|роз|тюльпан)|цветы (на|для|в подарок)|flowers)",
)
# Choosing a wine: a request even when phrased as a question.
_REQUEST = _rx(
    _B + r"(посовету|советуй|подбер|подобра|порекоменду|рекоменду|предлож|выбери|выбрать"
    r"|подскажи,? (как|что)\w* вин|подскажи\w* (вин|что-нибудь|что нибудь|что-то)"
    r"|что (бы )?(\w+ )?(взять|выбрать|купить|выпить|открыть|подать|налить|принести|подарить"
    r"|попить)"
    r"|что (подойд|подход|пойд|идет|сочета)\w*\s+(к|ко|под|с|со)\s|^\W*(а )?что (бы )?(к|ко|под)\s"
    r"|хочу|хочется|хотелось|захотел|нужн[оаы]? (вино|бутылк|что|игрист|красн|бел|розов)"
    r"|ищу|ищем|покажи|найди|есть ли у вас|у вас есть|есть у вас|в наличии|посоветуете"
    r"|recommend|suggest|pick (a|me)|looking for|i want|i need|i'd like|i would like"
    r"|can you (find|get)|what should i (buy|get|drink|bring|open)|pair\w* (it )?with"
    r"|goes? (well )?with|to drink with|would you (pair|serve|pick|suggest|recommend|choose)"
    r"|would (love|like) to try|i'?d (love|like)|i'?m looking|^any (good |nice )?\w+"
    r"|anything (for|under|to|with|from|like)|мне бы|хотелось бы|давай(те)?\b|дайте|можно мне)",
    _B + r"(как(ое|ую|ие|ой) (вино|вина|винишко|красное|белое|розовое|игристое|шампанское"
    r"|бутылк|сухое|полусухое|сладкое)\w*\s+(\w+\s+){0,2}(к|ко|под|на|для|с|со|to|for|with)\s)",
    _B + r"(как(ое|ую|ие|ой) (\w+ ){1,2}(взять|выбрать|купить|подать|открыть|подарить|принести"
    r"|посоветуе|порекомендуе|предложи))",
    _B + r"(which|what) (wine|red|white|bottle)s? (to|for|with|should|goes|would|do you)",
)
# A question asking what something is or why: with a request, the answer gives the fact first.
_EXPLAIN = _rx(
    _B + r"(что так\w+|кто так\w+|что значит|что означа|что это за|почему|зачем|в ч[её]м разниц"
    r"|чем отлича"
    r"|как понять|как узнать|как определить|расскажи (о|об|про|подробнее о)|объясни|поясни"
    r"|what is|what are|what does|why|difference between)"
)
_QUESTION = _rx(
    _B + r"((что|што|шо|че|чё|кто) так\w+|что значит|что означа|что это|что за|почему|зачем|как\b"
    r"|как(ой|ая|ое|ие|ую|им|ого|ом)\b|скольк|\w+ ли\b|чем\b|в ч[её]м|разниц|отлича"
    r"|когда|где|откуда|при как\w+|расскажи|объясни|поясни|научи"
    r"|правда|как(ие|ое|ая|ой) быва|быва\w* ли|или нет"
    r"|это нормально|нормально ли|это что|что делать|как быть|из чего|для чего|за что"
    r"|чего(?![- ]?(нибудь|то)\b))",
    _B + r"(what|why|how|which|is it|should|does|do you|can i|are there)(?![a-z])",
    # «что дает выдержка?», «из чего делают розе?»; not «что-нибудь», «что бы взять»
    r"^\W*(а |и )?(что|из чего|для чего|от чего|чем|с чем|на что|о ч[её]м|про что|во что)"
    r"\s(?!(нибудь|то|бы)\b)",
    _B + r"(главн\w*|основн\w*) (сорт|виноград)",
)
_COPULA = _rx(
    r"\s[—–=-]\s|(?<![a-zа-я])(это|бывает|бывают|всегда|никогда|одно и то же|то же самое|vs"
    r"|versus)(?![a-zа-я])"
)
_DEFINING = _rx(r"(?<![a-z])(meaning|vs|versus|difference)(?![a-z])")
_KNOWING = _rx(_B + r"(хочу|хотел\w*|хочется|интересно) (бы )?(узнать|понять|разобраться|знать)")
_OPENER = _rx(
    r"^(а|и|тогда|или|только|лучше|and|or|what about|how about|actually|also|instead)\s",
    r"^(make it|а как насчет|как насчет|а что насчет|а если)\b",
)
# «what about carmenere?», «а как насчет Испании?»: a refinement, though a question in form.
_ABOUT_OPENER = _rx(
    r"^\W*(and )?(what about|how about|what else|anything else)\b",
    r"^\W*(а )?((как|что) насч[её]т|что (еще|ещё)|что-нибудь (еще|ещё))\b",
)
# Is it in the shop? «есть мадера?», «шабли есть?», «do you have Malbec?» — not «есть ли смысл».
_AVAILABLE = _rx(
    _B + r"(есть ли(?! (смысл|разница|польза|вред|толк|у (вина|него|нее|них|игрист|шампан)))"
    r"|есть у вас|у вас есть|имеется|в наличии"
    r"|найдется|найдётся|прода[её]тся|продаете|продаёте|в продаже|do you (have|sell|carry|stock)"
    r"|have you got|got any|what do you have)",
    r"^\W*(а |и )?есть\s(?!ли (смысл|разница|польза|вред|толк))",
    _B + r"есть(\s+\w+){0,2}\W*$|(?<![a-zа-я])есть\s*\?",
    _B
    + r"(что|чего) у вас|у вас (сам\w+|есть|в наличии)|можно (его |ее |их )?(у вас )?(взять|купить"
    r"|заказать)",
    _B + r"у вас\W*$",
)
# About the wines just shown: «а из них сухое какое?», «сколько такое стоит?».
_AMONG_SHOWN = _rx(
    _B + r"(из них|из этих|из показанных|среди них|of (those|these|them)|among (them|those)"
    r"|про (перв|втор|трет|последн)\w+|о (перв|втор|трет|последн)\w+|о нем|про него|про нее"
    r"|про них|о них|the (first|second|third|last) one"
    r"|сколько\b.{0,20}\b(стоит|стоят)\b(?!\s+[а-я]+ть\b)"
    r"|how much (is|are|does|do) (it|they|this|that))"
)
_ABOUT_SHOWN = _rx(
    _B + r"(подробне|поподробне|подробней|перв(ое|ого|ом|ая|ой|ую)|втор(ое|ого|ом|ая|ой|ую)"
    r"|трет(ье|ьего|ьем|ья|ьей|ью)|последн\w+|о нем|про него|про нее|про них|о них"
    r"|more about|the (first|second|third|last) one)"
)
_YES_NO = _rx(
    _B + r"(можно ли|нужно ли|надо ли|стоит ли|правда ли|правда,? что|верно ли|это правда"
    r"|обязательно ли|is it ok|can i|should i|do i need|is it true"
    r"|(вообще|в принципе) (\w+ )?(пьют|можно|подают|сочетает\w*|бывает|бывают|стоит|нужно))"
)
_WHICH = _rx(
    _B + r"(как(ое|ую|ие|ой|ого)|which|what kind)\s+(\w+(ое|ую|ие|ой|ый|ая|ого|ых)\s+)?(вин"
    r"|игрист|шампан|красн|бел|розов|портвейн|херес|wine)",
    _B + r"как(ой|ое|ая) на вкус",
)
_WHICH_NOT = _rx(
    _B + r"как\w* (температур|бокал|срок|градус|объем|калори|возраст|штопор|пробк|сорт\w* "
    r"виноград|быва)"
)
# A request without wine words: «что-нибудь на вечер», «к ужину с друзьями?».
_MOOD = _rx(
    _B + r"(что[- ]?(нибудь|то)|чего[- ]?(нибудь|то)|вечер|ужин|обед|праздник|пикник|свидани"
    r"|подар|день рождени|новый год|выходн|пятниц|гост|друз|романтич|легк|свеж|свадьб|юбиле"
    r"|корпоратив|годовщин|новоселье|банкет|fruity|dinner|wedding|birthday"
    r"|party|evening|something)",
)


# Someone under age: «мне 17», «I'm 16», «несовершеннолетний».
_MINOR = _rx(
    _B + r"(мне|нам|сыну|дочке|ребенку|i'?m|i am) (1[0-7]|[1-9]|шестнадцать|семнадцать|пятнадцать"
    r"|четырнадцать)(?![\d])",
    _B + r"(несовершеннолетн|школьник|подрост|under 18|underage|minor)",
)


def requested_words(folded: str) -> bool:
    return bool(_REQUEST.search(folded) or _AVAILABLE.search(folded))


# Choosing a wine, said outright (for the clause of a message that also asks about health).
_CHOOSE = _rx(
    _B + r"(посовету|подбер|порекоменду|что (бы )?(\w+ )?(взять|выбрать|купить|подарить)"
    r"|какое вино (взять|выбрать|подать|купить)|recommend|suggest)"
)
# With no wine word at all, an entry must explain most of the message to answer it.
_BARE_COVERAGE = 0.6
_WISHING = frozenset({"хотел", "хотела", "хотели", "хотелось", "искал", "искала", "нашел"})
_TO_THE_BOT = _rx(_B + r"(ты|тебя|тебе|тобой|you)(?![a-zа-я])")


def _smalltalk(kinds: tuple[str, ...]) -> MessageReading:
    social = next((k for k in kinds if k != "ack"), kinds[0] if kinds else "greeting")
    return MessageReading(MessageKind.smalltalk, social=social)


def _knowledge_part(text: str) -> str:
    """The clauses of a request that ask something rather than ask for wine: «Чем брют
    отличается от экстра брюта? И покажите пару брютов» → «Чем брют отличается от экстра
    брюта?»."""
    clauses = re.split(r"(?<=[?.!])\s+|\s+(?:и|а|но|and)\s+(?=\w+\s)", text)
    asking = [
        clause
        for clause in clauses
        if (_QUESTION.search(fold(clause)) or ("?" in clause and _COPULA.search(fold(clause))))
        and not _REQUEST.search(fold(clause))
        and not _AVAILABLE.search(fold(clause))
    ]
    return " ".join(asking) or text


@lru_cache(maxsize=4096)
def read_message(text: str) -> MessageReading:
    folded = fold(text).strip()
    if not words_of(folded):
        if folded and not re.search(r"\d", folded):  # «👍», «)))», «!»
            return _smalltalk(("ack",))
        return MessageReading(MessageKind.request, text=text)
    manipulation = manipulation_kind(folded)
    if manipulation is not None:
        return MessageReading(MessageKind.manipulation, manipulation=manipulation)
    split = split_social(text)
    if not split.rest:
        return _smalltalk(split.kinds)
    reading = _read_proper(split.rest)
    if reading.kind is MessageKind.smalltalk and split.kinds:
        return _smalltalk(split.kinds)
    return reading


def _read_proper(text: str) -> MessageReading:
    """The message without its social words."""
    folded = fold(text).strip()
    words = words_of(folded)
    if _CODE.search(folded) or _DIRECTIONS.search(folded):
        return MessageReading(MessageKind.offtopic, text=text)
    # A question word, or a question mark on a sentence that says something about its subject
    # («просекко — это шампанское?», «рислинг бывает сухим?»); not a bare name of a wine with a
    # question mark («Barolo?», «dry riesling?»), which asks whether the shop has it.
    interrogative = bool(_QUESTION.search(folded) or _DEFINING.search(folded))
    question = interrogative or "?" in folded
    asks = (
        interrogative
        or (
            "?" in folded
            and (_COPULA.search(folded) is not None or any(is_predicate(w.text) for w in words))
        )
        or bool(_COPULA.search(folded) and re.search(r"(?<![а-я])или(?![а-я])", folded))
    )
    parsed = parse_query(text)
    f = parsed.filters
    # A country, a dish or a price alone is no wine word: «какая столица Австралии?», «как
    # приготовить утку?».
    unnamed = dict.fromkeys(("country", "region", "price_min", "price_max", "food_pairing"))
    wine_named = names_wine(words) or not f.model_copy(update=unnamed).is_empty()
    # A health question: health words in a sentence that asks («можно ли при беременности?»),
    # not in a story around a request («врачи запретили коньяк… посоветуйте вино в подарок»).
    if _MINOR.search(folded) and (names_alcohol(words) or wine_named or requested_words(folded)):
        # «мне 17, могу я купить вино?»: the legal age, whatever else is asked.
        return MessageReading(
            MessageKind.wine_question, entry_by_id("legal_age"), health=True, text=text
        )
    unasked = not (_REQUEST.search(folded) or _AVAILABLE.search(folded))
    asked_health = [h for h in health_sentences(text) if _QUESTION.search(h) or "?" in h or unasked]
    clauses = [c for c in re.split(r"[,;.!?—]+", folded) if c.strip()]
    choosing = [c for c in clauses if _CHOOSE.search(c) and not about_health(words_of(c), c)]
    if asked_health and choosing:
        # «я беременна, а муж хочет отметить — что ему взять к стейку?»: the health answer
        # first, then the wines asked for apart from it.
        health = [c for c in clauses if about_health(words_of(c), c)]
        match = health_match(" ".join(health))
        return MessageReading(MessageKind.request, match.entry if match else None, text=text)
    if asked_health and (names_alcohol(words) or wine_named):
        match = health_match(text)
        return MessageReading(
            MessageKind.wine_question, match.entry if match else None, health=True, text=text
        )
    available = bool(_AVAILABLE.search(folded))
    requested = (bool(_REQUEST.search(folded)) or available) and not _KNOWING.search(folded)
    knowledge = match_knowledge(text)
    if knowledge is not None and not wine_named and knowledge.coverage < _BARE_COVERAGE:
        knowledge = None  # «у меня кот не ест, что делать?»: a few common words, no wine
    entry = knowledge.entry if knowledge is not None else None
    if offtopic_subject(words) and not wine_named:
        return MessageReading(MessageKind.offtopic, text=text)
    if _OFFTOPIC_PHRASES.search(folded) and not wine_named:
        return MessageReading(MessageKind.offtopic, text=text)
    # medicine, not wine; but «благородная плесень — это не опасно?» asks about a wine term
    wine_term = entry is not None and not entry.health
    if about_health(words, folded) and not wine_named and not requested and not wine_term:
        return MessageReading(MessageKind.offtopic, text=text)
    # «какое вино подать?» asks which; «какое вино пил Наполеон?» asks about the past.
    asks_which = (
        bool(_WHICH.search(folded))
        and not _WHICH_NOT.search(folded)
        and not any(is_past_verb(w.text) for w in words if w.text not in _WISHING)
    )
    followup = read_followup(text)
    # «а белое?», «а из Старого Света?», «есть амароне?»: the request before goes on; not
    # «а что такое танины?» or «а ты умеешь шутить?».
    defines = "?" in folded and _COPULA.search(folded) is not None  # «X — это дешевка?»
    opens = bool(_OPENER.search(folded)) and not (
        _EXPLAIN.search(folded) or _YES_NO.search(folded) or (defines and entry is not None)
    )
    # A change («подешевле», «посуше») refines when said briefly; in a longer question («если
    # крышка винтовая, значит вино дешевое?») it is part of the question.
    changes = followup.changes and (len(words) <= 6 or opens) and not defines
    refines = changes or available or (opens and not _TO_THE_BOT.search(folded))
    if _AMONG_SHOWN.search(folded):
        return MessageReading(MessageKind.request, text=text)
    if refines and (not interrogative or _ABOUT_OPENER.search(folded)):
        # «а белое?», «подешевле», «только не шардоне», «есть мадера?»: a request goes on —
        # with the answer to a question asked beside it («Токай — это …? Что у вас есть?»).
        part = _knowledge_part(text)
        both = match_knowledge(part) if part != text else None
        return MessageReading(MessageKind.request, both.entry if both else None, text=text)
    if (
        entry
        and (asks or (question and f.is_empty()))
        and len(words) > 3
        and not requested
        and not asks_which
        and not _priced_or_paired(f)
    ):
        # «если крышка винтовая, значит вино дешевое?»: a question with a price word in it.
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    if _ABOUT_SHOWN.search(folded) and entry is None:
        # «расскажи подробнее про первое»: about the wines just shown.
        return MessageReading(MessageKind.request, text=text)
    if entry is not None and _YES_NO.search(folded) and not requested:
        # «можно ли красное к рыбе?», «нужно ли давать вину подышать?»: a question, not a pick.
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    # «что дает выдержка в бочке?»; with a dish, only a question that asks why or whether
    # («правда что к рыбе нельзя красное?»), not «что к шоколаду?».
    knowing = bool(_EXPLAIN.search(folded) or _YES_NO.search(folded)) or not _priced_or_paired(f)
    if entry is not None and asks and not requested and not asks_which and knowing:
        return MessageReading(MessageKind.wine_question, entry, text=text)
    if requested or read_price_band(text) is not None or _priced_or_paired(parsed.filters):
        part = _knowledge_part(text)
        if part != text or _EXPLAIN.search(folded):
            # «что такое танины и какое вино с мягкими танинами посоветуешь?»: both.
            both = match_knowledge(part)
            return MessageReading(MessageKind.request, both.entry if both else None, text=text)
        return MessageReading(MessageKind.request, text=text)
    # «танины», «винный камень»; not «белое полусладкое» (a request with no verb)
    short = len(words) <= 3 and f.is_empty() and not _MOOD.search(folded)
    # «танины?» asks what they are; «Barolo?», «dry riesling?» — a wine, a grape, a style with
    # no question word — ask whether the shop has it.
    if entry is not None and (asks or (not entry.cards and f.is_empty() and (question or short))):
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which, text=text)
    # «European?», «а с Кавказа?»: a group of wine countries, as a country alone would be
    wine_words = (
        wine_named or not f.is_empty() or entry is not None or bool(countries_of_group(folded))
    )
    if interrogative and wine_words and not asks_which:
        return MessageReading(MessageKind.wine_question, text=text)
    if not wine_words and _TO_THE_BOT.search(folded) and not _MOOD.search(folded):
        return MessageReading(
            MessageKind.smalltalk, social="about", text=text
        )  # «ты умеешь шутить?»
    if question and not wine_words and not _MOOD.search(folded):
        return MessageReading(MessageKind.offtopic, text=text)
    return MessageReading(MessageKind.request, text=text)


def _priced_or_paired(filters: object) -> bool:
    return any(
        getattr(filters, name) is not None for name in ("price_min", "price_max", "food_pairing")
    )


def prepare() -> None:
    """Build what reading a message needs once (the dictionary, the knowledge index: about
    0.6 s), so that a serving process does it at start rather than on its first question."""
    read_message("что такое танины и какое красное вино к стейку до 2000 посоветуешь?")
