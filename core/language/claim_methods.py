"""How a wine was made and what its label says, as the claims reader finds them by their cue
words: a method («из подвяленного винограда», «в новом дубе», «кошерное») or a label term
(«смарагд», «крианса»). Each stands only when the wine's own words name the same one
(core/language/claim_cues.py reads them, the grounded-prose check holds them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# How the wine was made, beyond the bubbles: each method stands only when the wine's own words
# name the same one («из подвяленного винограда» for an amarone, not for a muscat).
METHODS: dict[str, re.Pattern[str]] = {
    "dried_grapes": re.compile(
        r"подвял|изюмлен|заизюм|пассито|passito|аппассимент|appassiment|соломенн\w* вин|straw wine"
    ),
    "noble_rot": re.compile(
        r"благородн\w* (?:плесен|гнил)|ботрит|botryt|noble rot|пораж\w* плесень"
    ),
    "flor": re.compile(r"(?<![а-яёa-z])(?:флор(?:а|ом|е|у)?|flor)(?![а-яёa-z])"),
    "carbonic": re.compile(r"карбоническ|углекисл\w* мацерац|carbonic"),
    "solera": re.compile(r"солер[аы]|solera"),
    "late_harvest": re.compile(r"поздн\w* сбор|late harvest|vendange tardive"),
    "ice_wine": re.compile(r"айсвайн|eiswein|ледян\w* вин|ice ?wine|icewine"),
    "organic": re.compile(
        r"органическ|organic|(?<![а-яё])эко(?:логическ|-)|(?<![a-z])bio(?![a-z])"
    ),
    "biodynamic": re.compile(r"биодинам|biodynam"),
    "vegan": re.compile(r"веган|vegan"),
    "unfiltered": re.compile(r"нефильтр|без фильтрац|unfiltered|без оклейк"),
    "natural": re.compile(r"натуральн\w* вин|natural wine|без (?:добавления )?сульфит"),
    "hand_harvest": re.compile(r"вручную|ручн\w* (?:сбор|отбор)|hand[- ]?(?:picked|harvest)"),
    "night_harvest": re.compile(r"ночью|ночн\w* (?:сбор|урожа)|at night"),
    "screw_cap": re.compile(r"винтов\w* (?:пробк|крышк)|screw ?cap"),
    "cellaring": re.compile(
        r"потенциал|(?:хранить|хранения|заложить|выдерж\w+) (?:\w+ )?(?:ещ[её]|до|лет|год)"
        r"|открыть через|пить (?:\w+ )?(?:до|в течение)|drink (?:by|until|now)"
        r"|cellar(?:ing|ed)\b|cellar (?:it|for|until)"
    ),
    "decanting": re.compile(r"декант|аэрац|подышать|breathe|откр\w+ (?:\w+ )?(?:за|заранее)"),
    "limited": re.compile(
        r"лимитирован|ограниченн\w* (?:тираж|сери|выпуск|парти)|коллекционн|тираж|limited"
    ),
    "cork": re.compile(
        r"(?:пробк\w* из (?:натуральн\w* )?(?:корк|пробков)|натуральн\w* пробк|корков\w* пробк"
        r"|(?<![a-z])cork(?:ed)?(?![a-z]))"
    ),
    "gift_box": re.compile(r"подарочн\w* (?:коробк|упаковк|футляр|туб)|в тубе|в футляре|gift box"),
    "kosher": re.compile(r"кошерн|kosher"),
    # What the wine was aged in and how much of it: «в дубе», «в новом дубе», «в стали»,
    # «частично» — a wine aged in steel is not one aged in oak.
    "steel": re.compile(
        r"(?<![а-яё])(?:в|из)\s+(?:\w+\s+)?стали(?![а-яё])|нержаве|стальн\w*\s+(?:чан|резервуар"
        r"|емкост|бак)|stainless|steel"
    ),
    # «и ещё год в бутылке»: ageing after bottling, which the wine's words must tell
    "bottle_aged": re.compile(
        r"(?:год\w*|лет|месяц\w*|выдерж\w*|дозрева\w*|отдыха\w*|созрева\w*)\s+(?:\w+\s+){0,2}"
        r"в бутылк|in (?:the )?bottle"
    ),
    "partly_aged": re.compile(r"частичн|partial|partly"),
    "wholly_aged": re.compile(
        r"(?:полностью|целиком|entirely|fully)\s+(?:\w+\s+)?(?:в\s+(?:\w+\s+)?(?:дуб|бочк|барри?к"
        r"|стал)|выдерж)"
    ),
}
# Terms of a label or a classification said of the wine («смарагд», «крианса», «блан де блан»):
# the wine's own words must name the same one.
LABELS: dict[str, re.Pattern[str]] = {
    "smaragd": re.compile(r"смарагд|smaragd"),
    "federspiel": re.compile(r"федершпил|federspiel"),
    "steinfeder": re.compile(r"штайнфедер|steinfeder"),
    "kabinett": re.compile(r"кабинетт|kabinett"),
    "spatlese": re.compile(r"шпетлезе|sp[aä]tlese"),
    "auslese": re.compile(r"(?<![а-яё])ауслезе|(?<![a-z])auslese"),
    "beerenauslese": re.compile(r"(?<![а-яё])беренауслезе|(?<![a-z])beerenauslese"),
    "trockenbeerenauslese": re.compile(r"трокенберенауслезе|trockenbeerenauslese"),
    "grosses_gewachs": re.compile(r"гроссес гевекс|gro(?:ss|ß)es gew[aä]chs"),
    "crianza": re.compile(r"крианс|crianza"),
    "reserva": re.compile(r"(?<![а-яё])резерв(?!уар)|(?<![a-z])(?:reserv|riserv)|ризерв"),
    "blanc_de_blancs": re.compile(r"блан де блан|blanc de blancs?"),
    "blanc_de_noirs": re.compile(r"блан де нуар|blanc de noirs?"),
    "late_bottled": re.compile(r"(?<![a-z])lbv(?![a-z])|late bottled|лбв"),
    "tawny": re.compile(r"(?<![а-яё])(?:тони|тауни)(?![а-яё])|tawny"),
    "ruby": re.compile(r"(?<![а-яё])руби(?![а-яё])|(?<![a-z])ruby(?![a-z])"),
    "fino": re.compile(r"(?<![а-яё])фино(?![а-яё])|(?<![a-z])fino(?![a-z])"),
    "oloroso": re.compile(r"олоросо|oloroso"),
    "amontillado": re.compile(r"амонтильядо|amontillado"),
    "manzanilla": re.compile(r"мансанилья|manzanilla"),
    "ripasso": re.compile(r"рипассо|ripasso"),
    "cru_bourgeois": re.compile(r"крю буржуа|cru bourgeois"),
}
# A vessel of oak, among the ageing cue's words («в дубе», «бочках», «oak»): a method of its
# own, read from that cue's matches (claim_cues.py), which the wine's words must name too; so
# are barriques and new oak («в новых барриках»).
OAK = re.compile(r"дуб|бочк|бочон|барр?ик|oak|barr?ique|barrel")
BARRIQUE = re.compile(r"барр?ик|barr?ique")
NEW_BEFORE = re.compile(r"(?:(?<![а-яё])нов\w*|new)\s+(?:\w+\s+)?$")
# Literal words one of which every match of a method or label holds: a sentence without any is
# not searched by that pattern at all (most sentences name none).
ANCHORS = {
    "dried_grapes": "подвял изюм пассито passito аппассимент appassiment соломенн straw",
    "noble_rot": "благородн ботрит botryt noble плесень",
    "flor": "флор flor",
    "carbonic": "карбоническ углекисл carbonic",
    "solera": "солер solera",
    "late_harvest": "поздн late vendange",
    "ice_wine": "айсвайн eiswein ледян ice",
    "organic": "органическ organic эко bio",
    "biodynamic": "биодинам biodynam",
    "vegan": "веган vegan",
    "unfiltered": "нефильтр фильтрац unfiltered оклейк",
    "natural": "натуральн natural сульфит",
    "hand_harvest": "вручную ручн hand",
    "night_harvest": "ночью ночн night",
    "screw_cap": "винтов screw",
    "cellaring": "потенциал хранить хранения заложить выдерж открыть пить drink cellar",
    "decanting": "декант аэрац подышать breathe откр",
    "limited": "лимитирован ограниченн коллекционн тираж limited",
    "cork": "пробк cork",
    "gift_box": "подарочн тубе футляр gift",
    "kosher": "кошерн kosher",
    "steel": "стали стальн нержаве stainless steel",
    "bottle_aged": "в бутылк in bottle in the bottle",
    "partly_aged": "частичн partial partly",
    "wholly_aged": "полностью целиком entirely fully",
    "smaragd": "смарагд smaragd",
    "federspiel": "федершпил federspiel",
    "steinfeder": "штайнфедер steinfeder",
    "kabinett": "кабинетт kabinett",
    "spatlese": "шпетлезе spätlese spatlese",
    "auslese": "ауслезе auslese",
    "beerenauslese": "беренауслезе beerenauslese",
    "trockenbeerenauslese": "трокенберенауслезе trockenbeerenauslese",
    "grosses_gewachs": "гроссес grosses großes",
    "crianza": "крианс crianza",
    "reserva": "резерв reserv riserv ризерв",
    "blanc_de_blancs": "блан blanc",
    "blanc_de_noirs": "блан blanc",
    "late_bottled": "lbv late лбв",
    "tawny": "тони тауни tawny",
    "ruby": "руби ruby",
    "fino": "фино fino",
    "oloroso": "олоросо oloroso",
    "amontillado": "амонтильядо amontillado",
    "manzanilla": "мансанилья manzanilla",
    "ripasso": "рипассо ripasso",
    "cru_bourgeois": "буржуа bourgeois",
}
# (name, kind, pattern, its Cyrillic anchors, its Latin ones: looked for only in a text with
# Latin letters)
MADE_OR_LABELLED = [
    (
        name,
        "method" if name in METHODS else "label",
        cue,
        tuple(a for a in ANCHORS[name].split() if not a.isascii()),
        tuple(a for a in ANCHORS[name].split() if a.isascii()),
    )
    for name, cue in (*METHODS.items(), *LABELS.items())
]
# Any anchor of a kind at all: most texts name no method and no label, and are let go at once.
ANY_ANCHOR = {
    kind: re.compile(
        "|".join(
            re.escape(anchor)
            for name, made_kind, *_ in MADE_OR_LABELLED
            if made_kind == kind
            for anchor in ANCHORS[name].split()
        )
    )
    for kind in ("method", "label")
}
_LATIN = re.compile(r"[a-z]")


def made_or_labelled(folded: str, kind: str) -> Iterator[tuple[str, re.Match[str]]]:
    """(the method's or label term's name, its match) of each one of `kind` («method» or
    «label») `folded` names: a pattern is searched only where one of its anchors is."""
    if not ANY_ANCHOR[kind].search(folded):
        return
    latin = _LATIN.search(folded) is not None
    for name, made_kind, cue, cyrillic, latin_anchors in MADE_OR_LABELLED:
        if made_kind != kind:
            continue
        named = any(a in folded for a in cyrillic)
        if named or (latin and any(a in folded for a in latin_anchors)):
            for match in cue.finditer(folded):
                yield name, match
