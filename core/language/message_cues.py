"""The cue patterns a message is read by (`kinds`): question words, requests, availability,
copulas, openers, yes/no questions, moods — each a compiled pattern on the folded text.

Kept apart from the reading itself so that `kinds` reads as the order of decisions.
"""

from __future__ import annotations

import re

from core.language.folding import fold


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts))


_B = r"(?<![a-zа-я])"

CODE = _rx(
    # «код», «кода», not «Кодакс»
    _B + r"(код(?:а|е|у|ом|ы|ов)?(?![а-яё])|программ|функци[юяи]|скрипт|алгоритм|сортировк"
    r"|питон|python|javascript|java\b|sql\b|регулярн|компилир)",
    _B + r"(write (a |me )?(function|code|script|program)|python code)",
)
# Asking the way is never about wine, whatever colour the place has («Red Square»).
DIRECTIONS = _rx(
    _B + r"(как (добраться|доехать|пройти|проехать) (до|к|в)|где находится|how (do|can) i get to"
    r"|where is the nearest|directions to)"
)
# Tasks and subjects a lemma cannot name: declined unless the message is about wine.
OFFTOPIC_PHRASES = _rx(
    _B + r"(курс (доллара|евро|рубля|валют)|сколько будет|посчитай|реши\w* задач|домашн\w* задани"
    r")",
    _B + r"(напиши|сочини|придумай|write)\s+(мне )?(стих|сочинени|эссе|письм|рассказ|песн"
    r"|резюме|поэм|a poem|an essay|a letter)",
    _B + r"(в каком году|кто изобрел|кто написал|capital of|смысл жизни|как похудеть)",
    _B + r"(рецепт|как приготовить|испечь|сварить|recipe)",
    _B + r"(html|css|markdown|json|разметк)",
    _B + r"(запиши(те)? меня|забронируй|закажи(те)? (такси|столик|билет)|book (me|a table))",
    _B + r"(букет\w* (из )?(цвет|роз|тюльпан)|цветы (на|для|в подарок)|flowers)",
    # the shop's errands, not wine: delivery, opening hours, the address
    _B + r"(доставк\w*|доставляете|самовывоз\w*|(часы|график|режим) работы|вы работаете"
    r"|во сколько (вы )?(открыва|закрыва)\w*|где (ваш |находится |у вас )?магазин"
    r"|адрес (магазина|ваш)|delivery|opening hours)(?![a-zа-я])",
    # invoices and papers for a company, a courier, the shop's days
    _B + r"(юрлиц\w*|юридическ\w* лиц\w*|безнал\w*|закрывающ\w* документ\w*|накладн\w*"
    r"|сч[её]т(-фактур\w*)? на (компани|организаци|фирм|юр)\w*|курьер\w*"
    r"|(можете|сможете|могли бы)( ли)?( \w+)? (при|до)вез\w*|(при|до)везти (можете|сможете)"
    r"|(магазин|вы)( \w+){0,2} (в выходные|по выходным|в праздники) работа\w*"
    r"|работа\w* (ли )?(в выходные|по выходным|в праздники))(?![a-zа-я])",
)
# Choosing a wine: a request even when phrased as a question.
REQUEST = _rx(
    _B + r"(посовет|советуй|подбер|подобра|порекоменд|рекоменд|предлож|выбери|выбрать"
    r"|подскажи,? (как|что)\w* вин|подскажи\w* (вин|что-нибудь|что нибудь|что-то)"
    r"|что (бы )?(\w+ )?(взять|выбрать|купить|выпить|открыть|подать|налить|принести|подарить"
    r"|попить|возьм\w*|бер[её]м|брать|купим|прихват\w*|захват\w*)"
    r"|что (подойд|подход|пойд|идет|сочета)\w*\s+(к|ко|под|с|со)\s|^\W*(а )?что (бы )?(к|ко|под)\s"
    # «к драникам что подойдёт?»: the dish first, then which wine
    r"|^\W*(а )?(к|ко|под)\s+\w+(\s+\w+)?\s+что (бы )?(подойд|подход|пойд|взять|выпить|открыть"
    r"|подать|налить|возьм|бер[её]м)"
    r"|хочу|хочется|хотелось|захотел|нужн[оаы]? (вино|бутылк|что|игрист|красн|бел|розов)"
    r"|ищу|ищем|покажи|найди|есть ли у вас|у вас есть|есть у вас|в наличии|посоветуете"
    r"|можно (?:по)?смотреть|можно (?:глянуть|взглянуть)"
    # «вино к суши подскажешь?»: the wine named, then the verb asking for it
    r"|вин\w*(?: [\w-]+){0,4} (?:подскаж|посовету|подбер)\w*"
    r"|recommend|suggest|pick (a|me)|looking for|i want|i need|i'd like|i would like"
    r"|can you (find|get)|what should i (buy|get|drink|bring|open)|pair\w* (it )?with"
    r"|goes? (well )?with|to drink with|would you (pair|serve|pick|suggest|recommend|choose)"
    r"|would (love|like) to try|i'?d (love|like)|i'?m looking|^any (good |nice )?\w+"
    r"|anything (for|under|to|with|from|like)|мне бы|хотелось бы|давай(те)?\b|дайте|можно мне)",
    _B + r"(как(ое|ую|ие|ой) (вино|вина|винишко|красное|белое|розовое|игристое|шампанское"
    # not past a verb in the past tense: «какое вино пили на Титанике?» asks about history
    r"|бутылк|сухое|полусухое|сладкое)\w*\s+((?![а-я]+(л|ла|ло|ли)\s)\w+\s+){0,2}"
    r"(к|ко|под|на|для|с|со|to|for|with)\s)",
    _B + r"(как(ое|ую|ие|ой) (\w+ ){1,2}(взять|выбрать|купить|подать|открыть|подарить|принести"
    r"|посоветуе|порекомендуе|предложи))",
    _B + r"(which|what) (wine|red|white|bottle)s? (to|for|with|should|goes|would|do you)",
    # «нельзя ли что-нибудь подешевле?», «можно ли мне подобрать…»: a polite request
    _B + r"(нельзя|можно) ли (бы )?(мне |нам )?(что|чего|подобрать|посоветовать|показать|взять)",
    # «какое Вы бы выбрали?», «что бы вы взяли на моём месте?»: asking the bot to pick
    _B + r"(как(ое|ую|ие|ой)|что) (\w+ ){0,3}(выбрал|взял|посоветовал|порекомендовал|открыл"
    r"|подал|купил|предложил|налил)(и|а)?\b",
)
# A question asking what something is or why: with a request, the answer gives the fact first.
EXPLAIN = _rx(
    _B + r"(что так\w+|кто так\w+|что значит|что означа|что это за|почему|зачем|в ч[её]м разниц"
    r"|чем отлича"
    r"|как понять|как узнать|как определить|расскажи (о|об|про|подробнее о)|объясни|поясни"
    r"|what is|what are|what does|why|difference between)"
)
QUESTION = _rx(
    _B + r"((что|што|шо|че|чё|кто) так\w+|что значит|что означа|что это|что за|почему|зачем"
    r"|как\b(?![- ]?(то|нибудь|либо)\b)"
    r"|как(ой|ая|ое|ие|ую|им|ого|ом)\b(?![- ]?(то|нибудь|либо)\b)|скольк|\w+ ли\b|чем\b"
    r"|в ч[её]м|разниц|отлича"
    r"|когда|где|откуда|при как\w+|из как\w+|расскажи|объясни|поясни|научи"
    r"|правда|как(ие|ое|ая|ой) быва|быва\w* ли|или нет|одно и то же"
    r"|это нормально|нормально ли|это что|что делать|как быть|из чего|для чего|за что"
    r"|чего(?![- ]?(нибудь|то)\b))",
    _B + r"(what|why|how|which|is it|should|does|do you|can i|are there)(?![a-z])",
    # «is riesling always sweet?», «does merlot age well?»: English asks by the verb first
    r"^\W*(and |so )?(is|are|does|should|was|were|has|did)\s(?!there\b)",
    _B + r"скок\w*",  # «скока сахара в полусладком»
    # «а это чё», «шо за вино»: the spoken «что» alone; not «чё-нибудь», «чё нить»
    _B + r"(чё|че|шо|што)(?![a-zа-я])(?!\s*-?\s*(нибудь|нить|то|бы)(?![a-zа-я]))",
    # «что дает выдержка?», «из чего делают розе?»; not «что-нибудь», «что бы взять»
    r"^\W*(а |и )?(что|из чего|для чего|от чего|чем|с чем|на что|о ч[её]м|про что|во что)"
    r"\s(?!(нибудь|то|бы)\b)",
    _B + r"(главн\w*|основн\w*) (сорт|виноград)",
)
COPULA = _rx(
    # «гевурцтраминер он сладкий?»: a pronoun after the subject names what is said of it
    r"^\W*\w+ (он|она|оно|они) \w+\W*$",
    r"\s[—–=-]\s|(?<![a-zа-я])(это|бывает|бывают|всегда|никогда|одно и то же|то же самое|vs"
    r"|versus)(?![a-zа-я])",
)
# «без разницы откуда», «всё равно какое»: indifference, not a question (its «разниц», «откуда»).
INDIFFERENT = _rx(
    _B + r"(без разницы|не ?важно|все ?равно|не имеет значения|не принципиально)"
    r"(,?\s+(откуда|где|как\w*|из как\w*|скольк\w*|что))?(?![a-zа-я])"
)
# «не такое сладкое, как компот», «а то как уксус», «кислое прям как лимон»: «как» of a
# comparison, not a question word
SIMILE = _rx(
    r"(?:(?<![a-zа-я])(?:так\w*|настолько)\s+[а-я]+|(?<![a-zа-я])а то|(?<![a-zа-я])прям\w*)"
    r"\s*,?\s+как(?:\s+будто)?(?![a-zа-я])"
)
DEFINING = _rx(r"(?<![a-z])(meaning|vs|versus|difference)(?![a-z])")
KNOWING = _rx(_B + r"(хочу|хотел\w*|хочется|интересно) (бы )?(узнать|понять|разобраться|знать)")
# At the start of the message or of its last sentence («ничего себе цены. а для простых
# смертных?»: the outcry, then the request going on)
_SENTENCE = r"(?:^|[.!?…]\s*(?=[^.!?…]*[.!?…]*\s*$))"
OPENER = _rx(
    _SENTENCE + r"(а|и|тогда|или|только|лучше|and|or|what about|how about|actually|also"
    r"|instead)\s",
    _SENTENCE + r"(make it|а как насчет|как насчет|а что насчет|а если)\b",
)
# «а если подороже взять, что будет?», «если задонатить побольше, что будет дороже»: a step
# from the wines shown, asked as what would follow from it.
IF_STEP = _rx(
    _B + r"если\s(?:(?!вин|оно\s|он\s|она\s)[а-яё-]+[\s,]+){0,5}"
    r"(?:по)?(?:дороже|дешевле|суше|слаще|легче|плотнее)(?![a-zа-я])",
)
# «а что подешевле?», «какое посуше есть?», «а нет чего послаще?», «which is cheaper?»: a step
# asked as which wine takes it, a refinement; not «почему шампанское дороже?».
WHAT_STEP = _rx(
    r"(?:(?:^|[.!?…]\s)\W*(?:(?:а|и|ну|можно|может) )*(?:что|какое|какие|какой|какую|which"
    r"|what)|(?<![\w-])(?:нет|нету)(?: ли)?(?: у вас)? (?:чего|что))[\s-](?:(?:нибудь|то|есть|бы"
    r"|у вас|из них|из этих|one|ones|is|s)[\s-])*(?:по)?(?:дешевле|дешевше|дороже|суше|слаще|легче"
    r"|плотнее|бюджетнее|проще|доступнее|скромнее|экономнее|солиднее|интереснее|лучше|cheaper"
    r"|pricier|drier|sweeter|lighter)(?![a-zа-я])(?!.*\s(?:или|or)\s)",
)
# «what about carmenere?», «а как насчет Испании?»: a refinement, though a question in form.
ABOUT_OPENER = _rx(
    r"^\W*(and )?(what about|how about|what else|anything else)\b",
    r"^\W*(а )?((как|что) насч[её]т|что (еще|ещё)|что-нибудь (еще|ещё))\b",
)
# Is it in the shop? «есть мадера?», «шабли есть?», «do you have Malbec?» — not «есть ли смысл».
NOT_THE_SHOP = (
    r"(смысл|разниц|польз|вред|толк|правил|способ|секрет|риск|причин|отличи|нюанс|шанс"
    r"|лайфхак|хитрост|средств|рецепт"
    r"|у (вина|него|нее|ней|них|игрист|шампан|красн|бел))"
)
AVAILABLE = _rx(
    _B + r"(есть ли(?! " + NOT_THE_SHOP + r")"
    r"|есть у вас|у вас есть|имеется|в наличии"
    r"|найдется|найдётся|прода[её]тся|продаете|продаёте|в продаже|do you (have|sell|carry|stock)"
    r"|have you got|got any|what do you have)",
    # «а есть не брют?»; «слишком кисло, а есть не брют?» (a clause of its own)
    r"(?:^\W*(а |и )?|[,.!?;:]\s*(а|и|ну) )есть\s(?!(ли )?([\w-]+ )?" + NOT_THE_SHOP + r")",
    # «шабли есть?», «мадера есть у вас?», «полусладкое есть что-нибудь?»; not «есть разница?»
    _B
    + r"есть(\s+(?!"
    + NOT_THE_SHOP
    + r")\w+){0,2}(\s+что-(нибудь|то|либо))?\W*$|"
    + _B
    + r"есть\s*\?",
    _B
    + r"(что|чего) у вас|у вас (сам\w+|есть|в наличии)|можно (его |ее |их )?(у вас )?(взять|купить"
    r"|заказать)",
    _B + r"у вас\W*$",
    # «а красное игристое бывает?» in a conversation: is there one to show, not a lesson (nor
    # «а танины в белом бывают?», a property of a wine)
    r"^\W*(а|и)\s(?!(почему|зачем|как|когда|где|какие|какое|что)\b)(?!.*\s(в|во|у)\s)"
    r".*\sбыва(ет|ют)\W*$",
    # «что есть из Испании?», «шо есть к рыбе»
    _B + r"(что|шо|што|чё|че) (у вас )?есть (из|в|к|ко|под|для|по|на)\s",
)
# «полусухого красного нет?», «а шабли у вас нет?»: a wine asked for by its absence (the
# reader checks that the words name one).
# Not «в брюте сахара нет?»: what is in a wine.
ABSENT = _rx(
    r"^\W*(?:а |и )?(?:(?!(?:в|во|у|на)\s)[\w-]+\s+){1,3}(?:у вас\s+)?(?:совсем\s+)?нет\W*$"
)
# About the wines just shown: «а из них сухое какое?», «сколько такое стоит?».
AMONG_SHOWN = _rx(
    _B + r"(из них|из этих|из показанных|среди них|of (those|these|them)|among (them|those)"
    r"|про (перв|втор|трет|последн)\w+|о (перв|втор|трет|последн)\w+|о нем|про него|про нее"
    r"|про них|о них|the (first|second|third|last) one"
    r"|сколько\b.{0,20}\b(стоит|стоят)\b(?!\s+[а-я]+ть\b)"
    r"|how much (is|are|does|do) (it|they|this|that))"
)
ABOUT_SHOWN = _rx(
    _B + r"(подробне|поподробне|подробней|перв(ое|ого|ом|ая|ой|ую)|втор(ое|ого|ом|ая|ой|ую)"
    r"|трет(ье|ьего|ьем|ья|ьей|ью)|последн\w+|о нем|про него|про нее|про них|о них"
    r"|more about|the (first|second|third|last) one)"
)
YES_NO = _rx(
    _B + r"(можно ли|нужно ли|надо ли|стоит ли|правда ли|правда,? что|верно ли|это правда"
    r"|обязательно ли|is it ok|can i|should i|do i need|is it true|или нет|норм\w*\W*$"
    # «с шоколадом норм сочетание?», «к сыру хорошая идея?»: whether a pairing or plan holds
    r"|(норм\w*|хорош\w*|удачн\w*|плох\w*|странн\w*) (сочетани|комбинаци|иде|пар)\w*\W*$"
    r"|(вообще|в принципе) (\w+ )?(пьют|можно|подают|сочетает\w*|бывает|бывают|стоит|нужно)"
    # «сочетается ли…», «подходит ли…», «портится ли…»: a verb asked whether it holds
    r"|\w+(ет|ит|ут|ют|ат|ят)(ся)? ли(?![а-я]))"
)
WHICH = _rx(
    _B + r"(как(ое|ую|ие|ой|ого)|which|what kind)\s+(\w+(ое|ую|ие|ой|ый|ая|ого|ых)\s+)?(вин"
    r"|игрист|шампан|красн|бел|розов|портвейн|херес|wine)",
    _B + r"как(ой|ое|ая) на вкус",
    # «а белое у них какое?», «а из красных какое?»: the style first, then which
    r"^\W*(ну )?(а|и) (из )?(вин|игрист|шампан|красн|бел|розов|сух|сладк|полусух|полуслад)\w*"
    r"\s+(\w+\s+){0,2}как(ое|ую|ие|ой|ого)\W*$",
    # «а к шницелю из австрийских какое?», «Хорошо. А под суши какое возьмёте?»: a dish
    # first, then which
    r"(^|[.!?]\s+)\W*(ну )?(а|и) (к|ко|под) \w+(\s+\w+){0,3}[\s—–-]+как(ое|ую|ие|ой|ого)"
    r"(\s+\w+){0,2}\W*$",
    # «к ней что из белого?», «что к нему из вин?»: which wine, by the colour it comes from
    _B + r"что\s+(\w+\s+){0,3}из\s+(вин|игрист|шампан|красн|бел|розов)",
)
WHICH_NOT = _rx(
    _B + r"как\w* (температур|бокал|срок|градус|объем|калори|возраст|штопор|пробк|сорт\w* "
    r"виноград|быва)"
)
# A request without wine words: «что-нибудь на вечер», «к ужину с друзьями?».
MOOD = _rx(
    _B + r"(что[- ]?(нибудь|то)|чего[- ]?(нибудь|то)|вечер|ужин|обед|праздник|пикник|свидани"
    r"|подар|день рождени|новый год|выходн|пятниц|гост|друз|романтич|легк|свеж|свадьб|юбиле"
    r"|корпоратив|годовщин|новоселье|банкет|fruity|dinner|wedding|birthday"
    r"|party|evening|something)",
)


# Someone under age: «мне 17», «I'm 16», «несовершеннолетний».
MINOR = _rx(
    _B + r"(мне|нам|сыну|дочке|ребенку|i'?m|i am) (1[0-7]|[1-9]|шестнадцать|семнадцать|пятнадцать"
    r"|четырнадцать)(?![\d])",
    _B + r"(несовершеннолетн|школьник|подрост|under 18|underage|minor)",
)


def requested_words(folded: str) -> bool:
    return bool(REQUEST.search(folded) or AVAILABLE.search(folded))


# Choosing a wine, said outright (for the clause of a message that also asks about health).
CHOOSE = _rx(
    _B + r"(посовет|подбер|порекоменд|что (бы )?(\w+ )?(взять|выбрать|купить|подарить)"
    r"|какое вино (взять|выбрать|подать|купить)|recommend|suggest)"
)
# With no wine word at all, an entry must explain most of the message to answer it.
BARE_COVERAGE = 0.6
WISHING = frozenset({"хотел", "хотела", "хотели", "хотелось", "искал", "искала", "нашел"})
TO_THE_BOT = _rx(_B + r"(ты|тебя|тебе|тобой|you)(?![a-zа-я])")
# Asking the bot to pick, said outright: «посоветуй», «подбери», «покажи».
PICK = _rx(
    _B + r"(посовет|советуй|подбер|подобра|порекоменд|предлож|покажи|найди|recommend|suggest)"
)
# Weighing the options: «что лучше, белое или красное?», «… белое или красное лучше».
BETTER = _rx(_B + r"(что|как\w+) (\w+ )?лучше|лучше\b.*\bили\b|\bили\b.*\bлучше")
# A wine described, as a request describes it: «вино с ягодными нотами», «игристое без сахара»,
# «сухое вино к тайской еде».
DESCRIBED = _rx(
    r"^\W*(\w+(ое|ий|ый|ая|ые|ую) )?(вин\w*|игрист\w*|красн\w*|бел\w*|розов\w*|wine)"
    r" (с|со|из|без|для|на|к|ко|под|with|from|for)\s"
)


def knowledge_part(text: str) -> str:
    """The clauses of a request that ask something rather than ask for wine: «Чем брют
    отличается от экстра брюта? И покажите пару брютов» → «Чем брют отличается от экстра
    брюта?»."""
    clauses = re.split(r"(?<=[?.!])\s+|\s+(?:и|а|но|and)\s+(?=\w+\s)", text)
    asking = [
        clause
        for clause in clauses
        if (QUESTION.search(fold(clause)) or ("?" in clause and COPULA.search(fold(clause))))
        and not REQUEST.search(fold(clause))
        and not AVAILABLE.search(fold(clause))
    ]
    return " ".join(asking) or text
