"""A wine asked for by its name — «есть ли у вас Opus One?», «Шато Марго», «“Тиньянелло”» —
read from the words alone (whether the shop has it is the catalog's business).

Candidates, in order: a quoted phrase; a wine house word (шато, домен, кастелло…) with the
capitalised words after it; a run of capitalised Latin words. A candidate that is only a
grape, a country or a region («Merlot», «Rioja») names a style, not a wine.
"""

from __future__ import annotations

import re

from core.language.lemmas import is_common_word, is_first_name, words_of
from core.language.request import (
    country_from_text,
    grape_from_text,
    parse_query,
    region_from_text,
)

_QUOTED = re.compile(r"[«\"“]([^»\"”\n]{3,60})[»\"”]")
_HOUSE = re.compile(
    r"\b((?:шато|домен|кастелло|бодега|кинта|тенута|château|chateau|domaine|castello|bodega|"
    r"quinta|tenuta)\s+[A-ZА-ЯЁ][\w'’-]+(?:\s+[A-ZА-ЯЁ][\w'’-]+){0,2})",
    re.IGNORECASE,
)
_PARTICLES = r"(?:de|du|des|di|del|della|la|le|les|von|van)"
_LATIN = re.compile(
    rf"\b([A-Z][a-zA-Z'’-]{{2,}}(?:\s+(?:[A-Z][a-zA-Z'’-]+|{_PARTICLES}|\d{{4}})){{0,4}})"
)


# «вино Мукузани», «что-нибудь от Торрес»: a capitalised Cyrillic word
_CYRILLIC_NAME = re.compile(r"(?<![\w-])([А-ЯЁ][а-яё]{2,}(?:-[А-ЯЁа-яё][а-яё]+)*)(?![\w-])")


def asked_wine_name(text: str) -> str | None:
    """The name of a wine the message asks for, or None."""
    for pattern in (_QUOTED, _HOUSE, _LATIN):
        for found in pattern.finditer(text):
            candidate = " ".join(found.group(1).split()).strip(" .,!?")
            if len(candidate) >= 3 and not _style_only(candidate):
                return candidate
    return None


def _cyrillic_name(text: str) -> str | None:
    """«вино Мукузани», «от Торрес», «Рипассо есть?»: a capitalised Cyrillic word that no
    list of the shop's words reads, that the dictionary knows as no common word (a loan it
    does not decline, «Мукузани», may be a wine) and that is no person's first name."""
    for found in _CYRILLIC_NAME.finditer(text):
        word = found.group(1)
        folded = word.lower().replace("ё", "е")
        if is_common_word(folded) or is_first_name(folded):
            continue
        if not parse_query(word).filters.is_empty() or _style_only(word):
            continue
        return word
    return None


_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
# Where a wine is asked for by its name: the words just before it, or just after it.
_ASKS_BEFORE = re.compile(
    r"(?:есть|нет|хочу|хотим|ищу|ищем|нужн\w*|посоветуй\w*|от|у вас|в наличии|бутылк\w*|вин[оау])"
    r"(?:\s+(?!(?:для|к|ко|на|в|во|из|с|со|по|о|об|про|под|за)\b)\w+){0,2}\s*$",
    re.IGNORECASE,
)
_ASKS_AFTER = re.compile(r"\s*(?:у вас\s+)?(?:есть|в наличии|найдется|найдётся)", re.IGNORECASE)


# «есть тиньянелло?», «опус уан в наличии?»: whether the shop has it, the name in lower case
_HAS_NAME = re.compile(
    r"^\W*(?:а\s+)?(?:есть(?:\s+ли)?(?:\s+у\s+вас)?|у\s+вас\s+есть|в\s+наличии)\s+"
    r"(?P<after>[а-яё][а-яё -]{2,40}?)\W*$"
    r"|^\W*(?:а\s+)?(?P<before>[а-яё][а-яё -]{2,40}?)\s+(?:у\s+вас\s+)?"
    r"(?:есть|в\s+наличии|найдется|найдётся)\W*$",
    re.IGNORECASE,
)


def _said_by_ear(text: str) -> str | None:
    """«есть доктор лузен?», «вега сицилия в наличии?»: a name asked after, in lower case,
    with a word in it no dictionary knows and nothing a style or a request is read from."""
    found = _HAS_NAME.match(text.strip())
    if found is None:
        return None
    candidate = " ".join((found.group("after") or found.group("before")).split())
    if not any(not w.known and not w.text.isascii() for w in words_of(candidate)):
        return None
    if not parse_query(candidate).filters.is_empty() or _style_only(candidate):
        return None
    return candidate


def asked_for_by_name(text: str) -> str | None:
    """The name a Russian message asks for a wine by, where a wine is asked for («есть
    Torres?», «хочу Opus One», «Opus One у вас есть?», «вино Мукузани», «есть тиньянелло?»),
    not any Latin word in it («я из Moscow», «для Instagram поста»). In an English message a
    capitalised word opening a sentence («Hello», «Red») is no name."""
    if by_ear := _said_by_ear(text):
        return by_ear
    name = asked_wine_name(text) or _cyrillic_name(text)
    if not name or not _CYRILLIC.search(text.replace(name, " ")):
        return None
    before, _, after = text.partition(name)
    if _ASKS_BEFORE.search(before) or _ASKS_AFTER.match(after) or not before.strip(" а,"):
        return name
    return None


def _style_only(candidate: str) -> bool:
    """A grape, country or region named on its own (one or two words) is a style."""
    if len(candidate.split()) > 2:
        return False
    return any(read(candidate) for read in (grape_from_text, country_from_text, region_from_text))
