"""Claims of a shape no catalog field holds, each borne out only by the wine's own words:

- ``house``: the title a house is given before its name («шато Февр», «домен Линч-Баж»,
  «тенута Руффино», «кинта …»). The title is part of the name: it must be one the wine's words
  give the house, or, when they give none, one the wine's country uses («кантина» in Italy).
- ``owner``: ownership or belonging said with a common noun («принадлежит крупному концерну»,
  «входит в международную группу», «owned by a luxury group»): the wine's words must say the
  house is owned, or made by, the same kind of owner («принадлежащий семье Симингтон»).
- ``measure``: an altitude, a distance, an area or an age said in words («около километра над
  морем», «в двух шагах от океана», «в пару гектаров», «лозам по полвека»): the unit must be one
  the wine's words use.
- ``story``: a story of the wine's past told with common nouns («подавали на свадьбе принца»,
  «пили при царском дворе», «назван в честь рыбака»): the wine's words must tell a story of
  the same kind (served, named after, hidden, invented, saved, carried, kept secret, once) with
  the same people and things in it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.language.folding import fold, word_set
from core.language.lemmas import analyse, is_adjective, is_indeclinable, is_proper_noun
from core.language.required_words import finditer_gated

SHAPE_KINDS = ("house", "owner", "measure", "story")


def _named_groups(table: dict[str, str]) -> str:
    """Alternatives of a pattern, each a group named by its key: which one matched is
    `match.lastgroup`."""
    return "|".join(f"(?P<{name}>{cue})" for name, cue in table.items())


# A house's title before its name, and which titles a country's houses take when the wine's
# words give theirs none (a «кантина» is any Italian winery; a «шато» in Italy is a false name).
_TITLES = {
    "chateau": r"шато|ch[aâ]teau",
    "domaine": r"домен\w*|домейн\w*|domaine|dom[aä]ne",
    "tenuta": r"тенут\w*|tenuta",
    "cantina": r"кантин\w*|cantin[ae]",
    "bodega": r"бодег\w*|bodegas?",
    "quinta": r"кинт[аеуы]\w*|quinta",
    "weingut": r"вайнгут\w*|weingut",
    "fattoria": r"фаттори\w*|fattoria",
    "casa": r"каза|casa",
    "maison": r"мезон\w*|maison|(?<![а-яё])дом(?:а|у|ом|е|ов|ам|ами|ах)?",
}
# Read in the lower-cased text (as long as the text: the name after is read in the text itself).
_TITLE_WORD = re.compile(rf"(?<![\w'’-])(?:{_named_groups(_TITLES)})(?![\w'’])")
# A name after the title: a capital, perhaps after a particle («домене д'Эсклан»).
_NAME_AFTER = re.compile(r"\s+(?:(?:д|d)['’]|(?:де|ди|дель|де ла|de|di|del)\s+)?[A-ZÀ-ÖØ-ÞА-ЯЁ]")
_COUNTRY_TITLES = {
    "Франция": {"chateau", "domaine", "maison"},
    "Италия": {"tenuta", "cantina", "fattoria", "casa", "maison"},
    "Испания": {"bodega", "casa", "maison"},
    "Португалия": {"quinta", "casa", "maison"},
    "Германия": {"weingut", "maison"},
    "Австрия": {"weingut", "domaine", "maison"},
    "Аргентина": {"bodega", "casa", "maison"},
    "Чили": {"bodega", "casa", "maison"},
}


# What every title holds, case-folded: most sentences hold none and are not scanned.
TITLE_GATE = re.compile(
    "шато|château|chateau|домен|домейн|domaine|domane|domäne|тенут|tenuta|кантин|cantin|бодег"
    "|bodega|кинт|quinta|вайнгут|weingut|фаттори|fattoria|каза|casa|мезон|maison"
)


def _titles(text: str, named: bool) -> set[str]:
    """The titles `text` gives (only those before a name, when `named`)."""
    found: set[str] = set()
    lower = text.lower()
    if TITLE_GATE.search(lower) is None and (named or "дом" not in lower):
        return found
    if len(lower) != len(text):
        lower = "".join(char.lower()[0] for char in text)  # one letter for one letter
    for match in _TITLE_WORD.finditer(lower):
        if named and (match.group("maison") or not _NAME_AFTER.match(text, match.end())):
            continue  # «дом» is any house's word; a title alone names no house
        found.add(next(name for name, value in match.groupdict().items() if value))
    return found


# Ownership or belonging, and the common noun that owns: «которым владеет холдинг».
_OWNED = re.compile(
    r"(?<![а-яёa-z])(?:принадлеж\w*|владе(?:ет|ют|ла|ли|л)\w*|входит в|входящ\w* в|входил\w* в"
    r"|(?:является |стал\w* )?част(?:ь|ью) |в составе|в собственности|owned by|belongs? to"
    r"|part of|a member of|в руках|под контролем|куплен\w*|купил\w*|приобр[её]л\w*|приобретен\w*"
    r"|acquired by|bought by|in the hands of|controlled by)"
)
_OWNERS = {
    "family": r"семь|семе|семейств|family",
    "group": r"групп|холдинг|концерн|корпорац|конгломерат|group|holding|conglomerate|corporat",
    "company": r"компани|фирм|company|firm",
    "state": r"государств|state",
    "cooperative": r"кооператив|cooperative|co-op",
    "house": r"дом[ауе]?\b|дом(?:ом|ами|ов)\b|house",
    "investor": r"инвестор|миллиардер|фонд|банк|investor|billionaire|fund|bank",
}
_OWNER = re.compile("|".join(f"(?P<{name}>{cue})" for name, cue in _OWNERS.items()))
# What the wine's own words say of who makes or owns it: «от семьи Гедеш», «бренд семьи».
_OWN_OWNED = re.compile(
    r"принадлеж|владе|управля|бренд|проект|(?<![а-яё])от |объединя|независим\w* семейн"
)
_WINDOW = re.compile(r"[^.;!?()—–]{0,60}")


def _owners(folded: str) -> set[str]:
    found = set()
    for match in finditer_gated(_OWNED, folded):
        window = _WINDOW.match(folded, match.end())
        owner = _OWNER.search(window.group()) if window else None
        if owner is not None and owner.start() < 40:
            found.add(next(name for name, value in owner.groupdict().items() if value))
    return found


# A length, height or area said in words («около километра», «полутора тысяч метров», «в двух
# шагах»), and the height of the sea as a mark; digits before the unit are read as a number.
_MEASURES = {
    "km": r"километр\w*|(?<![а-яё])км\b|kilomet(?:re|er)s?\b",
    "m": r"(?<![а-яё])метр(?:а|ов|ах|ами|ы)?(?![а-яё])|met(?:re|er)s?\b",
    "mile": r"(?<![а-яё])мил(?:я|ю|и|ь|ях)(?![а-яё])|miles?\b",
    "ha": r"гектар\w*|hectares?\b",
    "acre": r"(?<![а-яё])акр\w*|acres?\b",
    "foot": r"(?<![а-яё])фут(?:а|ов)?(?![а-яё])|(?:feet|foot)\b",
    "step": r"(?<![а-яё])шаг(?:ах|ов|а)? от|stone'?s throw",
    "half_century": r"полвека|полувеков\w*|half a century",
    "sea_level": r"над (?:уровнем )?мор\w*|above (?:the )?sea",
}
_MEASURE = re.compile(rf"(?<![a-z])(?:{_named_groups(_MEASURES)})")
_DIGIT_BEFORE = re.compile(r"\d[\d\s.,]*(?:тыс\.?\s*)?$")


_HEIGHT = re.compile(r"высот|высок|над (?:уровнем )?мор|above (?:the )?sea|altitude|elevation")
_CLAUSE_MARK = re.compile(r"[,.;:!?()—–]")


def _measures(folded: str) -> set[str]:
    """Each unit said in words, and whether of a height or a length («km@height»)."""
    found = set()
    for match in finditer_gated(_MEASURE, folded):
        if _DIGIT_BEFORE.search(folded, max(0, match.start() - 12), match.start()):
            continue
        marks = list(_CLAUSE_MARK.finditer(folded, 0, match.start()))
        after = _CLAUSE_MARK.search(folded, match.end())
        clause = folded[marks[-1].end() if marks else 0 : after.start() if after else None]
        height = "height" if _HEIGHT.search(clause) else "length"
        found.add(f"{match.lastgroup}@{height}")
    return found


# A story of the past and its kind; the people and things in it.
_STORIES = {
    "served": r"подавал\w*|(?<![а-яё])(?:пили|пил|пила)(?![а-яё])|разливал\w*|served|poured",
    "favourite": r"любим\w+|favou?rite",
    "gave": r"подарил\w*|подарен\w*|преподн[её]с\w*|(?<![a-z])(?:gave|gifted)",
    "named": r"в честь|named (?:after|for)",
    "hid": r"прята\w*|спрята\w*|укры\w*|скрывал\w*|(?<![a-z])hid(?:den)?\b",
    "invented": r"изобр\w*|придума\w*|invent\w*",
    "saved": r"(?<![а-яё])спас(?:ла|ли|ал\w*|ен\w*|ён\w*|ти)?(?![а-яё])|(?<![a-z])saved",
    "visited": r"останавлива\w*с[яь]|гостил\w*|посещал\w*|посетил\w*|(?<![a-z])(?:visited|stayed)",
    "carried": r"(?<![а-яё])(?:возил\w*|везли|вывозил\w*|отправлял\w*)|shipped|carried",
    "secret": r"секрет\w*|(?<![а-яё])тайн\w*|secret",
    "once": r"когда-то|в советское время|некогда|(?<![a-z])once\b|in the days of",
}
# Stories told in the past that are a claim with nobody named: «его подавали в посольствах».
_STORIES_OF_THEMSELVES = frozenset({"served", "gave", "carried", "once", "visited"})
_STORY = re.compile(rf"(?<![а-яёa-z])(?:{_named_groups(_STORIES)})")
_PEOPLE_AND_THINGS = re.compile(
    r"(?<![а-яёa-z])(?:корол|царск|царя|царю|царем|царь|принц|импера|герцог|граф(?!ическ|ит)"
    r"|маркиз|барон|княз|генерал|солдат|монах|монаст|вдов|президент|двор(?!ик)|свадьб|коронац"
    r"|при[её]м|банкет|кремл|рыбак|моряк|пират|корабл|экватор|войн|советск|рецепт|птиц|поэт"
    r"|трубадур|папск|основател|хозя[ие]н|купц|купец|возлюблен|любовниц|royal|king|queen"
    r"|prince|wedding|coronation|emperor|tsar|czar|monk"
    r"|soldier|widow|ship|war\b|president|court|pope|sailor|fisherman|recipe|bird|founder)"
)
_HONOURED = re.compile(r"(?:в честь|named (?:after|for))((?:\s+[\w'’-]+){1,4})")
_COUNTED = re.compile(
    r"\d|(?:сто|ста|двухсот|трехсот|тысяч|двадцат|тридцат|сорок|пятидесят|шестидесят"
    r"|семидесят|восьмидесят|девяност|лет|год|век)"
)
_ADJECTIVE_END = re.compile(r"(?:ого|его|ой|ей|ых|их|ая|яя|ое|ее|ый|ий|ские|ских)$")


def _stories(folded: str) -> set[str]:
    kinds = {m.lastgroup or "" for m in finditer_gated(_STORY, folded)}
    if not kinds:
        return set()
    things = {m.group()[:5] for m in _PEOPLE_AND_THINGS.finditer(folded)}
    if "named" in kinds and not things:  # «в честь иволги»: whoever it is named after
        for match in _HONOURED.finditer(folded):
            # «в честь ста двадцати солдат»: the thing, not the number or a span of years
            words = [w for w in match.group(1).split() if not _COUNTED.match(w)] or ["?"]
            noun = next((w for w in words if not _ADJECTIVE_END.search(w)), words[0])
            things.add(noun[:5])
    if not things:  # «его подают к рыбе»: advice; «его подавали в …»: a story all the same
        return {f"{kind}:" for kind in kinds & _STORIES_OF_THEMSELVES}
    return {f"{kind}:{thing}" for kind in kinds for thing in things if thing.isalpha()}


# The first letters of a word each reader's cues begin with: a sentence none of whose words
# begins so is not read for that kind (a cue inside a word, «полукилометра», by its prefix).
_STARTS = {
    "house": "шато chat доме doma тену tenu кант cant боде bode кинт quin вайн wein фатт fatt "
    "каза casa мезо mais",
    "owner": "прин влад вход част сост собс owne belo part memb рука конт купл купи прио acqu "
    "boug hand",
    "measure": "кило полу полк полм метр мил миля мили милю миль гект акр фут шаг над km км "
    "kilo metr mete mile acre hect feet foot ston half abov",
    "story": "пода пил пила пили разл serv pour люби favo чест name прят спря укры скры hid изоб "
    "прид inve спас save оста гост посе visi stay вози везл выво отпр ship carr секр тайн "
    "secr когд сове неко once days преп gave gift",
}
_KINDS_BY_START: dict[str, set[str]] = {}
for _kind, _starts in _STARTS.items():
    for _start in _starts.split():
        _KINDS_BY_START.setdefault(_start, set()).add(_kind)
_WORD = re.compile(r"[a-zа-я]+")


@lru_cache(maxsize=4096)
def shape_claims(text: str) -> tuple[tuple[str, str], ...]:
    """(kind, value) of each shape claim `text` makes."""
    folded = fold(text)
    words = _WORD.findall(folded)
    starts = ({word[:4] for word in words} | {word[:3] for word in words}) & _KINDS_BY_START.keys()
    if not starts:
        return ()
    kinds = set().union(*(_KINDS_BY_START[start] for start in starts))
    found = []
    if "house" in kinds:
        found += [("house", title) for title in sorted(_titles(text, named=True))]
    if "owner" in kinds:
        found += [("owner", owner) for owner in sorted(_owners(folded))]
    if "measure" in kinds:
        found += [("measure", unit) for unit in sorted(_measures(folded))]
    if "story" in kinds:
        found += [("story", story) for story in sorted(_stories(folded))]
    return tuple(found)


@lru_cache(maxsize=4096)  # a wine's words, read for each kind a sentence claims
def _own_shapes(own_text: str, name_text: str, kind: str) -> frozenset[str]:
    if kind == "house":
        return frozenset(_titles(name_text, named=False))
    folded = fold(own_text)
    if kind == "measure":
        return frozenset(_measures(folded))
    if kind == "story":
        return frozenset(m.lastgroup or "" for m in finditer_gated(_STORY, folded))
    if _OWN_OWNED.search(folded) is None:
        return frozenset()
    return frozenset(name for name, cue in _OWNERS.items() if re.search(cue, folded))


def shape_borne_out(
    kind: str, value: str, own_text: str, name_text: str, countries: frozenset[str]
) -> bool:
    """Do the wine's own words (and, for a house's title, its country) bear out the claim?"""
    own = _own_shapes(own_text, name_text, kind)
    if kind == "house" and not own:
        return any(value in _COUNTRY_TITLES.get(country, ()) for country in countries)
    if kind == "story":  # the same kind of story, with what it is about in the wine's words
        told, _, thing = value.partition(":")
        return (
            told in own
            and re.search(rf"(?<![а-яёa-z]){re.escape(thing)}", fold(own_text)) is not None
        )
    return value in own


def forget_shapes() -> None:
    shape_claims.cache_clear()
    _own_shapes.cache_clear()


# A lower-case name joined by hyphens («кот-де-бон», «сен-жюльен», «кьянти-классико»): parts
# with a particle of names between them, or parts the dictionary knows none of as a word.
_HYPHENATED = re.compile(
    r"(?<![\w'’-])(?:[а-яё]+(?:-(?:д['’])?[а-яё]+)+|[a-zà-ÿ]+(?:-(?:d['’])?[a-zà-ÿ]+)+)(?![\w'’-])"
)
_PARTICLES = word_set(
    "де дю да ди ду дель делла делле дей деи дос дас ла ле ль лос лас эль сюр су ан о "
    "de du des di del della la le les sur"
)
_FIRST_PARTICLES = word_set("сен сент сан санта сант ла ле эль лос лас saint st san santa")
_NOT_NAMES = word_set("де-факто де-юре")


def hyphenated_names(text: str) -> list[str]:
    """Lower-case hyphenated names in `text`, as written."""
    if "-" not in text:
        return []
    found = []
    for match in _HYPHENATED.finditer(text):
        name = match.group()
        parts = [re.sub(r"^[дd]['’]", "", part) for part in name.split("-")]
        if name in _NOT_NAMES:
            continue
        particle = parts[0] in _FIRST_PARTICLES or any(p in _PARTICLES for p in parts[1:])
        if particle or re.search(r"-[дd]['’]", name):
            found.append(name)  # «кот-де-бон», «сен-жюльен», «брахетто-д'акви»
        elif not name.isascii() and all(len(p) >= 3 and _name_part(p) for p in parts):
            found.append(name)  # «кьянти-классико», «кастильоне-фаллетто»
    return found


def _name_part(word: str) -> bool:
    """A part of a name: a word the dictionary lacks, or knows as a name or as a borrowed word
    that does not decline («кьянти») — not «тёмно» of «тёмно-красное»."""
    if not analyse(word)[1]:
        return True
    return (is_proper_noun(word) or is_indeclinable(word)) and not is_adjective(word)


# A grape-like word in an English sentence after the words a blend is told with («a splash
# of mencia», «blended with a little trousseau»); a word of taste or making is none.
_BLENDED = re.compile(
    r"(?:(?:dash|splash|touch|drop|bit|hint|spot|pinch|little|portion|share|measure) of"
    r"|(?:blended|rounded(?: off| out)?|softened|lifted|seasoned|cut|laced|topped up) (?:with|by)"
    r"(?: (?:a (?:dash|splash|touch|little|bit|drop) of|some|a little))?)"
    r" (?:the |some )?([a-zà-ÿ][a-zà-ÿ'-]+(?: (?:blanc|noir|gris|manseng|verdot|meunier|franc"
    r"|nacional|franca|roriz|sirah|bouschet))?)"
)
_CYRILLIC = re.compile("[а-яёА-ЯЁ]")
_TASTE_WORDS = word_set(
    "oak spice spices pepper vanilla acidity acid sweetness sugar fruit fruits tannin tannins "
    "water air time age oxygen wood toast smoke cream butter honey salt minerality freshness "
    "citrus lemon lime cherry cherries plum plums berry berries herbs earth chocolate coffee "
    "cocoa leather tobacco sparkle fizz bubbles bottle barrel barrels cask casks new old older "
    "young white red black green dark ripe fresh dried each both other others one two three "
    "sunshine heat warmth depth body structure grip texture weight colour color spice luck "
    "elegance finesse class style mint eucalyptus violet violets rose roses flowers blossom "
    "apple apples pear peach apricot quince melon pineapple mango grapefruit orange blend "
    "wine wines its their this that sweet dry juice reserve skin skins lees yeast"
)


def english_blend_terms(text: str) -> list[str]:
    """Grape-like words an English sentence adds to a blend, as written."""
    if _CYRILLIC.search(text):
        return []
    found = []
    for match in finditer_gated(_BLENDED, text.lower()):
        term = match.group(1).strip("'-")
        if term.split()[0] not in _TASTE_WORDS and not term.endswith(("ness", "ity", "ing")):
            found.append(term)
    return found
