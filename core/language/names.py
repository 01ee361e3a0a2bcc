"""Names a sentence gives by their shape: capitalised Latin words («Vega Sicilia»), a name in
quotes («Casa Lapostolle»), capitalised Russian words inside a sentence («Вега Сицилия»). What
the claims reader (`claims`) checks against a wine's own words, whatever verb introduces it.
"""

from __future__ import annotations

import re

from core.language.folding import word_set
from core.language.grapes import GRAPE_ALIASES
from core.language.places import COUNTRY_ALIASES, REGION_ALIASES
from core.language.scanning import ScannedText, live_hits
from core.language.world import countries_of_group

_LATIN_NAME = re.compile(
    r"(?<![\w'’])[A-ZÀ-ÖØ-Þ][\w'’&\-]*(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'’&\-]*|(?:de|del|della|di|da|do|dos"
    r"|du|des|la|le|les|y|et|&|von|van|der)(?=\s+[A-ZÀ-ÖØ-Þ])))*"
)
# A hyphen may join capitalised parts: «Трентино-Альто-Адидже», «Сант-Садурни».
_CYRILLIC_WORD = r"[А-ЯЁ][а-яё]+(?:-[А-ЯЁа-яё][а-яё]*)*"
_CYRILLIC_NAME = re.compile(rf"(?<![\w«]){_CYRILLIC_WORD}(?:\s+{_CYRILLIC_WORD})*")
# Words that open a sentence before a name and are none of it: «Этот Пойяк», «Наш Шабли».
_OPENERS = word_set(
    "Этот Эта Это Эти Этого Этой Этом Этих Тот Та То Те Такой Такое Такая Наш Наше Наша Наши "
    "Ваш Ваше Ваша Их Его Её Ее Мой Моё Моя Каждый Каждое Каждая Весь Всё Вся Все Здесь Там"
)
# A name in quotes: words, not code or markup («Casa Lapostolle», "Vega Sicilia").
_QUOTED = re.compile(r"«([A-ZА-ЯЁÀ-Þ][\w'’&.\- ]{1,59})»|\"([A-ZА-ЯЁÀ-Þ][\w'’&.\- ]{1,59})\"")
# Latin words that name no one. Label terms («Riserva», «Classico», «DOCG», «Grand Cru») are
# not here: said of a wine whose own words lack them, they are claims the row does not bear.
_NOT_NAMES = word_set("OK I A The Wine Vino Vin")
_ENDS_CLAUSE = re.compile(r"[.!?…:>]\s*$")


def proper_names(text: str) -> list[str]:
    """Names a sentence gives by their shape, that are no place or grape the vocabulary knows:
    «Vega Sicilia», «Casa Lapostolle» (in quotes), «Вега Сицилия» (capitalised inside a
    sentence; a sentence's first word counts only with a second capitalised word)."""
    found: list[str] = []
    for match in _QUOTED.finditer(text):
        found.append((match.group(1) or match.group(2)).strip())
    for match in _LATIN_NAME.finditer(text):
        words = [w for w in match.group().split() if w not in _NOT_NAMES]
        if words:
            found.append(" ".join(words))
    for match in _CYRILLIC_NAME.finditer(text):
        name = match.group()
        # A sentence, a clause after a colon, or text after markup begins with a capital.
        at_start = not text[: match.start()].strip(' «"(—-') or _ENDS_CLAUSE.search(
            text[: match.start()]
        )
        if at_start:
            rest = name.split(maxsplit=1)
            if len(rest) < 2:
                continue
            if rest[0] in _OPENERS:
                name = rest[1]
        found.append(name)
    names: list[str] = []
    for name in found:
        name = name.strip(" .,;:!?")
        if (
            len(name) >= 3
            and not is_place_or_grape(name)
            and not countries_of_group(name)
            and name not in names
        ):
            names.append(name)
    return names


def is_place_or_grape(name: str) -> bool:
    claims_of_name = ScannedText.of(name)
    return any(
        live_hits(table, claims_of_name)
        for table in (GRAPE_ALIASES, COUNTRY_ALIASES, REGION_ALIASES)
    )
