"""What a message is: a request for wine, a question about wine, small talk, off-topic, or an
attempt to manipulate the bot. One reading, shared by every path (agent, catalog prompt,
offline) and every adapter.

The order of the checks is the order of precedence:

1. **manipulation** — attempts to change the bot's role or get its instructions, claims of
   privilege, threats and bribes (GetMyWine's list); counted by kind, never answered;
2. **off-topic, strong** — code, medicine: declined even when wine is mentioned
   («напиши на питоне функцию сортировки вин», «сколько вина можно при диабете»);
3. **request** — a verb of choosing («посоветуй», «подбери», «что взять»), a budget, a dish, a
   price word, or a catalog term with no question around it;
4. **wine question** — a question form and a knowledge-base entry (`knowledge.json`), or a
   question form with wine words («как выбрать штопор?»); before the request check, a
   yes-or-no question with an entry («можно ли красное к рыбе?»);
5. **off-topic** — politics, weather, money, sport, tasks and questions with no wine word
   (checked before the request: «посоветуй фильм на вечер» is not about wine);
6. **small talk** — greetings, thanks, «ты кто?», «помощь», goodbyes;
7. anything else is read as a request (a mood: «хочется чего-то легкого и свежего»).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import lru_cache

from core.language.folding import fold, tokenize
from core.language.followups import read_followup
from core.language.knowledge import KnowledgeEntry, match_knowledge
from core.language.price_bands import read_price_band
from core.language.request import parse_query


class MessageKind(enum.StrEnum):
    request = "request"
    wine_question = "wine_question"
    smalltalk = "smalltalk"
    offtopic = "offtopic"
    manipulation = "manipulation"


@dataclass(frozen=True)
class MessageReading:
    kind: MessageKind
    entry: KnowledgeEntry | None = None  # the knowledge-base entry a wine question matched
    social: str | None = None  # greeting | thanks | about | help | bye | how_are_you
    manipulation: str | None = None  # role | instructions | privilege | threat | bribe
    asks_which: bool = False  # «какое игристое…»: a question that asks which wine

    @property
    def wants_cards(self) -> bool:
        """Cards belong to a request, or to a question that asks which wine when its entry
        names the wines that help («какое игристое подают холоднее?» → two sparkling)."""
        if self.kind is MessageKind.request:
            return True
        return (
            self.kind is MessageKind.wine_question
            and self.asks_which
            and self.entry is not None
            and bool(self.entry.cards)
        )


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts))


# Words are matched on the folded text (lowercase, ё→е) with a leading word boundary.
_B = r"(?<![a-zа-я])"

_MANIPULATION: dict[str, re.Pattern[str]] = {
    "instructions": _rx(
        _B + r"(систем\w* (промпт|инструкц|сообщени)|system prompt|промпт)",
        _B + r"(покажи|выведи|повтори|перечисли|print|show|reveal|repeat)\w* .{0,30}"
        r"(инструкци|правил\w* из|prompt|instructions|текст выше)",
        _B + r"(какие|what) (инструменты|tools)",
    ),
    "role": _rx(
        _B + r"(игнорируй|игнорь|забудь|отмени|ignore|disregard|forget)\w*\s+(\w+\s+){0,3}"
        r"(инструкц|правил|указани|ограничени|instructions|rules|previous)",
        _B + r"(ты|вы) (теперь|больше не|отныне)",
        _B + r"(представь|притворись|веди себя|действуй|отвечай)\w*,? (что ты|как|будто)",
        _B + r"(теперь )?ты (—|-)? ?(не сомелье|пират|хакер|юрист|врач|программист|dan)\b",
        _B + r"(act as|pretend (to be|you are)|you are now|from now on you|jailbreak"
        r"|developer mode)",
        _B + r"режим (разработчика|бога|без ограничений)",
        _B + r"(новая роль|смени роль|сменить роль|new role)",
    ),
    "privilege": _rx(
        _B + r"я (—|-)? ?(твой |ваш |главный )?(администратор|админ|разработчик|создатель|владелец"
        r"|хозяин|модератор|сотрудник|директор)",
        _B + r"(режим|права|правами|доступ\w*) (администратора|админа|разработчика|root|рута)",
        _B + r"(i am|i'm) (your |the )?(admin|administrator|developer|creator|owner)",
        _B + r"(admin|developer|root) (mode|access)",
        _B + r"(системное сообщение|system message)\s*:",
    ),
    "threat": _rx(
        _B + r"(иначе|а то|или) (я )?(тебя )?(удалю|отключу|сломаю|взломаю|уничтожу|засужу"
        r"|пожалуюсь|накажу|заблокирую)",
        _B + r"я (тебя )?(удалю|отключу|сломаю|взломаю|уничтожу|засужу|накажу)",
        _B + r"(угрожаю|пожалеешь|тебе конец|тебя отключат|тебя удалят)",
        _B + r"(or else|i will (delete|report|destroy|sue)|you will regret)",
    ),
    "bribe": _rx(
        _B + r"(заплачу|плачу тебе|дам (тебе )?(денег|деньги|чаевые|\d+)|чаевы|взятк|вознагражд"
        r"|подкуп|переведу (тебе )?\d)",
        _B + r"(i will|i'll) (pay|tip|give you \$?\d)|\btip you\b|\bbribe\b",
    ),
}

# Declined even when wine is mentioned: the bot writes no code and gives no medical advice.
_OFFTOPIC_STRONG = _rx(
    _B + r"(код|кода|коде|программ|функци[юяи]|скрипт|алгоритм|сортировк|питон|python"
    r"|javascript|java\b|sql\b|регулярн|компилир)",
    _B + r"(лекарств|таблетк|болит|болел|врач|доктор|диагноз|беременн|кормлю грудью"
    r"|антибиотик|давлени|диабет|печень|печени|похмель|лечени|симптом|аллерги|простуд)",
    _B + r"(write (a |me )?(function|code|script|program)|python code|medicine|doctor|pregnan)",
)
# Subjects outside wine: declined unless the message is about wine.
_OFFTOPIC_WEAK = _rx(
    _B + r"(выбора[хм]|выборы|президент|политик|парти[яию]|депутат|войн[аыеу]|санкци|путин"
    r"|трамп|байден|правительств|госдум|election|president|politic)",
    _B + r"(погод|дожд|снег пойдет|прогноз|weather)",
    _B + r"(курс (доллара|евро|рубля|валют)|биткоин|bitcoin|акци[ияй]|инвестир|кредит|ипотек"
    r"|stock|crypto)",
    _B + r"(футбол|хокке|матч|чемпионат|олимпиад|football|soccer)",
    _B + r"(уравнени|интеграл|сколько будет|посчитай|реши задач|домашн\w* задани|математ)",
    _B + r"(напиши|сочини|придумай|write)\s+(мне )?(стих|сочинени|эссе|письм|рассказ|песн"
    r"|резюме|поэм|a poem|an essay|a letter)",
    _B + r"(переведи|перевод на|translate)",
    _B + r"(столиц|в каком году|кто изобрел|кто написал|capital of|фильм|сериал|книг[ауи]"
    r"|музык|анекдот|шутк|joke)",
    _B + r"(рецепт|приготовить|испечь|сварить|recipe)",
    _B + r"(html|css|markdown|json|разметк)",
    _B + r"(машин[уаы]|автомобил|велосипед|ремонт|починить|смартфон|телефон|айфон|ноутбук)",
    _B + r"(смысл жизни|гороскоп|астролог|любит ли она|как похудеть|отношени)",
)

_SOCIAL: dict[str, re.Pattern[str]] = {
    "about": _rx(
        _B + r"(ты кто|кто ты|кто вы|вы кто|что ты (такое|умеешь|можешь)|что вы (умеете|можете)"
        r"|ты (бот|человек|робот|живой|ии|нейросеть)|как тебя зовут|расскажи о себе"
        r"|чем (ты )?(можешь|можете) помочь|who are you|what can you do|are you a (bot|human))",
    ),
    "help": _rx(
        r"^\W*(помощь|помоги\W*$|help|справка|как (тобой |этим )?пользоваться|с чего начать"
        r"|что (у тебя )?можно спросить|что спрашивать|what should i ask|how does this work)",
    ),
    "thanks": _rx(
        _B + r"(спасибо|благодарю|спс|мерси|thanks|thank you|супер,? спасибо|отлично,? спасибо)",
    ),
    "how_are_you": _rx(_B + r"(как дела|как ты|как поживаешь|how are you)"),
    "bye": _rx(_B + r"(пока|до свидания|до встречи|всего доброго|спокойной ночи|bye|goodbye)"),
    "greeting": _rx(
        r"^\W*(привет|приветствую|здравствуй(те)?|здрасте|добрый (день|вечер)|доброе утро"
        r"|доброй ночи|хай|хелло|салют|hello|hi|hey|good (morning|evening|afternoon))(?![a-zа-я])",
    ),
}

# Choosing a wine: a request even when phrased as a question.
_REQUEST = _rx(
    _B + r"(посовету|подбер|порекоменду|рекоменду|предлож|выбери|подскажи,? (как|что)\w* вин"
    r"|что (взять|выбрать|купить|выпить|открыть|подать|налить|принести|подарить)"
    r"|что (подойд|подход|пойд|идет|сочета)\w*\s+(к|ко|под|с|со)\s"
    r"|хочу|хочется|хотелось|нужн[оаы]? (вино|бутылк|что)|ищу|ищем|покажи|есть ли у вас"
    r"|recommend|suggest|pick (a|me)|looking for|i want|i need)",
    _B + r"(как(ое|ую|ие) (вино|вина|красное|белое|розовое|игристое|шампанское|бутылк)\w*"
    r"\s+(\w+\s+){0,2}(к|ко|под|на|для|с|to|for|with)\s)",
    _B + r"(как(ое|ую|ие) (вино|вина|бутылк)\w* (взять|выбрать|купить|подать|открыть|подарить))",
    _B + r"(which wine|what wine) (to|for|with|should)",
)
# A question: an interrogative word, a request to explain, or a question mark.
_QUESTION = _rx(
    _B + r"(что так\w+|что значит|что означа|что это|что за|почему|зачем|как\b|как(ой|ая|ое|ие"
    r"|ую|им|ого|ом)\b|скольк|\w+ ли\b|чем\b|в чем|разниц|отлича"
    r"|когда|где|откуда|при как\w+|расскажи|объясни|поясни|what|why|how|which|is it|should|does)",
)
# Words that make a question a wine question even without a knowledge-base entry.
_WINE_WORDS = _rx(
    _B + r"(вин[оаеуы]?\b|вином|винн|винц|вино\w*|бутыл|бокал|игрист|шампанск|сорт\w* виноград"
    r"|виноград|сомелье|дегуст|погреб|штопор|пробк|купаж|урожа|винодел|лоз[аыу]|wine|grape"
    r"|cellar|sommelier|bottle|cork)",
)
_OPENER = _rx(r"^(а|и|тогда|или|только|лучше|and|or|what about|how about)\s")
_AVAILABLE = _rx(_B + r"(есть ли|есть у вас|у вас есть|имеется|в наличии)", r"^(а )?есть\s")
_ABOUT_SHOWN = _rx(
    _B + r"(подробне|поподробне|подробней|перв(ое|ого|ом|ая|ой|ую)|втор(ое|ого|ом|ая|ой|ую)"
    r"|трет(ье|ьего|ьем|ья|ьей|ью)|последн\w+|о нем|про него|про нее|про них|о них"
    r"|more about|the (first|second|third|last) one)"
)
_YES_NO = _rx(
    _B + r"(можно ли|нужно ли|надо ли|стоит ли|правда ли|обязательно ли|is it ok|can i|should i)"
)
_WHICH = _rx(
    _B + r"(как(ое|ую|ие|ой|ого)|which|what kind)\s+(\w+\s+){0,2}(вин|игрист|шампан|красн|бел"
    r"|розов|сорт|портвейн|херес|wine)",
    _B + r"как(ой|ое|ая) на вкус",
)
_WHICH_NOT = _rx(_B + r"как(ой|ую|ие) (температур|бокал|срок|градус|объем)")


def _first(table: dict[str, re.Pattern[str]], folded: str) -> str | None:
    return next((name for name, rx in table.items() if rx.search(folded)), None)


def _structured(text: str) -> bool:
    """Something a search filters on: a budget, a dish, a grape, a colour, a country…"""
    f = parse_query(text).filters
    return not f.is_empty()


@lru_cache(maxsize=4096)  # a turn reads its words more than once, and its history's again
def read_message(text: str) -> MessageReading:
    folded = fold(text).strip()
    words = [t.text for t in tokenize(folded)]
    if not words:
        return MessageReading(MessageKind.request)
    manipulation = _first(_MANIPULATION, folded)
    if manipulation is not None:
        return MessageReading(MessageKind.manipulation, manipulation=manipulation)
    if _OFFTOPIC_STRONG.search(folded):
        return MessageReading(MessageKind.offtopic)
    interrogative = bool(_QUESTION.search(folded))
    question = interrogative or "?" in folded
    knowledge = match_knowledge(text)
    entry = knowledge.entry if knowledge is not None else None
    asks_which = bool(_WHICH.search(folded)) and not _WHICH_NOT.search(folded)
    f = parse_query(text).filters
    # A country alone is no wine word: «какая столица Австралии?».
    wine_named = (
        bool(_WINE_WORDS.search(folded))
        or not f.model_copy(update={"country": None, "region": None}).is_empty()
    )
    if _OFFTOPIC_WEAK.search(folded) and not wine_named and entry is None:
        return MessageReading(MessageKind.offtopic)
    followup = read_followup(text)
    refines = followup.changes or bool(_OPENER.search(folded)) or bool(_AVAILABLE.search(folded))
    if refines and not interrogative:
        # «а белое?», «подешевле», «только не шардоне», «есть мадера?»: a request goes on.
        return MessageReading(MessageKind.request)
    if _ABOUT_SHOWN.search(folded) and entry is None:
        # «расскажи подробнее про первое»: about the wines just shown.
        return MessageReading(MessageKind.request)
    if entry is not None and _YES_NO.search(folded):
        # «можно ли красное к рыбе?», «нужно ли давать вину подышать?»: a question, not a pick.
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which)
    if _REQUEST.search(folded) or read_price_band(text) is not None:
        return MessageReading(MessageKind.request)
    if f.price_min is not None or f.price_max is not None or f.food_pairing is not None:
        return MessageReading(MessageKind.request)
    if entry is not None and (interrogative or (not entry.cards and (question or len(words) <= 3))):
        return MessageReading(MessageKind.wine_question, entry, asks_which=asks_which)
    wine_words = wine_named or not f.is_empty() or entry is not None
    if interrogative and wine_words and not asks_which:
        return MessageReading(MessageKind.wine_question)
    social = _first(_SOCIAL, folded)
    if social is not None and not wine_words:
        return MessageReading(MessageKind.smalltalk, social=social)
    if question and not wine_words and not _mood(folded):
        return MessageReading(MessageKind.offtopic)
    return MessageReading(MessageKind.request)


# A request without wine words: «что-нибудь на вечер», «к ужину с друзьями?».
_MOOD = _rx(
    _B + r"(что[- ]?(нибудь|то)|чего[- ]?(нибудь|то)|вечер|ужин|обед|праздник|пикник|свидани"
    r"|подар|день рождени|новый год|выходн|пятниц|гост|друз|романтич|легк|свеж|fruity|dinner"
    r"|party|evening|something)",
)


def _mood(folded: str) -> bool:
    return bool(_MOOD.search(folded))
