"""A wine asked for by its name — «есть ли у вас Opus One?», «Шато Марго», «“Тиньянелло”» —
read from the words alone (whether the shop has it is the catalog's business).

Candidates, in order: a quoted phrase; a wine house word (шато, домен, кастелло…) with the
capitalised words after it; a run of capitalised Latin words. A candidate that is only a
grape, a country or a region («Merlot», «Rioja») names a style, not a wine.
"""

from __future__ import annotations

import re

from core.language.request import country_from_text, grape_from_text, region_from_text

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


def asked_wine_name(text: str) -> str | None:
    """The name of a wine the message asks for, or None."""
    for pattern in (_QUOTED, _HOUSE, _LATIN):
        for found in pattern.finditer(text):
            candidate = " ".join(found.group(1).split()).strip(" .,!?")
            if len(candidate) >= 3 and not _style_only(candidate):
                return candidate
    return None


def _style_only(candidate: str) -> bool:
    """A grape, country or region named on its own (one or two words) is a style."""
    if len(candidate.split()) > 2:
        return False
    return any(read(candidate) for read in (grape_from_text, country_from_text, region_from_text))
