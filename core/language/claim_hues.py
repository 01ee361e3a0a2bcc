"""The colour of a wine in the glass, said by its hue: «соломенное», «рубиновый отлив»,
«бледно-лимонный», «цвета спелой вишни», «тёмное, почти чёрное», «янтарное».

A hue tells the wine's colour as surely as «красное» does, so a model that writes «бледно-
золотое» under a red is as wrong as one that writes «белое». Some hue words also name fruit,
metal or the dark («лимонные ноты», «золотая медаль», «чёрная смородина»): those count as a hue
only after a shade («светло-», «тёмно-»), beside a word for colour, or said of the wine alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.domain import WineType
from core.language.claim import Claim
from core.language.folding import word_set
from core.language.scanning import ScannedText, negated
from core.language.wine_agreement import ends_phrase, grape_at, said_of_wine, wine_word_follows

# Hues that fit more than one of the row's styles.
AMBER = "amber"  # a sweet or a fortified wine (a white only by its own words)
DARK = "dark"  # a full red, a port or a sweet wine; never a white, a rosé or a light red
PALE = "pale"  # «бесцветное»: a white, a rosé or a sparkling wine
ORANGE = "orange"  # an orange wine: a style no row's colour is
GREEN = "green"  # «зелёного цвета»: no wine is (a white has green glints, not a green colour)
# «из белых сортов»: white grapes make a white (or a sparkling, sweet or fortified) wine, red
# grapes a red or a rosé
WHITE_GRAPES = "white grapes"
RED_GRAPES = "red grapes"
_STYLES = (WineType.sparkling, WineType.dessert, WineType.fortified)
HUE_FITS: dict[str, frozenset[WineType]] = {
    AMBER: frozenset({WineType.dessert, WineType.fortified}),
    PALE: frozenset({WineType.white, WineType.rose, WineType.sparkling}),
    GREEN: frozenset(),
    DARK: frozenset({WineType.red, WineType.dessert, WineType.fortified}),
    WHITE_GRAPES: frozenset({WineType.white, *_STYLES}),
    RED_GRAPES: frozenset({WineType.red, WineType.rose, *_STYLES}),
}
# The colours of a still wine a hue allows: what a sparkling, sweet or fortified wine's own
# words say of its colour must be one of them («из чёрного муската» of a white muscat).
HUE_COLOURS: dict[str, frozenset[WineType]] = {
    DARK: frozenset({WineType.red}),
    PALE: frozenset({WineType.white, WineType.rose}),
    WHITE_GRAPES: frozenset({WineType.white}),
    RED_GRAPES: frozenset({WineType.red, WineType.rose}),
}
Hue = WineType | str

# Hue adjectives that mean a colour wherever the sentence is about the wine's colour.
_PLAIN: tuple[tuple[tuple[str, ...], Hue], ...] = (
    (("соломенн", "золотист", "зеленоват", "straw"), WineType.white),
    (("рубинов", "пурпурн", "гранатов", "фиолетов"), WineType.red),
    (("ruby", "garnet", "purple", "crimson"), WineType.red),
    (("чернильн", "inky"), DARK),
    (("лососев", "розоват", "луковичн"), WineType.rose),
    (("янтарн", "amber", "tawny"), AMBER),
)
# Hue adjectives that also name a fruit, a metal or the dark.
_NEAR: tuple[tuple[tuple[str, ...], Hue], ...] = (
    (("лимонн", "золот", "желт", "медов", "беловат", "зелен"), WineType.white),
    (("gold", "lemon", "yellow"), WineType.white),
    (("вишнев", "черешнев", "кирпичн", "бордов", "красн", "cherry", "brick"), WineType.red),
    (("розов", "персиков", "коралл", "медн", "pink", "salmon", "copper"), WineType.rose),
    (("темн", "черн", "непрозрачн", "dark", "black", "opaque"), DARK),
    (("бесцветн",), PALE),
    (("оранжев",), ORANGE),
    (("коричнев",), AMBER),
)
# Shades before a hue: «бледно-лимонный», «тёмно-вишнёвое», «соломенно-жёлтое» (a hue's own
# adverb, ending in «о», is one too).
_SHADES = word_set(
    "бледно светло темно густо насыщенно ярко глубоко интенсивно нежно почти очень "
    "pale light deep dark bright medium intense almost"
)
# Words for the colour itself, and what may stand between one and its hue («цвет — густой
# гранатовый», «тёмного, почти чёрного цвета»).
_COLOUR_NOUNS = word_set(
    "цвет цвета цвету цветом цвете оттенок оттенка оттенком отлив отлива отливом окрас окраса "
    "окраска окраской окраску блик блики бликами отблеск отблески отблесками ободок ободком "
    "кайма каймой colour color coloured colored hue hues tint tinge rim reflections"
)
_BETWEEN = word_set(
    "почти очень и с у него его оно он она в бокале густой густого глубокий глубокого "
    "насыщенный насыщенного яркий яркого бледный бледного светлый светлого легкий легким "
    "in with and a"
)
# «цвета спелой вишни», «цветом янтаря»: a colour said by a thing of that colour.
_LIKE_THINGS: tuple[tuple[tuple[str, ...], Hue], ...] = (
    (("вишн", "черешн", "рубин", "гранат", "кров", "кирпич", "чернил", "ежевик"), WineType.red),
    (("бордо",), WineType.red),
    (("солом", "лимон", "золот", "мед"), WineType.white),
    (("лосос", "шелух", "лепест", "роз", "персик", "коралл", "клубник"), WineType.rose),
    (("янтар", "чая", "чай", "коньяк", "карамел"), AMBER),
    (("апельсин",), ORANGE),
)
_COLOUR_OF = frozenset({"цвета", "цветом", "цвет"})
# The wine's whole colour, not a glint of one («зелёные блики»)
_WHOLE_COLOUR = word_set("цвет цвета цвету цветом цвете окрас окраса окраска окраской окраску")
# «искрится золотом», «переливается рубином»: a colour said by what the wine shines with
_SHINES = ("отлива", "перелива", "искрит", "сверка", "блест", "мерца")
_IN_THE_GLASS = re.compile(
    r"(?<![а-яё])(?:цвет(?:а|у|ом|е)?(?![а-яё])|оттен|отлив|окрас|в бокале)"
    r"|\b(?:colou?r|hue|tint|in the glass)"
)


def hue_claims(message: ScannedText) -> list[Claim]:
    """The colours a sentence gives the wine by hue."""
    in_the_glass = bool(_IN_THE_GLASS.search(message.folded))
    claims = []
    tokens = message.tokens
    for position, token in enumerate(tokens):
        if token.text in _COLOUR_OF or token.text.startswith(_SHINES):
            reach = 2 if token.text in _COLOUR_OF else 4  # «отливает в бокале глубоким рубином»
            if (thing := _like_thing(message, position, reach)) is not None:
                claims.append(Claim("colour", thing))
            continue
        hue, plain = _hue_of(token.text)
        if hue is None or message.quoted(position):
            continue  # «„золотое“ имя»: a word quoted, not a hue
        if hue == DARK and (grapes := grapes_colour(message, position + 1, hue)):
            claims.append(Claim("colour", grapes))  # «из чёрного винограда»
            continue
        followed = position + 1 < len(tokens) and _hue_of(tokens[position + 1].text)[0]
        if followed and token.text.endswith("о"):
            continue  # «соломенно-жёлтое»: the last word of a compound hue decides
        shaded = position > 0 and _shades(tokens[position - 1].text)
        noun = _colour_noun_beside(message, position)
        if noun in _WHOLE_COLOUR and token.text.startswith("зелен"):
            hue = GREEN  # «зелёного цвета», not «с зелёными бликами»
        if (
            shaded
            or noun is not None
            or (plain and (in_the_glass or said_of_wine(message, position, position + 1)))
            or (not plain and _said_alone(message, position))
        ) and not negated(tokens, position):  # «вовсе не зелёное»: no hue said
            claims.append(Claim("colour", hue))
    return claims


def _said_alone(message: ScannedText, position: int) -> bool:
    """«Тёмное, почти непрозрачное», «вишнёвое вино»: a hue of the wine, not «вишнёвое
    варенье» or «Чёрное море» (a name, capitalised inside the sentence)."""
    token = message.tokens[position]
    if not token.text.endswith("ое"):
        return False
    if position > 0 and message.original[token.start : token.start + 1].isupper():
        return False
    return ends_phrase(message, position) or wine_word_follows(message, position + 1)


def _shades(word: str) -> bool:
    return word in _SHADES or (word.endswith("о") and _hue_of(word)[0] is not None)


def _colour_noun_beside(message: ScannedText, position: int) -> str | None:
    """A colour noun next to the hue, with only shades, other hues or a few small words
    between («тёмного, почти чёрного цвета», «цвет — густой гранатовый»)."""
    tokens = message.tokens
    for step in (1, -1):
        at = position + step
        while 0 <= at < len(tokens) and abs(at - position) <= 4:
            word = tokens[at].text
            if word in _COLOUR_NOUNS:
                return word
            if word not in _BETWEEN and word not in _SHADES and _hue_of(word)[0] is None:
                break
            at += step
    return None


def _like_thing(message: ScannedText, position: int, reach: int) -> Hue | None:
    """«цвета спелой вишни»: the hue of a thing named in the next `reach` words."""
    for token in message.tokens[position + 1 : position + 1 + reach]:
        for stems, hue in _LIKE_THINGS:
            if token.stem.startswith(stems) or token.text in stems:
                return hue
    return None


@lru_cache(maxsize=65536)
def _hue_of(word: str) -> tuple[Hue | None, bool]:
    """The hue a word names, and whether it names one wherever the colour is talked of."""
    latin = word.isascii()  # «golden», «pinkish», but not «strawberry»
    for table, plain in ((_PLAIN, True), (_NEAR, False)):
        for stems, hue in table:
            if (latin and _english_form_of(word, stems)) or (not latin and word.startswith(stems)):
                return hue, plain
    return None, False


def _english_form_of(word: str, stems: tuple[str, ...]) -> bool:
    return any(word == stem or word in (stem + "y", stem + "ish", stem + "en") for stem in stems)


def grapes_colour(message: ScannedText, end: int, colour: object) -> str | None:
    """«из белого винограда», «из красных сортов»: the colour of the grapes, not the wine's."""
    if colour not in (WineType.white, WineType.red, DARK):
        return None
    for at, token in enumerate(message.tokens[end : end + 2], start=end):
        # «из белых сортов», «из чёрного муската», «White Zinfandel» (but «красный
        # зинфандель» is the wine's colour)
        named = colour == DARK or message.tokens[end - 1].text.isascii()
        grape = named and at == end and grape_at(message, at)
        if grape or token.stem.startswith(("сорт", "виноград", "grape")):
            return WHITE_GRAPES if colour == WineType.white else RED_GRAPES
    return None


_AMONG = frozenset({"из", "среди", "между"})


def among_wines(message: ScannedText, start: int) -> bool:
    """«одно из лучших красных», «среди белых Чили»: a plural colour standing for wines."""
    if not message.tokens[start].text.endswith("ых"):
        return False
    return any(token.text in _AMONG for token in message.tokens[max(0, start - 3) : start])
