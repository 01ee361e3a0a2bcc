"""A step of the price from the wines shown: «подешевле», «не, дорого», «кусается», «вдвое
дешевле» (cheaper, and by what share); «подороже», «посолиднее», «слишком дёшево» (dearer); a
comparative of wealth or standing in any form («позажиточнее», «попрестижнее») or of thrift
(«поскромнее»). A step told by the price itself («более высокой стоимости», «с меньшей ценой»,
«пониже в цене») is said again as «дороже» / «дешевле» first. The text comes folded and without
its numbers; a «не» before it («не выше по цене») is a bound, not a step."""

from __future__ import annotations

import re
from functools import cache

from core.language.lemmas import compared_adjective
from core.language.price_bands import too_cheap

_PRICE_NOUN = r"(?:цен\w*|ценник\w*|стоимост\w*|ценов\w+ (?:сегмент|категори|уров|класс)\w*)"
_HIGHER = r"(?:(?:более |чуть |немного )?(?:высок|больш|высш)\w*|выше|повыше|побольше)"
_LOWER = r"(?:(?:более |чуть |немного )?(?:низк|меньш|невысок)\w*|ниже|пониже|поменьше)"


def _price_step(word: str) -> re.Pattern[str]:
    return re.compile(
        rf"(?<![a-zа-я])(?<!не )(?:{word} (?:(?:по|в|с) )?{_PRICE_NOUN}"
        # «цену можно повыше», «ценник бы побольше»
        rf"|{_PRICE_NOUN} (?:(?:по|в|с|можно|бы|чуть|немного) )?{word})(?![a-zа-я])"
    )


_HIGHER_PRICE = _price_step(_HIGHER)
_LOWER_PRICE = _price_step(_LOWER)


_THRIFTIER = re.compile(
    r"(?<![a-zа-я])(?:(?:более )?экономичн\w*|бюджет ограничен\w*"
    # «цена высоковата», «ценник завышен»: the price too high, not a wish for a higher one
    r"|(?:цен\w*|ценник\w*|стоимост\w*) (?:\w+ )?(?:высоковат|великоват|завышен|кусач|зашкалива)\w*"
    r"|(?:высоковат|великоват|завышен)\w* (?:\w+ )?(?:цен|ценник|стоимост)\w*"
    # «ого цены», «ну и ценник», «цены космос»: an outcry at the prices shown
    r"|(?:ого|ого го|ну и|вот это|ничего себе|офигеть|обалдеть|жесть|ух|ох) (?:\w+ )?"
    r"(?:цены|ценник\w*|ценой|стоимость)(?![a-zа-я])"
    r"|(?:цены|ценник\w*) (?:\w+ )?(?:космос|космическ\w*|заоблачн\w*|бешен\w*|негуманн\w*"
    r"|конск\w*|кусают\w*|как крыло)"
    # «для простых смертных», «на студенческий кошелёк»: wine for a smaller purse
    r"|(?:для|простым) (?:простых )?смертн\w*|студенческ\w* (?:кошел|бюджет|карман)\w*)"
)


def price_steps_as_words(folded: str) -> str:
    """«позиции более высокой стоимости» -> «позиции дороже»; «экономичнее» -> «дешевле»."""
    stepped = _HIGHER_PRICE.sub(" дороже ", _THRIFTIER.sub(" дешевле ", folded))
    return _LOWER_PRICE.sub(" дешевле ", stepped)


_CHEAPER = (
    "дешев",
    "подешев",
    "бюджетн",
    "недорог",
    "подешёв",
    "попроще по цен",
    "дороговат",
    "слишком дорог",
    "экономн",
    "кусает",
    "кусаю",
    "кусач",
    "полцены",
    "не потян",
    "не по карман",
    "не готов столько",
    "столько не готов",
    "поскромн",
    "скромнее",
    "демократичн",
    "по карман",
    "эконом ",
    "студенческ",
    "более скромн",
    "подоступн",
    "доступнее",
    "более доступн",
    "менее дорог",
    "не так дорог",
    "не такое дорог",
    "столько не дам",
    "не дам столько",
    "столько не отдам",
    "многовато",
    "за копейки",
    "денег мало",
    "мало денег",
    "на мели",
    "переплачива",
    "переплат",
    "конск",
    "cheap",
    "less expensive",
    "too expensive",
    "pricey",
    "too much",
    "a bit much",
    "more affordable",
    "lower price",
)
_DEARER = (
    "дорож",
    "подорож",
    "дороже",
    "премиальн",
    "поинтересн",
    "получше",
    "посерьезн",
    "посолидн",
    "покруче",
    "более дорог",
    "недешев",
    "пошикарн",
    "шикарнее",
    "побогаче",
    "пороскошн",
    "роскошнее",
    "круче",
    "покачественн",
    "качественнее",
    "люксов",
    "эксклюзивн",
    "изысканн",
    "особенное",
    "особенного",
    "особенную",
    "особенный",
    "особенные",
    "премиум",
    "самое лучш",
    "лучшее что",
    "поприличн",
    "поблагородн",
    "уровнем выше",
    "уровнем повыше",
    "классом выше",
    "классом повыше",
    "из дорогих",
    "элитн",
    "топов",
    "статусн",
    "pricier",
    "fancier",
    "a step up",
    "go up a level",
    "upgrade",
    "something nicer",
    "more premium",
    "go higher",
    "higher end",
    "higher-end",
    "upscale",
)
_DEARER_PHRASES = (
    "more expensive",
    "подороже",
    "по дороже",
    "лучше качеств",
    "upmarket",
    "высокого класса",
    "высокого уровня",
    "верхней полки",
    "с верхней полк",
    "уровень повыше",
    "уровень выше",
    "класс повыше",
    "класс выше",
    "повыше классом",
    "выше классом",
    "повыше уровнем",
    "выше уровнем",
)

# «не, дорого», «а попроще?»: the price of what was shown, said as a complaint or a wish
# («дорогое» asks for dear wine; «попроще по телу» is lighter)
_TOO_DEAR = re.compile(r"(?:^|\s)(?:дорого|попроще(?! по (?:тел|вкус|стил)))(?:\s|$)")
# «можно и дорого», «пусть дорого», «не страшно, если дорого», «дорого-богато»: dear is welcome
_DEAR_WELCOME = re.compile(
    r"(?:можно|пусть|хоть|готов\w*|не страшно|не жалко|неважно|не важно|ничего)(?: и| если| что)?"
    r"(?: даже)? дорого|дорого богато"
)

# «вдвое дешевле», «в 3 раза дешевле», «за полцены», «half the price»
_SHARE = re.compile(
    r"(?<![a-zа-я])(?:(?:вдвое|в два раза|в 2 раза)(?P<two> дешевле)|(?P<half>за полцены|полцены"
    r"|half the price|half price)|(?:втрое|в три раза|в 3 раза)(?P<three> дешевле))"
)


def price_share(folded: str) -> float | None:
    """«вдвое дешевле», «за полцены»: the share of the price shown asked for, or None."""
    match = _SHARE.search(folded)
    if match is None:
        return None
    return 1 / 3 if match.group("three") else 0.5


def _too_dear(folded: str) -> bool:
    """«не, дорого», «а попроще?»: not «можно и дорого» or a wish for dearer wine."""
    return (
        bool(_TOO_DEAR.search(folded))
        and not _DEAR_WELCOME.search(folded)
        and not (has_comparative_cue(folded, _DEARER) or has_cue(folded, _DEARER_PHRASES))
    )


def has_cue(folded: str, cues: tuple[str, ...]) -> bool:
    """Does a word of the folded text begin with one of `cues` (stems or phrases)?"""
    return _cue_pattern(cues, False).search(folded) is not None


def has_comparative_cue(folded: str, stems: tuple[str, ...]) -> bool:
    """As `has_cue`, and a stem may take the «по-» of a comparative: «поэлитнее»,
    «подемократичнее», as «посолиднее» and «подешевле»."""
    return _cue_pattern(stems, True).search(folded) is not None


@cache
def _cue_pattern(cues: tuple[str, ...], comparative: bool) -> re.Pattern[str]:
    longest_first = sorted({cue.replace("ё", "е") for cue in cues}, key=len, reverse=True)
    # a cue ending in a space («сладковато ») is a whole word: the text's end ends it too
    alternatives = "|".join(
        re.escape(cue.rstrip()) + (r"(?=\s|$)" if cue.endswith(" ") else "")
        for cue in longest_first
    )
    return re.compile(rf"(?:^|\s){'(?:по)?' if comparative else ''}(?:{alternatives})")


# The bar or the stakes raised or lowered, money spent more or less: «поднимем планку»,
# «потратить побольше», «могу раскошелиться»; «опустим планку», «хочу сэкономить».
_BAR = r"(?:\s+\w+)?\s+(?:планк|планочк|ставк|уровен|уровн|ценник)"
_GROW = r"(?<![a-zа-я])(?:подн[яи]\w*|повыс\w*|повыш\w*|увелич\w*|расшир\w*)"
_MONEY = r"\w*\s+(?:\w+\s+)?(?:деньг|денег|бюджет|сумм)"
_SHRINK = r"(?<![a-zа-я])(?:сниз\w*|сниж\w*|уменьш\w*|урез\w*|уреж\w*|сократ\w*|ужать|ужмем|ужмём)"
_RAISED = re.compile(
    rf"(?<![a-zа-я])(?:подн[яи]\w*|подым\w*|повыс\w*|повыш\w*|задер\w*|задр\w*){_BAR}"
    r"|(?<![a-zа-я])(?:потрат\w*|потрачу|выложить|отдать|заплатить)\s+(?:и\s+)?(?:по)?больше"
    r"|(?<![a-zа-я])(?:по)?больше\s+(?:потрат|выложить|заплат)|раскошел|шикан"
    r"|не эконом\w*|без экономии|гулять так гулять|не (?:по)?жале\w* (?:денег|деньги|средств)"
    r"|(?:денег|деньги|средств) не (?:по)?жал\w*|деньги не проблема|за ценой не постоим"
    # «бюджет можно поднять», «увеличим бюджет», «бюджет побольше»
    rf"|{_GROW}(?:\s+\w+)?\s+бюджет|бюджет\w*(?:\s+\w+){{0,2}}\s+(?:{_GROW}|побольше)"
)
_LOWERED = re.compile(
    rf"(?<![a-zа-я])(?:опуст\w*|опуск\w*|сниз\w*|сниж\w*|пониз\w*|пониж\w*|урез\w*){_BAR}"
    r"|(?<![a-zа-я])(?:потрат\w*|потрачу|заплатить|отдать)\s+(?:по)?меньше"
    r"|(?<![a-zа-я])(?:по)?меньше\s+(?:потрат|заплат)|сэконом"
    rf"|{_SHRINK}(?:\s+\w+)?\s+бюджет|бюджет\w*(?:\s+\w+){{0,2}}\s+(?:{_SHRINK}|поменьше)"
    # «за меньшие деньги», «небольшой бюджет», «денег поменьше»: less money, said of the money
    rf"|(?<![a-zа-я])(?:меньш|небольш|маленьк|скромн|невелик){_MONEY}"
    rf"|(?<![a-zа-я])(?:денег|деньг\w*|бюджет\w*|сумм\w*)\s+(?:\w+\s+)?(?:по)?меньше"
    # «не хочу столько тратить», «не готова столько платить»
    r"|(?<![a-zа-я])не\s+(?:хоч\w*|хотел\w*|готов\w*|буду|стану|могу|планиру\w*)\s+(?:\w+\s+)?"
    r"(?:столько|так много)"
)


# A comparative of a word of wealth or standing asks for a dearer wine, of thrift for a cheaper
# one, in whatever form it comes («позажиточнее», «попрестижнее», «пафоснее», «поскромнее»)
_DEAR_ADJECTIVES = frozenset(
    {
        "дорогой",
        "богатый",
        "зажиточный",
        "престижный",
        "элитный",
        "пафосный",
        "брендовый",
        "солидный",
        "статусный",
        "роскошный",
        "шикарный",
        "благородный",
        "достойный",
        "премиальный",
        "люксовый",
        "представительный",
        "респектабельный",
        "именитый",
        "звёздный",
        "звездный",
        "дорогостоящий",
        "презентабельный",
    }
)
_THRIFTY_ADJECTIVES = frozenset(
    {"дешёвый", "дешевый", "скромный", "бюджетный", "экономный", "доступный", "демократичный"}
)


def _compares_by(folded: str, adjectives: frozenset[str]) -> bool:
    return any(compared_adjective(word) in adjectives for word in folded.split())


# «не такое бюджетное», «не настолько дешёвое»: cheapness said away, a wish for dearer wine
_NOT_CHEAP = re.compile(
    r"(?<![a-zа-я])не (?:(?:так\w*|настолько|слишком|очень|совсем) )?"
    r"(?:бюджетн|дешев|простеньк|копеечн)\w*"
)


def steps_cheaper(folded: str) -> bool:
    """«подешевле», «не, дорого», «кусается», «опустим планку»: cheaper than the wines shown
    (not «слишком дёшево» or «не такое бюджетное», which wish dearer)."""
    folded = _NOT_CHEAP.sub(" ", folded)
    cheaper = (
        has_comparative_cue(folded, _CHEAPER)
        or _too_dear(folded)
        or bool(_LOWERED.search(folded))
        or _compares_by(folded, _THRIFTY_ADJECTIVES)
    )
    return cheaper and not too_cheap(folded)


def steps_dearer(folded: str) -> bool:
    """«подороже», «посолиднее», «слишком дёшево», «поднимем планку»: dearer than the wines
    shown."""
    return (
        has_comparative_cue(folded, _DEARER)
        or has_cue(folded, _DEARER_PHRASES)
        or too_cheap(folded)
        or bool(_RAISED.search(folded))
        or _compares_by(folded, _DEAR_ADJECTIVES)
        or bool(_NOT_CHEAP.search(folded))
    )
