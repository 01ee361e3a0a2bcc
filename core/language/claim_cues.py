"""Claims no catalog field holds, found by their cue words: ageing («выдержка в бочке»), awards
(«95 баллов»), history («основана в 1870»), ranks of an appellation («премье крю», «DOCG») and
how the bubbles were made. Such a claim stands only when the wine's own words (name, description,
notes) make the same one (`services/agent/_grounding.py`).
"""

from __future__ import annotations

import re

from core.language.folding import fold

UNCONFIRMED_KINDS = (
    "ageing",
    "award",
    "history",
    "number",
    "premier_cru",
    "grand_cru",
    "docg",
    "classico",
    "superiore",
    "gran_reserva",
    "bottle_method",
    "tank_method",
)

CUES: dict[str, re.Pattern[str]] = {
    "award": re.compile(
        r"балл|очк[аоу]|паркер|parker|points?\b|медал|наград|лауреат|конкурс|decanter"
        r"|spectator|suckling|гамберо|gambero|рейтинг|премия|трофе|trophy|award|\bwa\s?\d"
        r"|серебр|бронз|золот\w* (?:на|в)\b|гран-?при|кубок|отмечен\w* (?:критик|жюри|эксперт)"
        r"|признан\w* (?:лучш|критик)|лучш\w+ (?:\w+ )?(?:года|мира|страны|в мире)"
        r"|robinson|робинсон|vivino|высш\w+ оценк|оценк\w+ критик|критики (?:хвал|назва|отмеча)"
    ),
    "ageing": re.compile(
        r"выдержк|выдерживал|выдержан\w*\s+(?:в|на)\s|бочк|бочон|дуб[аеуо]?\b|дубов|барри?к"
        r"|oak|barri?que|\bлет в\b"
        r"|месяц\w* в\b|на осадке|sur lie|амфор|квеври|qvevri|состар|созревал|провел\w* (?:\w+ )?"
        r"(?:год|лет|месяц)|aged\b"
    ),
    "history": re.compile(
        r"старейш|древнейш|крупнейш|основан|основател|\bс \d{4}\b|\bвек[аеу]?\b|столети"
        r"|(?:сто|ста|двести|двухсот|триста|трехсот|тысяч\w*) лет|вековы|многовеков|старинн"
        r"|династи|поколени|founded|oldest|since \d{4}|перв\w+ (?:винодел|хозяйств|производ)"
        r"|истори\w+ (?:насчитыва|хозяйств|винодельн|дома)|легендарн"
    ),
    # A rank of an appellation or estate: «премье крю», «DOCG», «классико» — the row's own
    # words must name the same one.
    "premier_cru": re.compile(r"(?:премье|премьер|premier|1er)\s*-?\s*(?:крю|cru)"),
    "grand_cru": re.compile(r"(?:гран|grand)\s*-?\s*(?:крю|cru)"),
    "docg": re.compile(r"(?<![a-z])docg(?![a-z])"),
    "classico": re.compile(r"классико|classico"),
    "superiore": re.compile(r"супериоре|superiore"),
    "gran_reserva": re.compile(r"гран\s+резерв|gran\s+reserva"),
    # How the bubbles were made: the row's own words must say the same method.
    "bottle_method": re.compile(
        r"(?:классическ|традиционн|шампанск)\w* (?:метод|способ)|шампенуаз|m[eé]thode"
        r"|traditional method|(?:вторичн|втор)\w* брожени\w* (?:прямо |непосредственно )?в бутыл"
    ),
    "tank_method": re.compile(
        r"резервуарн|шарма|charmat|martinotti|мартинотти|tank method|в (?:закрытых |стальных )?"
        r"(?:резервуарах|чанах|акратофорах)|акратофор"
    ),
}


def unconfirmed_cues(text: str) -> frozenset[str]:
    """The kinds of claims-without-a-row-field (ageing, award, history) `text` speaks of."""
    folded = fold(text)
    return frozenset(kind for kind, cue in CUES.items() if cue.search(folded))
