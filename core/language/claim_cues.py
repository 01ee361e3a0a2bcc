"""Claims no catalog field holds, found by their cue words: ageing («выдержка в бочке»), awards
(«95 баллов»), history («основана в 1870»), ranks of an appellation («премье крю», «DOCG»,
«пятое гран крю»), the side of a place («с восточных склонов»), how the bubbles or the wine
were made («классическим методом», «из подвяленного винограда») and label terms («смарагд»,
«крианса»). A claim in a clause that denies it («не проходит выдержку в дубе») is a claim of
its own: the wine's words must deny the same.
Such a claim stands only when the wine's own words (name, description, notes) make the same one
in the same relation (`services/agent/_grounding.py`): a rank the description names only for
something else («соперничает со вторыми крю», «владелец участков премье крю») is not the wine's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.language.claim_methods import BARRIQUE, NEW_BEFORE, OAK, made_or_labelled
from core.language.folding import fold
from core.language.required_words import finditer_gated
from core.language.standing_scope import possessor_scope, same_scope, standing_scope
from core.language.worded_numbers import ORDINAL_STEMS

UNCONFIRMED_KINDS = (
    "ageing",
    "award",
    "history",
    "biography",
    "number",
    "premier_cru",
    "grand_cru",
    "docg",
    "classico",
    "superiore",
    "gran_reserva",
    "rank",
    "standing",
    "comparison",
    "ageing_span",
    "side",
    "bottle_method",
    "tank_method",
    "method",
    "label",
)

CUES: dict[str, re.Pattern[str]] = {
    "award": re.compile(
        r"(?<![а-яёa-z])(?:балл|очк[аоу]|паркер|parker|points?\b|медал|наград|лауреат|конкурс|decanter"
        r"|spectator|suckling|гамберо|gambero|рейтинг|премия|трофе|trophy|award|\bwa\s?\d"
        r"|серебр|бронз|золот\w* (?:на|в)\b|гран-?при|кубок|отмечен\w* (?:критик|жюри|эксперт)"
        r"|признан\w* (?:лучш|критик)|лучш\w+ (?:\w+ )?(?:года|мира|страны|в мире)"
        r"|robinson|робинсон|vivino|высш\w+ оценк|критик|critic|жюри|jury|призер|медалист"
        # a guide's rating, a royal warrant: «три бокала в гиде», «поставщик двора»
        r"|гид[аеу]?\b|гидом\b|guide\b|путеводител|поставщик\w* (?:\w+ )?двор|purveyor|warrant"
        r"|(?:\d|одн|дв|тр|четыр|пят)\w*\s+звезд|stars?\b|призер|титулован"
        r"|победител\w* (?:конкурс|дегустац|выставк|чемпионат))"
    ),
    "ageing": re.compile(
        r"(?<![а-яёa-z])(?:выдержк|выдержива|выдержан\w*\s+(?:в|на)\s|бочк|бочон|дуб[аеуо]?\b|дубов"
        r"|дуб(?:ом|ах|ы)\b|барри?к"
        r"|oak|barri?que|barrel|\bлет в\b|бетон|concrete|в (?:стали|акации|каштане|глине)\b"
        r"|месяц\w* в\b|на осадке|sur lie|амфор|квеври|qvevri|состар|созревал|провел\w* (?:\w+ )?"
        r"(?:год|лет|месяц)|aged\b)"
    ),
    "history": re.compile(
        r"(?<![а-яёa-z])(?:старейш|древнейш|крупнейш|основа[лн]|основыва|основател"
        # «прошлого века» dates a year or a decade, read as a date of its own (claim_numbers)
        r"|(?<!прошлого )(?<!прошлом )(?<!прошлый )\bвек[аеу]?\b|столети"
        r"|(?:сто|ста|двести|двухсот|триста|трехсот|тысяч\w*) лет|вековы|многовеков|старинн"
        r"|династи|поколени|founded|oldest|перв\w+ (?:винодел|хозяйств|производ)"
        r"|истори\w+ (?:насчитыва|хозяйств|винодельн|дома)|легендарн|годовщин|юбиле|anniversary)"
    ),
    # A person's past («бывший игрок в регби», «former banker»): the wine's words must tell it.
    "biography": re.compile(r"(?<![а-яёa-z])(?:бывш\w+|former)(?![а-яёa-z])"),
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


# A clause that denies what follows: «не проходит выдержку в дубе», «без крепления» — not «не
# менее двух лет в дубе» or «не только…».
_NEGATOR = re.compile(
    r"(?<![а-яёa-z])(?:не|нет|без|ни|никогда|никак\w*|never|not|without|no)(?![а-яёa-z])"
    r"(?!\s+(?:менее|более|меньше|больше|только|раньше|позже|позднее|дольше|реже|хуже|уступа"
    r"|случайно|зря|слишком|очень|так|раз|однажды|единожды))"
)
_CLAUSE_BREAK = re.compile(r"[,.;:!?()—–]|\s(?:а|но|чтобы|зато|однако|but|while)\s")
NOT = "¬"  # a claim's value mark: the sentence denies it


def negated_at(folded: str, start: int) -> bool:
    """Does the clause `start` is in deny what is said at `start`?"""
    clause_start = max((m.end() for m in _CLAUSE_BREAK.finditer(folded, 0, start)), default=0)
    return bool(_NEGATOR.search(folded, clause_start, start))


# A side of a place: «с восточных склонов», «на левом берегу» — the wine's words must name
# the same side.
_SIDES = {
    "north": r"северн|north",
    "south": r"южн|south",
    "east": r"восточн|east",
    "west": r"западн|west",
    "left": r"лев(?:ый|ого|ом)|left",
    "right": r"прав(?:ый|ого|ом)|right",
}
_SIDE = re.compile(
    rf"(?<![а-яёa-z])({'|'.join(f'(?P<{side}>{cue})' for side, cue in _SIDES.items())})\w*\s+"
    r"(?:\w+\s+)?(?:склон|берег|побереж|сторон|част|холм|террас|участк|slope|bank|side)"
)
# «пятое гран крю классе», «входит во вторые крю»: a rank of a classification.
_RANKED = re.compile(
    r"(?<![а-яa-z])(перв|втор|трет|четверт|пят|first|second)"
    r"(?:ое|ой|ый|ий|ая|ья|ье|ого|ом|ым|ую|ые|ых|ыми|ьи|ьих)?"
    r" (?:\w+ )?(?:гран крю|крю|класс|мест[оа]|премьер|growth|cru)"
)
# A clause that speaks of something other than the wine itself — a comparison or an owner's
# holdings: «соперничает со вторыми крю», «владелец участков премье крю», «как у гран крю».
_OTHER_SUBJECT = re.compile(
    r"(?<![а-яёa-z])(?:сопернич\w*|конкурир\w*|не уступа\w*|сравним\w*|сравнива\w*"
    r"|наравне|уровн[яеь]\w*|на уровне|как у|подобн\w*|владел\w*|владе[юе]т\w*|владени\w*"
    r"|участк\w+ (?:в|на)|соседн\w*|rival\w*|like"
    # what someone holds: «у Февра много гран крю», «у хозяйства есть участки премье крю»
    r"|у \w+ (?:\w+ )?(?:много|немало|есть|несколько))\b[^.;!?]*"
)
OTHER = "~"  # a claim's value mark: said of something the wine is compared with or owned by

_ADJ_END = r"(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ым|им|ую|юю|ых|их|ыми|ими|ей|ем|ом)"
# Where the wine or its maker stands, in so many words: «старейший», «лучшее», «самая
# продаваемая», «единственный», «первыми», «второй по величине», «в тройку», «топ-10». Each
# stands only when the wine's own words say the same word (not merely a claim of the kind:
# «крупнейший» in the description bears out no «старейший»).
# Adjectives of standing (age, size, fame, sales, rank), not of taste («самое лёгкое из трёх»,
# «нежнейший мусс» say how a wine tastes beside the others shown).
_STANDING_WORDS = (
    r"стар|древн|крупн|больш|велик|велич|известн|знаменит|популярн|продаваем|покупаем|титулованн"
    r"|награжденн|признанн|почитаем|влиятельн|культов|престижн|дорог|редк|уважаем|успешн|важн"
)
_PLACE_STANDING = r"высок|высокогорн|южн|северн|западн|восточн|холодн|жарк|крут|низк"
_PLACE_NOUN = r"виноградник|участ|склон|хозяйств|винодельн|поместь|плантаци|регион|терруар|район"
_STANDING = re.compile(
    r"(?<![а-яёa-z])(?:"
    rf"(?P<supr>(?:{_STANDING_WORDS})\w*?(?:ейш|айш)){_ADJ_END}"
    rf"|(?P<best>лучш|худш){_ADJ_END}(?! (?:\w+ )?(?:выбор|вариант|спутник|компаньон|пар[аыу]"
    r"|решени|дополнени|подар|сочетани|кандидат|способ))"
    rf"|(?:сам\w*|наиболее)\s+(?P<most>(?:{_STANDING_WORDS}))[а-яё]*{_ADJ_END}(?![а-яё])"
    r"|(?P<only>единствен)н\w*"
    # «самый высокий виноградник», «высочайших участков»: where a place stands
    rf"|(?:сам\w*|наиболее)\s+(?P<high>{_PLACE_STANDING})[а-яё]*\s+(?:\w+\s+)?(?={_PLACE_NOUN})"
    rf"|(?P<highest>высочайш|южнейш|севернейш){_ADJ_END}"
    r"|(?P<place>перв|последн)\w*(?= (?:в|во|на|из|среди|кто|\w+ (?:в|во|на) (?:мир|стран|регион)))"
    r"|(?P<second>втор|трет)\w* (?:по|в) (?:величин|объем|размер|известност|продаж|мир)"
    r"|в (?P<top>тройк|пятерк|десятк|двадцатк|сотн)\w*|(?P<top_n>топ)[- ]?\d+|номер один"
    # «лидер Аргентины», «эталон региона», «законодатель моды»: a standing by a noun
    r"|(?P<lead>лидер|эталон|законодател|первопроход|флагман)\w*"
    r"|(?:the|its|their|[a-z]+'s) (?P<en>best[- ]selling|best|oldest|largest|biggest|first|only"
    r"|most (?:famous|popular|renowned|celebrated|prestigious)|highest|southernmost"
    r"|northernmost)\b)"
)
# An English standing is the same standing said in Russian: «the oldest» is «старейшая».
_ENGLISH_STANDINGS = {
    "oldest": "старейш",
    "largest": "крупнейш",
    "biggest": "крупнейш",
    "best": "лучш",
    "best-selling": "сам продаваем",
    "best selling": "сам продаваем",
    "first": "перв",
    "only": "единствен",
    "most famous": "сам знаменит",
    "most popular": "сам популярн",
    "most renowned": "сам известн",
    "most celebrated": "сам знаменит",
    "most prestigious": "сам престижн",
    "highest": "сам высок",
    "southernmost": "сам южн",
    "northernmost": "сам северн",
}
_HIGHEST = {"высочайш": "сам высок", "южнейш": "сам южн", "севернейш": "сам северн"}


# The wine set against others: «дороже большинства аргентинских», «старше, чем соседи», «не
# уступает бордо» — the wine's own words must make the same comparison.
_COMPARISON = re.compile(
    r"(?<![а-яёa-z])(?:(?P<than>дороже|дешевле|старше|моложе|крупнее|известнее|популярнее"
    r"|престижнее|лучше|хуже|сложнее|богаче|мощнее|легче|плотнее)(?:,)? (?:чем|большинств|многих"
    r"|других|остальных|сосед|конкурент|любого|иных)"
    r"|(?P<beats>превосход|обгоня|обход|не уступа|затмева)\w*)"
)
# How long a wine was aged, said without a number: «долгая выдержка», «лёгкая выдержка в дубе».
_SPAN = re.compile(
    r"(?<![а-яё])(?:(?P<long>долг|длительн|многолетн|продолжительн|долгосрочн)"
    r"|(?P<short>легк|коротк|недолг|кратк|непродолжительн))\w* (?:\w+ )?выдерж"
)


# «первой в мире», «лучшее в мире», «of the world»: a standing in the world, not in a country
_POSSESSOR = re.compile(r"([a-z]+)'s ")
_WORLDWIDE = re.compile(r"\W*(?:\w+\W+){0,3}?(?:в мире|мира|на свете|in the world|world)")


def _standings(folded: str, own: bool = False) -> list[tuple[int, str]]:
    """(where, the word said, and «@мир» when it is a standing in the world) of each standing
    in `folded`."""
    found: list[tuple[int, str]] = []
    for match in finditer_gated(_STANDING, folded):
        said = next((v for v in match.groupdict().values() if v), "top")
        said = ("сам " if match.group("most") or match.group("high") else "") + said
        said = _HIGHEST.get(said, said)
        said = _ENGLISH_STANDINGS.get(said, said)
        if _WORLDWIDE.match(folded, match.end()) or folded.startswith("world", match.start()):
            said += "@мир"
        elif possessor := _POSSESSOR.match(match.group()):  # «Argentina's oldest»
            said += "@" + possessor_scope(possessor.group(1))
        elif scope := standing_scope(folded, match.end(), every=own):  # «старейшая в Мендосе»
            said += "@" + scope
        found.append((match.start(), said))
    return found


# Every kind of claim `cue_claims` finds: a claim of one kind is borne out only by the wine's
# words' claims of the same kind, so the wine's words are read for the kinds a sentence needs.
CUE_KINDS = (*CUES, "method", "label", "rank", "standing", "comparison", "ageing_span", "side")
_ALL_KINDS = frozenset(CUE_KINDS)


@lru_cache(maxsize=4096)  # a sentence is read for claims once; cleared with the other readings
def cue_claims(text: str) -> frozenset[tuple[str, str]]:
    """The claims-without-a-row-field `text` makes, as (kind, value): the kind of cue («award»,
    «premier_cru»), a rank («rank», "2") or a side («side», "east"); a value ends in ``OTHER``
    when the clause says it of something other than the wine."""
    return _cues(fold(text), _ALL_KINDS)


@lru_cache(maxsize=4096)  # a wine's own words, asked for each kind a sentence claims
def cue_claims_of_kind(text: str, kind: str) -> frozenset[tuple[str, str]]:
    """The claims of `cue_claims(text)` of one kind."""
    if kind not in CUE_KINDS:
        return frozenset()
    own = _cues(fold(text), frozenset((kind,)), own=True)
    return frozenset(claim for claim in own if claim[0] == kind)


def _cues(folded: str, kinds: frozenset[str], own: bool = False) -> frozenset[tuple[str, str]]:
    """The claims of `kinds` in `folded`, and perhaps some of other kinds read on the way."""
    found: set[tuple[str, str]] = set()
    others: list[tuple[int, int]] | None = None  # read only once a cue is found
    marks: dict[int, str] = {}  # a vessel («дуба») is read as ageing and as a method

    def mark(start: int) -> str:
        nonlocal others
        if others is None:
            others = [m.span() for m in _OTHER_SUBJECT.finditer(folded)]
        if start not in marks:
            denied = NOT if negated_at(folded, start) else ""
            marks[start] = denied + (OTHER if any(a <= start < b for a, b in others) else "")
        return marks[start]

    for kind, cue in CUES.items():  # the ageing cue's matches also tell the vessel, a method
        if kind not in kinds and (kind != "ageing" or "method" not in kinds):
            continue
        for m in finditer_gated(cue, folded):
            said = mark(m.start())
            if kind == "ageing" and OAK.match(m.group()):
                found |= _vessels(folded, m, said)
                if said.startswith(NOT):
                    continue  # «без дуба», «никакого дуба»: no oak, not no ageing
            found.add((kind, kind + said))
    if "history" in kinds:
        found |= {("history", SINCE + mark(m.start())) for m in _SINCE_YEAR.finditer(folded)}
    for kind in ("method", "label"):
        if kind in kinds:
            found |= {(kind, name + mark(m.start())) for name, m in made_or_labelled(folded, kind)}
    if "rank" in kinds:
        for match in finditer_gated(_RANKED, folded):
            found.add(("rank", f"{ORDINAL_STEMS[match.group(1)]}{mark(match.start())}"))
    if "standing" in kinds:
        for start, said in _standings(folded, own):
            found.add(("standing", said + mark(start)))
    if "comparison" in kinds:
        for match in finditer_gated(_COMPARISON, folded):
            said = (match.group("than") or match.group("beats") or "")[:5]
            found.add(("comparison", said + mark(match.start())))
    if "ageing_span" in kinds:
        for match in finditer_gated(_SPAN, folded):
            span = "long" if match.group("long") else "short"
            found.add(("ageing_span", span + mark(match.start())))
    if "side" in kinds:
        for match in finditer_gated(_SIDE, folded):
            side = next(name for name in _SIDES if match.group(name))
            found.add(("side", side + mark(match.start())))
    return frozenset(found)


# «с 1961 года», «since 1887»: a year a thing has lasted since — the year itself is the claim
# (read and held to the wine's words as a year); the wine's words saying one tell a history.
_SINCE_YEAR = re.compile(r"(?<![а-яёa-z])(?:с|since) \d{4}(?!\d)")
SINCE = "since"
# Vessels a wine's words would name if it was aged in them: denied, they stand unless named.
_SILENCE_DENIES = frozenset({"oak", "new_oak"})


def _vessels(folded: str, match: re.Match[str], said: str) -> set[tuple[str, str]]:
    """Oak said of the wine (a method of its own), and whether as barriques or new oak."""
    found = {("method", "oak" + said)}
    if BARRIQUE.match(match.group()):
        found.add(("method", "barrique" + said))
    if NEW_BEFORE.search(folded, max(0, match.start() - 30), match.start()):
        found.add(("method", "new_oak" + said))
    return found


def borne_out(claim: tuple[str, str], own: frozenset[tuple[str, str]]) -> bool:
    """Is a cue claim made by the wine's own words in the same relation? A claim about the wine
    needs the same about the wine; one about something else, the same said of anything."""
    kind, value = claim
    if (kind, value) in own:
        return True
    if kind == "method" and value.removesuffix(NOT) in _SILENCE_DENIES and value.endswith(NOT):
        return (kind, value.removesuffix(NOT)) not in own  # «без дуба»: none named
    if kind == "history" and value.startswith(SINCE):
        return True  # the year said is held to the wine's words on its own
    if kind == "history" and (kind, SINCE + value[len(kind) :]) in own:
        return True  # «работает с 1887 года» tells a history
    if kind == "standing":
        return _standing_borne_out(value, own)
    return value.endswith(OTHER) and (kind, value.removesuffix(OTHER)) in own


def _standing_borne_out(value: str, own: frozenset[tuple[str, str]]) -> bool:
    """A standing is borne out by the same word in the wine's words said of the same place, of
    the world, or of any place when the sentence names none («старейшая» of «одна из старейших
    в Мендосе»; not «старейшая в Аргентине»)."""
    said = value.rstrip(NOT + OTHER)
    marks = value[len(said) :]
    word, _, scope = said.partition("@")
    for kind, owned in own:
        own_said = owned.rstrip(NOT + OTHER)
        own_word, _, own_scope = own_said.partition("@")
        if kind != "standing" or own_word != word or owned[len(own_said) :] != marks:
            continue
        if not scope or own_scope == "мир" or same_scope(scope, own_scope):
            return True
    return bool(marks.endswith(OTHER)) and any(
        owned.rstrip(NOT + OTHER) == said for kind, owned in own if kind == "standing"
    )
