"""Names a sentence gives by their shape: capitalised Latin words («Vega Sicilia»), a name in
quotes («Casa Lapostolle»), capitalised Russian words inside a sentence («Вега Сицилия»). What
the claims reader (`claims`) checks against a wine's own words, whatever verb introduces it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache, lru_cache

from core.language.folding import fold, stem, word_set
from core.language.foods import FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.landscape import names_a_place, said_of_land
from core.language.lemmas import analyse, is_indeclinable, is_person, is_proper_noun
from core.language.places import COUNTRY_ALIASES, REGION_ALIASES
from core.language.required_words import finditer_gated
from core.language.scanning import ScannedText, live_hits
from core.language.vocabulary import BODY_WORDS, SWEETNESS_WORDS, WINE_TYPE_WORDS
from core.language.world import countries_of_group

# The capital first and what may not stand before it checked behind it: the engine then looks
# only at capitals (a pattern opening with a look-behind is tried at every position).
_LATIN_NAME = re.compile(
    r"[A-ZÀ-ÖØ-Þ](?<![\w'’].)[\w'’&\-]*(?:\s+(?:[A-ZÀ-ÖØ-Þ][\w'’&\-]*|(?:de|del|della|di|da|do|dos"
    r"|du|des|la|le|les|y|et|&|von|van|der)(?=\s+[A-ZÀ-ÖØ-Þ])))*"
)
# A hyphen may join capitalised parts: «Трентино-Альто-Адидже», «Сант-Садурни».
_CYRILLIC_WORD = r"[А-ЯЁ][а-яё]+(?:-[А-ЯЁа-яё][а-яё]*)*"
_CYRILLIC_NAME = re.compile(
    rf"[А-ЯЁ](?<![\w«].)[а-яё]+(?:-[А-ЯЁа-яё][а-яё]*)*(?:\s+{_CYRILLIC_WORD})*"
)
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
# English words of no name that open a sentence capitalised: «From the Douro valley…».
_ENGLISH_OPENERS = word_set(
    "A An The This That These Those It Its Our Your Their His Her From By In On At With For Of "
    "To As And But Or So Here There Made Grown Aged Produced Crafted Bottled Fermented Also "
    "One Each Every Both All Just Only Very Great Good Perfect Ideal Try Pair Serve Enjoy"
)
# A century in Roman numerals: «с XIX века», «в XX столетии».
ROMAN_CENTURY = re.compile(r"([IVXL]+)\s+(?:век|столети)")
_INNER_CAPITAL = re.compile(r"-[А-ЯЁ]")
_ENDS_CLAUSE = re.compile(r"[.!?…:>]\s*$")


def proper_names(text: str) -> list[str]:
    """Names a sentence gives by their shape, that are no place or grape the vocabulary knows:
    «Vega Sicilia», «Casa Lapostolle» (in quotes), «Вега Сицилия» (capitalised inside a
    sentence; a sentence's first word counts only with a second capitalised word)."""
    found: list[str] = []
    for match in _QUOTED.finditer(text):
        found.append((match.group(1) or match.group(2)).strip())
    for match in _LATIN_NAME.finditer(text):
        if ROMAN_CENTURY.match(text, match.start()):
            continue  # «с XIX века»: a century, read as a date
        words = [w for w in match.group().split() if w not in _NOT_NAMES]
        if words and words[0] in _ENGLISH_OPENERS and _opens_sentence(text, match.start()):
            words = words[1:]  # «From Barca Velha's maker»: the name is what follows
        if words:
            found.append(" ".join(words))
    cased = _CAPITALS.sub(_as_name, text) if _CAPITALS.search(text) else text
    for match in _CYRILLIC_NAME.finditer(cased):
        name = match.group()
        # A sentence, a clause after a colon, or text after markup begins with a capital.
        before = cased[: match.start()]
        at_start = not _WORD_CHARACTER.search(before) or _ENDS_CLAUSE.search(before)
        if at_start:
            rest = name.split(maxsplit=1)
            # «Сент-Эмильон» is a name; so is a lone first word the language does not have
            # as a common one («Паарл.», «Имеретия славится…»)
            if len(rest) < 2 and not _INNER_CAPITAL.search(name) and not _lone_name(name):
                continue
            if len(rest) == 2 and (rest[0] in _OPENERS or _common_word(rest[0])):  # «Линейку…»
                name = rest[1]
        found.append(name)
    names: list[str] = []
    for name in found:
        name = name.strip(" .,;:!?")
        if (
            (len(name) >= 3 or (len(name) == 2 and not analyse(fold(name))[1]))  # «как у Юэ»
            and _names_more_than_places(name)
            and not _style_words_only(name)
            and not countries_of_group(name)
            and name not in names
        ):
            names.append(name)
    return names


# Only marks before a word (quotes, emoji, markdown): it opens the sentence.
_WORD_CHARACTER = re.compile(r"[^\W_]")
# A word in capitals («ИЗ РЕЙМСА», «ПЕРУ»), read as a name is written when the language has
# no common word like it (not «ОЧЕНЬ ВАЖНО»).
_CAPITALS = re.compile(r"(?<![\w])[А-ЯЁ]{3,}(?:-[А-ЯЁ]+)*(?![\w])")


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start]
    return not _WORD_CHARACTER.search(before) or bool(_ENDS_CLAUSE.search(before))


_QUALITY_NOUN = re.compile(r"(?<=...)(?:ость|есть)$")
_ADJECTIVE_END = re.compile(
    r"(?<=..)(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ого|его|ому|ему|ым|им|ую|юю|ых|их|ыми|ими)$"
)


def _as_name(match: re.Match[str]) -> str:
    word = match.group()
    if not _lone_name(word):
        return word
    return "-".join(part.capitalize() for part in word.split("-"))


def _lone_name(word: str) -> bool:
    """Is a word standing alone where any word is capitalised (a sentence's first) a name:
    one the dictionary lacks or knows as a name or a place («Паарл», «Имеретия», «Перу»), or a
    borrowed name («Шабли»), and no term of the trade («Амароне», «Пинотаж») or pointing word
    («Этот»)?"""
    folded = fold(word)
    return (
        len(folded) >= 3
        and word not in _OPENERS
        and not _ADJECTIVE_END.search(folded)  # «Эпернейский дом»: a place's adjective
        and not _QUALITY_NOUN.search(folded)  # «Тельность», «Винность»: a quality
        and (not analyse(folded)[1] or is_proper_noun(folded) or _borrowed_name(folded))
        and stem(folded) not in _wine_terms()
        and not _covered(ScannedText.of(folded), _VOCABULARY)  # «Паэлья», «Рибай»: a dish
    )


def _common_word(word: str) -> bool:
    """A word the dictionary knows as a common one («Линейку»), not a name or a place."""
    base, known = analyse(fold(word))
    return known and not is_person(fold(word)) and not is_place_or_grape(word) and base != ""


# An adjective made from a place's name: «мендосское», «кьянтийского», «стелленбошский».
_PLACE_ADJECTIVE = re.compile(
    r"^(.{3,}?)(?:ий|ей)?(?:ск|цк)(?:ий|ая|ое|ие|ого|ой|ому|ую|ом|их|им|ими|ым|ыми|ую)$"
)
_SIDE_PREFIX = re.compile(r"^(?:южно|северо|западно|восточно|юго|северо)-?")
_ADJECTIVE_SUFFIX = re.compile(r"(?<=...)(?:ин|ов|ев)$")  # «рачинский» ← Рача


def place_adjectives(scanned: ScannedText) -> list[str]:
    """Places named by an adjective the dictionary does not know («мендосское», «кимериджских
    мергелей»), as the stem of the place's name: a claim a wine's words must bear out. An
    adjective the vocabulary knows («французский», «тосканское») is read as its place."""
    candidates = [
        (position, match)
        for position, token in enumerate(scanned.tokens)
        if (match := _PLACE_ADJECTIVE.match(token.text))
        and (
            not analyse(token.text)[1]  # «классический», «королевский»: words of the language
            # …but «альпийских склонов»: a word of the language made from a place's name
            or (said_of_land(scanned.tokens, position) and names_a_place(match.group(1)))
        )
    ]
    if not candidates:
        return []
    covered = _covered(scanned, _PLACES_AND_GRAPES)
    found = []
    for position, match in candidates:
        stem = _ADJECTIVE_SUFFIX.sub("", _SIDE_PREFIX.sub("", match.group(1)))
        if position not in covered and len(stem) >= 3:
            found.append(stem)
    return found


def unknown_terms(scanned: ScannedText) -> list[str]:
    """Lower-case words neither the dictionary nor the vocabulary knows («с долей мукузани»,
    «конча-и-торо», «от torres» in a Russian sentence): a grape, a place or a name the wine's
    own words must bear out. A term of the trade the knowledge base writes is none."""
    russian = bool(_CYRILLIC_LETTER.search(scanned.folded))
    candidates = []
    for position, token in enumerate(scanned.tokens):
        written = scanned.original[token.start : token.end]
        if len(written) < 4 or not written.islower() or token.stem in _wine_terms():
            continue
        if _HOUSE_TITLE.match(token.text):  # «бодеги Маркес де Касерес»: a title, no name
            continue
        if token.text.isascii():  # «aligoté» is Latin too
            if russian and not _in_code(scanned.original, token.start, token.end):
                candidates.append((position, written))  # not in an id («id-3afae88b-0»)
        elif (
            token.text.startswith(token.stem)  # not a misspelling of a word it knows
            and not _PLACE_ADJECTIVE.match(token.text)
            and (
                not analyse(token.text)[1]
                or is_proper_noun(token.text)
                or _borrowed_name(token.text)  # «напоминает кьянти»
            )
        ):
            candidates.append((position, written))
    if not candidates:
        return []
    covered = _covered(scanned, _VOCABULARY)
    return [written for position, written in candidates if position not in covered]


# A house's title borrowed in Cyrillic: «бодега», «кантина», «тенута», «кинта», «вайнгут».
_HOUSE_TITLE = re.compile(
    r"(?:бодег|кантин|тенут|кинт[аеуы]|фаттори|азь?иенд|вайнгут|вейнгут|домейн)[а-яё]*$"
)


def _borrowed_name(word: str) -> bool:
    """A noun Russian borrowed whole (it does not decline) that the knowledge base writes
    capitalised inside a sentence: a place's or a wine's name («кьянти», «шабли»), not «кофе»."""
    return stem(word) in _knowledge_words()[1] and is_indeclinable(word)


def _covered(scanned: ScannedText, tables: tuple[Mapping[str, object], ...]) -> set[int]:
    """Positions of the words the vocabulary's tables read."""
    return {
        position
        for table in tables
        for hit in live_hits(table, scanned)
        for position in range(hit.start, hit.end)
    }


@cache
def _wine_terms() -> frozenset[str]:
    """Stems of the lower-case words the shop's knowledge base writes («миллезимное»,
    «апелласьон»): terms of the trade, but those it also writes capitalised inside a sentence
    («бароло», «Бароло»): a place's or a house's name, however a sentence writes it."""
    lower, names = _knowledge_words()
    return lower - names


@cache
def _knowledge_words() -> tuple[frozenset[str], frozenset[str]]:
    """Stems of the words the knowledge base writes in lower case, and of those it writes
    capitalised inside a sentence."""
    from core.language.knowledge import knowledge_base  # the base loads only when needed

    found: set[str] = set()
    names: set[str] = set()
    for entry in knowledge_base():
        texts = (entry.title, entry.answer, *entry.facts, *entry.questions, *entry.keywords)
        for text in texts:
            found |= {stem(fold(w)) for w in _LOWER_WORD.findall(text)}
            names |= {stem(fold(w)) for w in _INNER_NAME.findall(text)}
    return frozenset(found), frozenset(names)


_LOWER_WORD = re.compile(r"(?<![\w-])[a-zа-яё]{4,}(?![\w-])")
_CYRILLIC_LETTER = re.compile(r"[а-яё]")
_RUN_BEFORE = re.compile(r"\S*$")
_RUN_AFTER = re.compile(r"\S*")
# A Latin word standing in prose: letters (hyphens between), with prose punctuation around.
_PROSE_WORD = re.compile(r"[«\"'(]*[A-Za-zÀ-ÖØ-öø-ÿ]+(?:-[A-Za-zÀ-ÖØ-öø-ÿ]+)*[»\"'),.;:!?…]*")


def _in_code(text: str, start: int, end: int) -> bool:
    """Is the word at text[start:end] part of something that is not prose: an id or a code
    («id-3afae88b-0»), markup or a link («<script>», «javascript:window.x»)?"""
    before = _RUN_BEFORE.search(text, 0, start)
    after = _RUN_AFTER.match(text, end)
    run = (before.group() if before else "") + text[start:end] + (after.group() if after else "")
    return not _PROSE_WORD.fullmatch(run)


_INNER_NAME = re.compile(r"(?<=[^.!?…:\s]\s)[A-ZА-ЯЁ][a-zа-яё]{3,}")


# A method or a style named by a term the dictionary does not know: «методом эштуфа».
_METHOD_TERM = re.compile(
    r"(?<![а-яё])(?:метод\w*|способ\w*|технологи\w*)\s+(?:по\s+)?([а-яё]{4,})(?![а-яё])"
)


def method_terms(text: str) -> list[str]:
    """Terms a sentence names a method by («выдержанная методом эштуфа»), when the dictionary
    does not know them: a claim the wine's words must bear out."""
    return [
        match.group(1)
        for match in finditer_gated(_METHOD_TERM, fold(text))
        if not analyse(match.group(1))[1]
    ]


_PLACES_AND_GRAPES = (GRAPE_ALIASES, COUNTRY_ALIASES, REGION_ALIASES)
_VOCABULARY = (
    GRAPE_ALIASES,
    COUNTRY_ALIASES,
    REGION_ALIASES,
    FOOD_WORDS,
    WINE_TYPE_WORDS,
    SWEETNESS_WORDS,
    BODY_WORDS,
)


@lru_cache(maxsize=16384)  # a name comes back answer after answer
def _style_words_only(name: str) -> bool:
    """«Rosso», «Rotwein», «Brut»: a colour or a sweetness in the trade's own word, no name."""
    scanned = ScannedText.of(name)
    styles = _covered(scanned, (WINE_TYPE_WORDS, SWEETNESS_WORDS))
    return bool(scanned.tokens) and len(styles) == len(scanned.tokens)


def _names_more_than_places(name: str) -> bool:
    """Does a name say more than the places and grapes in it: «Кими Мальборо Винъярдс» names a
    maker beside Marlborough; «Южной Австралии» and «Долины Напа» name only places (a word
    of the language beside them adds no name)?"""
    scanned = ScannedText.of(name)
    covered = _covered(scanned, _PLACES_AND_GRAPES)
    if not covered:
        return True
    return any(
        not analyse(token.text)[1] and token.stem not in _wine_terms()  # «Апелласьон Мендоса»
        for position, token in enumerate(scanned.tokens)
        if position not in covered
    )


def is_place_or_grape(name: str) -> bool:
    return bool(_covered(ScannedText.of(name), _PLACES_AND_GRAPES))
