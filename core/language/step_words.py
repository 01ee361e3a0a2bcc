"""The words of a follow-up's step: drier, sweeter, lighter, fuller, more, and the words a
refinement opens with («а белое?», «ок, а сухое?», «не, кислит…»). Stems or phrases: a word
of the folded text starting with one of them carries the change (`price_steps.has_cue`)."""

from __future__ import annotations

import re

from core.language.folding import word_set

# Stems: a word starting with one of these (after ё→е) carries the change.
# «слишком сладко», «приторно», «кисловато»: a complaint about the wines shown steps away
DRIER = (
    "посуше",
    "суше",
    "более сух",
    "драй",
    "drier",
    "dryer",
    "less sweet",
    "too sweet",
    "менее слад",
    "не такое слад",
    "не настолько слад",
    "не так слад",
    "слишком слад",
    "сладковато ",
    "сладковатый для",
    "сладковатое для",
    "притор",
    "менее притор",
    "покислее",
    "less sugar",
    "not so sweet",
)
SWEETER = (
    "послаще",
    "слаще",
    "более слад",
    "sweeter",
    "more sweet",
    "сладеньк",
    "остаточн",
    "менее сух",
    "less dry",
    "too dry",
    "too sour",
    "слишком сух",
    "суховат",
    "сухова",
    "слишком кисл",
    "кисловат",
    "менее кисл",
    "кислюч",
    "кислятин",
    "кислит",
    "без кислинк",
    "без кислоты",
    "не кислое",
    "не такое кисл",
    "не настолько кисл",
    "не так кисл",
    "не такое сух",
    "не настолько сух",
    "посахарн",
    "сахарнее",
)
LIGHTER = (
    "полегче",
    "легче",
    "лёгче",
    "более легк",
    "lighter",
    "менее плотн",
    "менее тяжел",
    "менее насыщ",
    "не такое тяжел",
    "не такое плотн",
    "не настолько тяжел",
    "не настолько плотн",
    "слишком тяжел",
    "слишком плотн",
    "слишком насыщ",
    "попроще по тел",
    "тоньше",
    "потоньше",
    "изящнее",
    "поизящн",
    "жиже",
    "пожиже",
    "воздушн",
    "легоньк",
    "less heavy",
    "less body",
)
FULLER = (
    "помощнее",
    "мощнее",
    "плотнее",
    "поплотн",
    "насыщеннее",
    "понасыщ",
    "потяжел",
    "тяжелее",
    "более плотн",
    "более насыщ",
    "более тяжел",
    "полнотелее",
    "более полнотел",
    "покрепче",
    # «пожирнее по телу», «поядрёнее»; too thin a wine asks for a fuller one
    "пожирн",
    "жирнее",
    "поядрен",
    "ядренее",
    "жидковат",
    "слишком легк",
    "не такое легк",
    "не настолько легк",
    "не такое жидк",
    "слишком простое на вкус",
    "водянист",
    "гуще",
    "погуще",
    "мясист",
    "с телом",
    "more body",
    "bigger",
    "fuller",
    "bolder",
    "richer",
)
MORE = (
    "ещё",
    "еще",
    "другие",
    "другое",
    "другой",
    "другую",
    "другого",
    "иные",
    "иное",
    "more",
    "another",
    "other",
    "others",
    "else",
    "варианты",
    "вариантов",
    "альтернатив",
)
OPENERS = (
    "а",
    "и",
    "and",
    "what",
    "how",
    "or",
    "или",
    "тогда",
    "then",
    "лучше",
    "а если",
    "actually",
    "make",
    "instead",
    "also",
    # «можно и до полутора», «пусть будет белое», «хотя давай игристое»
    "можно",
    "пусть",
    "хотя",
    "впрочем",
)


# «ок, а сухое?», «ладно, давай сухое до косаря», «не, кислит, полусухое есть?»: words that
# answer what was shown before the change is said
LEAD_INS = word_set(
    "ок окей ok okay ладно хорошо ну хм хмм ясно понятно понял поняла ага угу да так well hmm "
    "alright yeah"
)
CORRECTIONS = word_set("не нет давай давайте no nah nope")


# «не такое мощное», «менее насыщенное», «чтоб не кислило», «too heavy»: a quality said with
# less of it, or as too much of it, asks for the other end of its scale
_QUALITIES = {
    "fuller": r"мощн|плотн|насыщен|тяжел|полнотел|густ|жирн|ядрен|концентрирован|heavy|full|bold",
    "lighter": r"легк|жидк|водянист|тонк|воздушн|light|thin|watery",
    "sweeter": r"слад|притор|сахарист|sweet|sugary",
    "drier": r"сух|кисл|dry|sour|acidic|tart",
}
_OPPOSITE = {"fuller": "lighter", "lighter": "fuller", "sweeter": "drier", "drier": "sweeter"}
_DEGREE = (
    r"менее|слишком|чересчур|уж больно|очень уж|less|too|not (?:so|as|too)"
    r"|не (?:такое|такой|такая|такие|так|настолько|слишком)"
)
# «не люблю кислое», «чтоб не кислило»; not of sweetness: «лишь бы не сладкое» is a wine with
# no sugar to speak of, said rather than a step (`FollowUp.not_sweet`)
_UNWANTED = (
    r"(?:чтобы?|лишь бы|только) не|без"
    r"|не (?:люблю|любит|любим|хочу|хочется|надо|нужно|нравится|нравятся)"
)
_LESS_OF_QUALITY = {
    quality: re.compile(
        rf"(?:^|\s)(?:{_DEGREE if quality == 'sweeter' else f'{_DEGREE}|{_UNWANTED}'})"
        rf"\s+(?:\w+\s+)?(?:{stems})"
    )
    for quality, stems in _QUALITIES.items()
}


def steps_away(folded: str) -> tuple[frozenset[str], str]:
    """The steps a quality said as too much or unwanted asks for («не такое мощное» →
    lighter, «чтоб не кислило» → sweeter), and the text without those phrases: their own
    word («без сладости») asks for nothing of itself."""
    steps: set[str] = set()
    for quality, pattern in _LESS_OF_QUALITY.items():
        if pattern.search(folded):
            steps.add(_OPPOSITE[quality])
            folded = pattern.sub(" ", folded)
    return frozenset(steps), folded


# «сухое кажется кислым», «показалось тяжёлым», «водянистое оно какое-то»: a taste the wines
# shown seemed to have, said with a verb of seeming (or in the past), is a complaint — a step
# away from it, whatever the taste word's form; not a wish («чтобы было сладким», «хочу
# какое-то сладкое», «сладкое было бы здорово»)
_SEEMING = (
    r"(?:кажется|кажутся|казалось|казался|казалась|показалось|показался|показалась|показались"
    r"|было|был|была|были|вышло|вышел|вышла|оказалось|оказался|оказалась|на вкус)(?! бы)"
)
_VAGUE = r"(?:какое|какой|какая)[- ]то"  # «сладкое какое-то»: said after the taste only
# a taste the wines shown had, and the step away from it
_AWAY = {
    "кисл": "sweeter",
    "кисел": "sweeter",
    "сладк": "drier",
    "сладок": "drier",
    "притор": "drier",
    "тяжел": "lighter",
    "плотн": "lighter",
    "водянист": "fuller",
    "жидк": "fuller",
    "жидок": "fuller",
}
_TASTES = "|".join(_AWAY)


def _taste(name: str) -> str:
    return rf"(?P<{name}>{_TASTES})"


_COMPLAINT = re.compile(
    rf"(?<![а-я]){_SEEMING} (?:\w+ )?(?:слишком |очень |немного |чуть |как-то |уж )?"
    rf"{_taste('after')}\w*"
    rf"|(?<![а-я]){_taste('before')}\w* (?:\w+ )?(?:{_SEEMING}|{_VAGUE})(?![а-я])"
)
# the words before a taste that make it a wish, not a complaint
_WISH = re.compile(
    r"(?<![а-я])(?:чтоб|чтобы|бы|хочу|хочется|хотим|хотелось|нужно|нужен|нужна|надо|пусть"
    r"|должно|должен|должна|люблю|любит|ищу|посоветуй\w*|подбери\w*)(?:\s+\S+){0,2}\s*$"
)
# «сухое кажется кислым»: the style the complaint is about is its measure, not asked for
_COMPLAINED_STYLE = re.compile(
    rf"(?<![а-я])(?:полу)?(?:сух|сладк)\w*(?= (?:\w+ )?{_SEEMING} (?:\w+ )?\w*(?:{_TASTES}))"
)


_BODY_TASTES = tuple(taste for taste, step in _AWAY.items() if step in ("lighter", "fuller"))
_WORD_AT = re.compile(r"\w*")


def _complaints(folded: str) -> list[re.Match[str]]:
    found = []
    for match in _COMPLAINT.finditer(folded):
        taste = "after" if match.group("after") else "before"
        word = _WORD_AT.match(folded, match.start(taste))
        if word is not None and match.group(taste) in _BODY_TASTES and word.group().endswith("о"):
            continue  # «на работе было тяжело»: a hard day, not a heavy wine
        if not _WISH.search(folded[: match.start()]):
            found.append(match)
    return found


def without_complaint(text: str) -> str:
    """The text without a complaint about the wines shown and the style it is about («мне
    сухое кажется кислым» → «мне»): it says what they were like, not what is asked."""
    folded = text.lower().replace("ё", "е")
    if not _complaints(folded):
        return text
    folded = _COMPLAINED_STYLE.sub(" ", folded)
    for match in reversed(_complaints(folded)):
        folded = folded[: match.start()] + " " + folded[match.end() :]
    return folded


def complaint_steps(folded: str) -> frozenset[str]:
    """The steps a complaint about the wines shown asks for: "sweeter", "drier", "lighter",
    "fuller"."""
    return frozenset(_AWAY[m.group("after") or m.group("before")] for m in _complaints(folded))
