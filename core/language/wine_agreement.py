"""Is a word said of the wine? «красное», «сухие вина», «сладкий херес» are; «красные ягоды»,
«сухой лист» are not. The claims readers ask it of colour, body and sweetness words."""

from __future__ import annotations

import re

from core.language.folding import stem, word_set
from core.language.grapes import GRAPE_ALIASES
from core.language.scanning import ScannedText, live_hits

WINE_NOUNS = frozenset(
    {"вино", "вина", "вин", "вину", "вином", "вине", "винам", "винами", "винах", "wine", "wines"}
)
# Russian adjective endings that agree with «вино» (neuter singular): «красное», «сухого».
NEUTER = ("ое", "ого", "ому", "ым", "ом")
ADJECTIVE = re.compile(r"(?:ое|ого|ому|ым|ом|ые|ых|ыми|ий|ая|ую|ой|ие|их|ими|ий|яя|ее)$")

# Nouns a colour or sweetness word is said of: «сладкий херес», «сухой рислинг».
_STYLE_NOUNS = frozenset(
    stem(w)
    for w in word_set(
        "херес портвейн мадера марсала вермут шампанское игристое розе кава просекко амароне "
        "бароло барбареско кьянти риоха шабли сотерн токай москато ламбруско асти портвейн"
    )
)


def said_of_wine(text: ScannedText, start: int, end: int) -> bool:
    """Is a colour or sweetness word about the wine («красное», «сухие вина»), not «красные
    ягоды» or «сухой лист»? Neuter singular forms agree with «вино»; other forms count when a
    word for wine follows."""
    word = text.tokens[end - 1].text
    if not ADJECTIVE.search(word) or word.endswith("ое"):
        return True
    following = text.tokens[end : end + 3]
    if word.endswith(NEUTER) and not word.isascii():
        # «красного», «сухим» agree with «вино» and with a masculine noun alike: «сухим
        # финалом», «красным вулканическим сланцем», «белого персика» are not the wine's
        return ends_phrase(text, end - 1) or wine_word_follows(text, end)
    if any(token.text in WINE_NOUNS or token.stem in _STYLE_NOUNS for token in following):
        return True
    # «сухой мозельский рислинг», «сладковатый вкус»
    return bool(following) and wine_word_follows(text, end)


def ends_phrase(text: ScannedText, at: int) -> bool:
    """Does no word follow the one at `at` in its phrase («из красного.», «сухого, с…»)?"""
    if at + 1 >= len(text.tokens):
        return True
    between = text.folded[text.tokens[at].end : text.tokens[at + 1].start]
    return bool(between.strip())


# «красного цвета», «сухого стиля», «сладковатым вкусом»: words a wine's colour or sweetness is
# said with
_SAID_WITH = ("цвет", "оттен", "стил", "тип", "вариант", "исполнен", "вкус")


def wine_word_follows(text: ScannedText, end: int) -> bool:
    """Is the first word after a run of adjectives one for wine, a style, a grape or a word
    such a quality is said with («красного сухого вина», «белого муската»)?"""
    at = end
    while at < len(text.tokens) and at < end + 3:
        token = text.tokens[at]
        if token.text in WINE_NOUNS or token.stem in _STYLE_NOUNS or grape_at(text, at):
            return True
        if token.stem.startswith(_SAID_WITH):
            return True
        if not ADJECTIVE.search(token.text):
            return False
        if ends_phrase(text, at):  # «в стиле белого бургундского.»
            return True
        at += 1
    return False


def grape_at(text: ScannedText, start: int) -> bool:
    starts = text.memo.get("grapes")
    if starts is None:  # scanned once per text, asked of word after word
        starts = text.memo["grapes"] = frozenset(
            hit.start for hit in live_hits(GRAPE_ALIASES, text)
        )
    return start in starts
