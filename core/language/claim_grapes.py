"""Grapes and dishes a sentence names, read as claims: a grape said to be the only one («чистый
пино нуар»), to lead the blend («с преобладанием мерло», «в основном из санджовезе»), to be absent
(«в купаже нет мерло»), a grape the vocabulary does not know named in a list with one it does
(«из ркацители и киси»), and the dishes a wine is said to go with («подойдёт к устрицам»), not
the foods of its aroma («нота шоколада»).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

from core.language.claim import Claim
from core.language.folding import Token
from core.language.foods import FOOD_CATEGORIES, FOOD_WORDS
from core.language.grapes import GRAPE_ALIASES
from core.language.lemmas import is_indeclinable, words_of
from core.language.scanning import Hit, ScannedText, live_hits, scan
from core.language.vocabulary import FALSE_FRIENDS

V = TypeVar("V")

_EXACT = re.compile(r"(?:чист\w*|моносорт\w*|стопроцентн\w*|целиком из|100\s*%)\s+$")
# «только шардоне» is the one grape; «только каберне и мерло» names the blend, not each alone
_ONLY = re.compile(r"(?<!не )(?:только|лишь|исключительно)(?: из)?\s+$")
_MAIN = re.compile(
    r"(?:преобладани\w*|преобладает|преимущественно|в основном|главным образом"
    r"|доминир\w*|большей частью|больш\w+ част\w*|высок\w+ (?:содержани|дол)\w*"
    r"|mostly|mainly|majority|dominated by|based on)"
    r"(?:\s+(?:[—:-]|из|лежит|лежат|вина|купажа|этого|составля\w+|сорт\w*))*\s*$"
)
_DENIALS = frozenset({"не", "ни", "нет", "без", "not", "no", "without", "nor"})
# Words between a denial and what it denies: «не из Франции», «нет ни грамма мерло».
_LINKS = frozenset({"из", "с", "от", "в", "на", "from", "in", "грамма", "капли"})
# «не очень сладкое», «not too sweet»: a softer word, not a denial — no claim either way.
_SOFTENERS = frozenset({"очень", "слишком", "сильно", "особо", "особенно", "так", "too", "very"})
# Words that list one grape with another: «из ркацители и киси», «ркацители с киси».
_LIST_WORDS = frozenset({"и", "или", "с", "со"})
# Adjective endings: «мальбековое, мендосское» lists a grape with a place, not two grapes.
_ADJECTIVE_ENDING = re.compile(r"(?:ое|ый|ий|ой|ая|яя|ые|ие|ого|его|ому|ему|ую|юю|ых|их|ым|им)$")


def denial(text: ScannedText, start: int) -> bool | None:
    """Is the word at token `start` denied by the words just before it («нет мерло», «не из
    Франции», «без мерло»)? None when softened («не очень сладкое»): it claims nothing."""
    softened = False
    for token in reversed(text.tokens[max(0, start - 3) : start]):
        if token.text in _DENIALS:
            return None if softened else True
        if token.text in _SOFTENERS:
            softened = True
        elif token.text not in _LINKS:
            return False
    return False


def said_hits(table: Mapping[str, V], text: ScannedText) -> list[tuple[Hit[V], bool]]:
    """The hits of `table` a sentence says or denies (True: denied), not false friends
    («сырой погоды») nor softened ones («не очень сладкое»)."""
    found: list[tuple[Hit[V], bool]] = []
    for hit in scan(table, text.tokens, text.stems):
        if any(t.text in FALSE_FRIENDS for t in text.tokens[hit.start : hit.end]):
            continue
        if any(_corrected_name(text, t) for t in text.tokens[hit.start : hit.end]):
            continue  # «Марани» is a name, not a misspelt «марсала»
        if (denied := denial(text, hit.start)) is not None:
            found.append((hit, denied))
    return found


def _corrected_name(text: ScannedText, token: Token) -> bool:
    """Is a capitalised word read as another by the typo corrector: a name, not a typo?"""
    written = text.original[token.start : token.end]
    return written[:1].isupper() and not token.text.startswith(token.stem)


def grape_claims(text: ScannedText) -> list[Claim]:
    claims: list[Claim] = []
    said = [
        (hit, denied)
        for hit, denied in said_hits(GRAPE_ALIASES, text)
        # «мускатный орех» is nutmeg
        if not (hit.end < len(text.tokens) and text.tokens[hit.end].text.startswith("орех"))
    ]
    hits = [hit for hit, _ in said]
    for hit, denied in said:
        start = text.tokens[hit.start].start
        before = text.folded[max(0, start - 40) : start]
        claims.append(
            Claim(
                "grape",
                hit.value,
                exact=bool(_EXACT.search(before) or (len(said) == 1 and _ONLY.search(before))),
                main=bool(_MAIN.search(before)),
                negated=denied,
            )
        )
    covered = {position for hit in hits for position in range(hit.start, hit.end)}
    for hit in hits:
        for neighbour in (_listed(text, hit.end, 1), _listed(text, hit.start - 1, -1)):
            if neighbour is not None and neighbour not in covered:
                claims.append(Claim("grape", text.tokens[neighbour].text))
                covered.add(neighbour)
    for match in _SHARE.finditer(text.folded):  # «с небольшой долей мукузани»
        position = next((i for i, t in enumerate(text.tokens) if t.start == match.start(1)), None)
        word = match.group(1)
        if (
            position is not None
            and position not in covered
            and (_unknown(word) or is_indeclinable(word))
        ):
            claims.append(Claim("grape", word))
    return claims


# A share of a blend: the word after it is a grape («с долей мукузани», «с добавлением киси»).
_SHARE = re.compile(
    r"(?<![а-яё])(?:дол(?:ей|я|ю|и)|добавлени\w+|капл\w+|примес\w+|процент\w*)\s+"
    r"(?:[а-яё]+(?:ой|ей|ым|им)\s+)?([а-яё]{3,})"
)


def _unknown(word: str) -> bool:
    """A word the dictionary lacks, or knows only as a person's name («азала»)."""
    return all(not w.known or w.person for w in words_of(word))


def _listed(text: ScannedText, position: int, step: int) -> int | None:
    """The token next to a grape across «и», «или» or a comma, when it is a word the dictionary
    does not know: a grape the vocabulary lacks («из ркацители и киси»)."""
    tokens = text.tokens
    if not 0 <= position < len(tokens):
        return None
    if tokens[position].text in _LIST_WORDS:
        position += step
    else:
        left, right = (position - 1, position) if step == 1 else (position, position + 1)
        if not (left >= 0 and right < len(tokens)):
            return None
        if text.original[tokens[left].end : tokens[right].start].strip() != ",":
            return None
    if not 0 <= position < len(tokens):
        return None
    token = tokens[position]
    written = text.original[token.start : token.end]
    if len(written) < 3 or not written.isalpha() or not written.islower() or written.isascii():
        return None
    if _ADJECTIVE_ENDING.search(written):
        return None
    return position if _unknown(written) else None


# Words of a clause about the aroma or taste: the foods named there are notes, not dishes.
_AROMA = re.compile(
    r"аромат|нот[аыуе]|нотк|тон[аыо]?\b|тонами|оттен|букет|привкус|запах|вкус(?!н)|finish|nose"
    r"|palate|notes?\b"
)
# Words that offer a wine with a dish.
_PAIRING = re.compile(
    r"подойд|подходит|подход|подав|подай|подать|сочета|в пар[уе]|пар[аы]\b|компани|гастроном"
    r"|к столу|к ужину|pair|goes with|serve"
)
_BEFORE_DISH = re.compile(r"(?<![а-яёa-z])(?:к|ко|под|с|со|для|with|to)\s+(?:\S+\s+){0,2}$")
_CLAUSE_BREAK = re.compile(r"[.;:!?()—–]")
# Ways of cooking more than dishes: «на гриле» is said of fish and meat alike.
_NOT_DISHES = frozenset({"барбекю", "закуски", "аперитив"})


def food_claims(text: ScannedText) -> list[Claim]:
    """The dishes a sentence offers the wine with («подойдёт к баранине и дичи», «хорошо с
    устрицами»), not the foods its aroma or taste is said to recall."""
    folded = text.folded
    offered = bool(_PAIRING.search(folded))
    claims: list[Claim] = []
    for hit, denied in said_hits(FOOD_WORDS, text):
        if hit.value in _NOT_DISHES:
            continue
        start = text.tokens[hit.start].start
        clause_start = max((m.end() for m in _CLAUSE_BREAK.finditer(folded, 0, start)), default=0)
        clause = folded[clause_start:start]
        if _AROMA.search(clause):
            continue
        if offered or _BEFORE_DISH.search(folded[max(0, start - 30) : start]):
            claims.append(Claim("food", hit.value, negated=denied))
    return claims


def foods_of(pairings: tuple[str, ...]) -> frozenset[str]:
    """The dishes a catalog row pairs a wine with, as the food words a sentence is read into."""
    return frozenset(dish for pairing in pairings for dish in _dishes_of(pairing))


@lru_cache(maxsize=16384)  # a catalog's pairings («стейк», «выдержанные сыры») repeat by wine
def _dishes_of(pairing: str) -> tuple[str, ...]:
    return tuple(hit.value for hit in live_hits(FOOD_WORDS, ScannedText.of(pairing)))


# A steak is beef unless said otherwise.
_SAME_DISH = {frozenset({"стейк", "говядина"})}


def pairs_with(dish: str, foods: frozenset[str]) -> bool:
    """Is `dish` among a wine's pairings, as itself, as a category holding one of them («к
    мясу» of a wine for lamb) or as a member of one («к устрицам» of a wine for seafood)?"""
    if dish in foods or any(frozenset({dish, food}) in _SAME_DISH for food in foods):
        return True
    if foods & set(FOOD_CATEGORIES.get(dish, ())):
        return True
    return any(dish in FOOD_CATEGORIES.get(food, ()) for food in foods)
