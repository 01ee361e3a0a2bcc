"""What a message rules out: «без Италии», «только не красное», «каберне не люблю», «no
Chardonnay» — the filters named after a negation, within its clause — and the text without them
(so that a word ruled out names no wine).
"""

from __future__ import annotations

import re

from core.language.catalog_words import ALIASES
from core.language.request import parse_query
from core.language.world import countries_of_group, without_group

_WORD = re.compile(r"[a-zа-яё]+")


def negated_filters(text: str) -> dict[str, object]:
    """Filters named right after a negation: «без Италии», «только не красное», «no Chardonnay»;
    a group of countries under "countries" («наше не надо», «не европейское»)."""
    found: dict[str, object] = {}
    countries: list[str] = []
    lowered = text.lower().replace("ё", "е")

    def rule_out(words: list[str]) -> None:
        said = " ".join(words)
        if group := countries_of_group(said):
            found.setdefault("countries", group)
            said = without_group(said)
        query = parse_query(said)
        parsed = query.filters
        # «не брют»: not dry; the sparkling it implies is still wanted
        implied = query.matched.get("wine_type") == query.matched.get("sweetness") is not None
        for name, value in parsed.model_dump(exclude_none=True).items():
            if name == "wine_type" and implied:
                continue
            if name == "country":
                countries.append(str(value))
            elif name in ("wine_type", "sweetness", "grape_variety", "region"):
                found.setdefault(name, value)
        for word in words:  # «не шампанское», «не бордоское»: that place's wines too
            for alias in ALIASES.get(word, ()):
                if region := parse_query(alias).filters.region:
                    found.setdefault("region", region)

    for match in re.finditer(r"(?:^|[^a-zа-я])(без|не|кроме|not|no|without|except)\s+", lowered):
        # within its clause: «не французское — кава, например?» rules out France, not cava
        clause = _CLAUSE_END.split(lowered[match.end() :], maxsplit=1)[0]
        words = _WORD.findall(clause)[:3]
        if words:
            rule_out(words)
    # «каберне не люблю», «шардоне не надо», «I don't like merlot»: the word before the verb.
    for match in _DISLIKE.finditer(lowered):
        clause = re.split(r"[,.;!?—–]", lowered[: match.start()])[-1]  # not «сухое белое,»
        rule_out(_WORD.findall(clause)[-3:])
    for match in _DISLIKE_AFTER.finditer(lowered):
        rule_out(_WORD.findall(lowered[match.end() :])[:3])
    countries = list(dict.fromkeys(countries))
    if len(countries) == 1 and "countries" not in found:
        found["country"] = countries[0]
    elif countries:  # «не итальянское и не французское»: each ruled out, as a group's are
        group = found.get("countries", ())
        assert isinstance(group, tuple)
        found["countries"] = tuple(dict.fromkeys((*group, *countries)))
    return found


_CLAUSE_END = re.compile(r"[,.;!?—–]| - ")
_DISLIKE = re.compile(
    r"\s(не|терпеть не) (люблю|любим|любит|любят|хочу|хочет|надо|нужно|пью|пьет|пьют|нравится"
    r"|нравятся|предлагать|предлагай"
    r"|предлагайте|советуй|советуйте|советовать|показывай|показывайте|показывать|беру|берем"
    r"|бери|берите|рассматриваю|рассматриваем|интересует|интересно)\b"
)
_DISLIKE_AFTER = re.compile(
    r"(?:^|[^a-zа-я])(не люблю|не хочу|не пью|терпеть не могу|don'?t like|don'?t want|hate"
    r"|no more|anything but|except for|that isn'?t|that is not|isn'?t|other than|but not)\s+"
)


_NEGATION = re.compile(
    r"(?:^|(?<=[^a-zа-яё]))(?:без|не|кроме|not|no|without|except)\s+(?:из\s+|from\s+)?",
    re.IGNORECASE,
)
_TEXT_WORD = re.compile(r"[a-zа-яё-]+", re.IGNORECASE)


def without_negated(text: str) -> str:
    """The text without the words it rules out («без Италии», «не шардоне», the whole «без
    каберне совиньон», whose «совиньон» names no wine of its own)."""
    cuts: list[tuple[int, int]] = []
    for match in _NEGATION.finditer(text):
        clause = _CLAUSE_END.split(text[match.end() :], maxsplit=1)[0]
        spans = [w.span() for w in _TEXT_WORD.finditer(clause)][:3]
        if not spans:
            continue
        first = set(parse_query(clause[: spans[0][1]]).filters.model_dump(exclude_none=True))
        size = 1
        for k in range(len(spans), 1, -1):  # the longest start that still names only that
            named = parse_query(clause[: spans[k - 1][1]]).filters.model_dump(exclude_none=True)
            if first and set(named) == first:
                size = k
                break
        cuts.append((match.start(), match.end() + spans[size - 1][1]))
    for start, end in reversed(cuts):
        text = text[:start] + " " + text[end:]
    return text
