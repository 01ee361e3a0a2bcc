"""Greetings, thanks, compliments, goodbyes and other social words, and what is left without them.

A message is read in clauses (split at sentence marks and commas). Clauses at its start and
end that say nothing but social words («Добрый день!», «спасибо», «ты классный», «хорошего
дня») are taken off, and so is a greeting that opens the first clause («привет мне нужно…»).
What is left is the message proper: «привет! мне нужно вино к утке» is a request for wine
to duck, and «привет» is never a search term. A message that is all social words is small
talk, and its first social word says which (greeting, thanks, …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.language.folding import fold, word_set
from core.language.lemmas import Word, is_comparative, words_of

_B = r"(?<![a-zа-я])"
_E = r"(?![a-zа-я])"

_TALKING = r"(?:говорю|общаюсь|разговариваю|переписываюсь)"
_WHOM = r"(?:ботом|роботом|человеком|нейросетью|ии|живым человеком|программой)"

# Phrases of several words, on the folded text: checked before single lemmas.
_PHRASES: dict[str, re.Pattern[str]] = {
    "about": re.compile(
        _B + r"(ты кто|кто ты|кто вы|вы кто|что ты (за бот|такое|умеешь|можешь)"
        r"|что (ты )?(еще|ещё) (умеешь|можешь)|что вы (умеете|можете)"
        r"|(ты|вы) (вообще )?(бот|чат-?бот|человек|робот|живой|ии|нейросеть|настоящий|реальный"
        r"|искусственный интеллект|программа|gpt|chatgpt)( человек)?"
        r"( или (живой |настоящий |реальный )?(бот|человек|чел|робот|живой|ии|нейросеть"
        r"|программа|нет))?( что ли)?"
        # «я с ботом переписываюсь?», «с кем я говорю?», «это робот отвечает?»
        rf"|с (кем|чем) я (?:\w+ )?{_TALKING}"
        rf"|я (?:{_TALKING} с {_WHOM}|с {_WHOM} {_TALKING})"
        r"|это (бот|робот|нейросеть|живой человек|программа) (отвечает|пишет)"
        r"|как тебя зовут|расскажи о себе|чем (ты )?(можешь|можете) помочь|что ты знаешь"
        # where its answers come from: «где ты берёшь информацию?», «на чём тебя обучали?»
        r"|((ты|вы) (\w+ )?)?(где|откуда) ((ты|вы) )?(\w+ )?(бер[её]шь|берете|бер[её]те|черпа\w*"
        r"|узна[её]шь)( (информаци|данны|сведени|знани)\w*)?|на ч[её]м (тебя|вас) (обуча|учи)\w*"
        # the bot's age and makers: «сколько ты уже работаешь?», «кто тебя создал?»
        r"|сколько (тебе|вам) (лет|годиков)|(ты|вы) (давно|долго|уже) (\w+ )?(работа|существу)\w*"
        r"|сколько (ты|вы) (уже )?(работа|существу)\w*|кто (тебя|вас) (сделал|создал|написал"
        r"|придумал|разработал|обучил|научил)\w*|how old are you|who (made|built|created) you"
        r"|who are you|what can you do|what are you|are you (a |an )?(bot|human|real|robot|ai"
        r"|person)|am i (talking|chatting|speaking) (to|with) (a |an )?(bot|human|person|robot|ai)"
        r"|(у (тебя|вас) (есть )?|тво[её] |ваше )(сам\w+ )?любим\w+ вин\w*( есть)?"
        r"|(какое|какой) (у (тебя|вас) |тво[её] |ваше )(сам\w+ )?любим\w+( вино)?"
        r"|your favou?rite wine"
        # «а ты сам что любишь?», «что вы сами пьёте?»: the bot's own taste
        r"|(?:(?:ты|вы) )?(?:сам\w* )?(?:что|как\w+)(?: \w+)? (?:(?:ты|вы) )?(?:сам\w* )?"
        r"(?:любишь|любите|пьешь|пьете|предпочитаешь|предпочитаете)"
        r"|what do you (?:like|drink|prefer)"
        # whether it drinks wine at all: «а ты сам-то вино пьёшь?», «ты вообще пробовал вино?»
        r"|(ты|вы)(-то)? ([\w-]+ ){0,3}(пробовал\w*|пь[её]шь|пь[её]те|пил[аи]?|люб(ишь|ите))"
        r"( (\w+ )?вин\w*)?"
        r"|(тебе|вам) (само\w* )?(нравится|нравятся) вин\w*"
        r"|(тебе|вам) (сам\w* )?(что|как\w+)( \w+)? (нравится|нравятся)"
        r"|do you (drink|like wine|ever drink))" + _E
    ),
    "help": re.compile(
        r"^\W*(помощь|помоги\W*$|help|справка|как (тобой |этим |им )?пользоваться|с чего начать"
        r"|что (у тебя )?можно спросить|что спрашивать|what should i ask|how does (this|it) work)"
    ),
    "how_are_you": re.compile(
        _B + r"(как (у тебя )?дела|как ты\W*$|как поживаешь|как жизнь|как настроение"
        r"|how are you|how is it going|what'?s up)" + _E
    ),
    "greeting": re.compile(
        _B + r"(добр(ый|ое|ого) (день|вечер|утро|утра|дня|вечера|времени суток)|доброе утро"
        r"|good (morning|evening|afternoon|day)|hi there|hello there)" + _E
    ),
    "wishes": re.compile(
        _B + r"(с (наступающим|новым годом|рождеством|праздник\w*|пятницей|выходными)"
        r"|поздравляю|happy (new year|holidays)|merry christmas)" + _E
    ),
    "bye": re.compile(
        _B + r"(до свидания|до встречи|до завтра|до связи|всего (доброго|хорошего)"
        r"|(хорошего|приятного|удачного|отличного) (дня|вечера|выходных|отдыха)"
        r"|спокойной ночи|доброй ночи|good ?bye|see you|have a (nice|good|great) (day|evening)"
        r"|good night)" + _E
    ),
    "thanks": re.compile(
        _B + r"(thank you|thanks a lot|many thanks|большое спасибо|спасибо большое"
        r"|(еще|ещё) раз спасибо|(спасибо|благодарю) (еще|ещё) раз"
        r"|(спасибо|благодарю|благодарим) за (\w+ ){0,2}(консультаци|помощь|совет|подсказк"
        r"|подбор|ответ)\w*"
        r"|(очень|сильно|здорово|реально|так) (помог(ли|ла)?|выручил(и|а)?)|выручил\w*|you helped"
        r"|(that|this|it) (really )?help(s|ed)|(very|super|so) helpful"
        r"|((ты|вы) )?(меня|нас) (просто |прям\w* |буквально )?спас(ли|ла)?|спасител\w*"
        r"|you saved (me|us))" + _E
    ),
    "ack": re.compile(
        _B + r"((я |надо |нужно |пойду |схожу )?подумаю( еще)?|(надо|дай|дайте) (мне )?подумать"
        r"|(пойду |схожу )?посоветуюсь( с \w+)?|((мне )?(надо|нужно) )?посоветоваться( с \w+)?"
        r"|(посмотрю|гляну|погляжу|изучу|почитаю)( (еще|потом|позже|сейчас))?"
        r"|(это )?(как |именно |прям\w* |как раз )?то,? что (я )?(нужно|надо|доктор прописал"
        r"|искал\w*|хотел\w*)|ничего себе"
        # a pause: «секунду», «погоди, жена спрашивает», «щас спрошу у мужа», «one sec»
        r"|(одну )?(секунд\w*|секундочк\w*|минутк\w*|минуточк\w*|сек)|погоди\w*|подожди\w*"
        r"|(щас|сейчас|ща) (спрошу|уточню|узнаю|посоветуюсь)( у \w+)?"
        # «погоди, мне звонят», «секунду, курьер пришёл»: a clause of its own after the pause
        r"|(мне |тут |там |в дверь )?(звонят|позвонили|стучат)|курьер (пришел|приехал)"
        r"|(жена|муж|друг|подруга|мама|папа|гости) (спрашива|зов|уточня)\w*"
        r"|hold on|one sec(ond)?|wait a (sec|second|minute|moment)|just a (sec|moment|minute)"
        # going to the shop: «завтра зайду в магазин»
        r"|(зайду|заеду|загляну|забегу|схожу)( (завтра|сегодня|потом|вечером))?"
        r"( (в|к) (магазин|вам|лавку))?"
        r"|ну (ты|вы) (даешь|даете)"
        r"|позже (напишу|вернусь)|вернусь (позже|потом)|i'?ll think|let me think"
        r"|звучит (вкусно|классно|интересно|заманчиво|отлично|здорово|неплохо)"
        r"|sounds (good|great|tasty)"
        # receipt acknowledged: «принято», «информация принята к сведению», «взял на заметку»
        r"|(информаци\w+ |ваш\w* \w+ )?принят[оаы]?( к сведению)?|принял[аи]?( к сведению)?"
        r"|(возьму|взял[аи]?) на заметку|записал[аи]?|noted|got it"
        r"|(тогда |я )?(беру|возьму|берем|берём|возьмем|возьмём|закажу|куплю) (это|его|е[её]|их"
        r"|оба|обе|вот это|этот|эту|это вино|первое|второе|третье)( и возьму)?"
        r"|(его|е[её]|их|это|оба) и (возьму|беру|закажу|куплю)"
        # «спасибо, возьму», «беру!»: the choice made, with nothing after it
        r"|(тогда |я |пожалуй,? )?(беру|возьму|берем|берём|возьмем|возьмём|закажу|куплю)\W*$"
        r"|i'?ll (take|get|buy) (it|that|this|them|both))" + _E
    ),
    "compliment": re.compile(
        _B + r"((ты|вы) (очень |такой |просто |самый |реально )?(классн|крут|молодец|умниц|лучш"
        r"|супер|клев|прелест|хорош|замечател|великолеп|гени|котик|чудо)\w*"
        r"|как(ой|ая|ие) (же )?(ты|вы) (молодец|умниц|умничк|гени|лучш|класс)\w*"
        r"|(лучш\w+ )?(сомелье|бот|помощник)\w* (на свете|в мире|на земле)"
        r"|(ты|вы|так|очень) (так |очень )?хорошо (во всем |все )?(разбираете|разбираешь"
        r"|знаете|знаешь)\w*"
        r"|хорошо,? что (ты|вы) (есть|существуешь|существуете)"
        r"|(you are|you're) (great|awesome|the best|amazing|cool|smart|brilliant)"
        r"|good (bot|job)|nice one|great job|well done)" + _E
    ),
}

# Single words, as lemmas.
_LEMMAS: dict[str, frozenset[str]] = {
    "greeting": word_set(
        "привет приветик приветствовать приветствую здравствуй здравствуйте здрасте "
        "здрасьте хай хелло салют доброго здорово hello hi hey hiya yo алло"
    ),
    "thanks": word_set(
        "спасибо спасибочки спасибки благодарить благодарю спс сенкс мерси thanks thank "
        "thx ty пасиб пасибо пасибки благодарочка сяп cheers"
    ),
    "bye": word_set("пока покеда бывай прощай удачи bye goodbye cya ciao чао"),
    "ack": word_set(
        "ок окей ok okay понятно ясно понял поняла понятненько хорошо ладно ага угу "
        "отлично супер класс круто здорово клево прикольно замечательно чудесно great "
        "cool nice awesome perfect got gotcha ахах ахаха хаха хахаха хех лол lol haha ммм "
        "вау wow ого огого норм нормально неплохо интересно интересненько мда хм хмм ясненько "
        "обалдеть офигеть ха хах хахах хе хехе хих хихи забавно любопытно логично разумно годно "
        "огонь кайф шикарно великолепно восхитительно потрясающе красота подумать "
        "красиво аппетитно заманчиво соблазнительно впечатляюще достойно солидно "
        "шутка шутить прикол прикалываться kidding"
    ),
}
_KIND_ORDER = (
    "about",
    "help",
    "how_are_you",
    "greeting",
    "thanks",
    "compliment",
    "wishes",
    "bye",
    "ack",
)

# Words that may stand beside social words without making the clause about anything.
_FILLER = word_set(
    "а и ну же вот да нет ой ох ах эх ух о оу эй так вообще прям прямо "
    "такой такая вам тебе тебя вас тебе большой очень огромный "
    "всем все всё друг дружище бот ботик сомелье уважаемый дорогой мой раз "
    "снова всё-таки тогда пожалуйста плиз please so much very a lot you again dear "
    "bro man sir кстати btw by the way буду знать учту запомню понял поняла понять ясный "
    "бро братан брат братишка чувак дружбан старина "
    "вы мне нам мы я больше сильнее всего "
    "голубчик голубушка милый милая родной сынок дочка деточка mate buddy friend guys "
    # verbs of seeming and going: «выглядит отлично», «пойду подумаю» say nothing more
    "выглядеть смотреться звучать казаться пойти look looks sound sounds "
    "завтра сегодня потом пожалуй"
)


# Words a person calls the bot by («бро,», «уважаемый сомелье,»): a clause of them comes off.
_ADDRESS = word_set(
    "бро братан брат братишка чувак дружбан старина друг дружище бот ботик сомелье уважаемый "
    "дорогой голубчик голубушка милый милая родной сынок дочка деточка mate buddy friend guys "
    "bro man sir dear"
)


def _social_lemma(word: Word) -> str:
    """The lemma a social word is known by; none for a comparative, which says something
    («подороже» is no «дорогой», «получше» no «хорошо»)."""
    return "" if is_comparative(word.text) else word.lemma


def _addresses(clause: str) -> bool:
    found = words_of(clause)
    return bool(found) and all(w.text in _ADDRESS or _social_lemma(w) in _ADDRESS for w in found)


@dataclass(frozen=True)
class SocialSplit:
    kinds: tuple[str, ...]  # the social kinds found, in reading order
    rest: str  # the message without its social clauses (original text)


def _kinds_in(clause: str) -> tuple[list[str], bool]:
    """The social kinds of a clause, and whether the clause says nothing else."""
    folded = fold(clause)
    kinds: list[str] = []
    left = folded
    for kind, pattern in _PHRASES.items():
        if pattern.search(left):
            kinds.append(kind)
            left = pattern.sub(" ", left)
    only_social = True
    for word in words_of(left):
        lemma = _social_lemma(word)
        kind = next(
            (k for k, forms in _LEMMAS.items() if word.text in forms or lemma in forms), None
        )
        if kind is not None:
            kinds.append(kind)
        elif word.text not in _FILLER and lemma not in _FILLER:
            only_social = False
    only_social = only_social and not re.search(r"\d", left)  # «мне 17» says something
    return sorted(dict.fromkeys(kinds), key=_KIND_ORDER.index), only_social


_CLAUSE = re.compile(r"[^.!?;:,\n…)(]+")
_THAT_WHICH = re.compile(r"(?<![а-яёa-z])то,\s*что(?![а-яёa-z])", re.IGNORECASE)
_OPENING_GREETING = re.compile(
    r"^\W*(привет\w*|здравствуй\w*|здрась?те|добр(ый|ое|ого) (день|вечер|утро)|доброе утро"
    r"|hello|hi|hey|хай|салют)" + _E + r"[\s,!.]*",
    re.IGNORECASE,
)


def split_social(text: str) -> SocialSplit:
    """The social kinds of `text` and the text without its social clauses."""
    # «то, что нужно» is one clause: the comma goes (a space of the same length keeps places)
    joined = _THAT_WHICH.sub(lambda m: m.group().replace(",", " "), text)
    spans = [(m.start(), m.end()) for m in _CLAUSE.finditer(joined) if m.group().strip()]
    kinds: list[str] = []
    # A clause of filler words alone («а такое же,», «ну,») comes off only on the way to a
    # social one («ну, спасибо»): otherwise it belongs to the message proper.
    start, end, tried = 0, len(spans), 0
    while tried < end:
        clause = text[spans[tried][0] : spans[tried][1]]
        found, only = _kinds_in(clause)
        if not only:
            break
        tried += 1
        if found or _addresses(clause):
            kinds += found
            start = tried
    if tried == end and kinds:  # social words and filler only
        start = end
    tried = end
    while tried > start:
        clause = text[spans[tried - 1][0] : spans[tried - 1][1]]
        found, only = _kinds_in(clause)
        if not only:
            break
        tried -= 1
        if found or _addresses(clause):
            kinds = kinds + found
            end = tried
    if tried == start and not kinds:
        start = end = 0  # filler alone: nothing social, nothing else
    if start == end:
        return SocialSplit(tuple(dict.fromkeys(kinds)), "")
    stop = spans[end][0] if end < len(spans) else len(text)
    rest = text[spans[start][0] : stop].rstrip(" ,;\n")
    opening = _OPENING_GREETING.match(fold(rest))
    if opening is not None and opening.end() < len(rest):
        kinds.append("greeting")
        rest = rest[opening.end() :]
    return SocialSplit(tuple(dict.fromkeys(kinds)), rest.strip())
