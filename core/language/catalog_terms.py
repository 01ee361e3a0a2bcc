"""Names, appellations and styles read against the catalog's own words, in any script.

«кьянти», «Просекко», «амароне», «шабли», «риохи», «Vinho Verde» are matched to the names,
regions, appellations and grapes of the wines a shop has — no wine id is ever hard-coded.
Both sides are reduced to a rough Latin sound skeleton (кьянти ≈ Chianti, херес ≈ Jerez),
then a word of the message matches a catalog word when their stems agree (declensions:
«Бургундии» ≈ «Бургундия»).
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz, process

from core.language.catalog_words import ALIASES, CYRILLIC, STOP
from core.language.folding import stem
from core.language.lemmas import analyse, is_adjective, is_animate_noun, noun_lemma

_TOKEN = re.compile(r"[a-zа-яё]+")
_DISH_TOKEN = re.compile(r"[a-zа-яёй]+")
# Nouns that name food in general: an adjective before one names the dish («к острой еде»)
_ANY_FOOD = frozenset({"еда", "блюдо", "кухня", "пища", "закуска", "закусь", "стол"})
_DISH_PREPOSITIONS = frozenset({"к", "ко", "под", "с", "со", "for", "with", "to"})
MIN_WORD = 4


class _Uncombined(dict[int, str]):
    """``str.translate`` table dropping combining marks, filled on first sight of each
    character: stripping then runs in C."""

    def __missing__(self, code: int) -> str:
        kept = self[code] = "" if unicodedata.combining(chr(code)) else chr(code)
        return kept


_UNCOMBINED = _Uncombined()


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed
    if _ASTRAL.search(decomposed):  # beyond the table below: each character looked up
        return decomposed.translate(_UNCOMBINED)
    return _bmp_combining().sub("", decomposed)


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@cache
def _bmp_combining() -> re.Pattern[str]:
    """Every combining mark of the Basic Multilingual Plane, as one class: a long text is
    stripped in one pass of the engine (the table above takes a look-up per character)."""
    marks = [code for code in range(0x10000) if unicodedata.combining(chr(code))]
    ranges: list[tuple[int, int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return re.compile("[" + "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges) + "]")


def _latin(word: str) -> str:
    word = word.replace("нью", "no").replace("ньу", "no")  # винью ≈ vinho
    return "".join(CYRILLIC.get(c, c) for c in word)


def skeletons(word: str) -> set[str]:
    """Rough sound forms of one word: Cyrillic transliterated, spellings merged."""
    return set(_skeletons(word))


@lru_cache(maxsize=65_536)  # a catalog repeats its words (grapes, regions) across wines
def _skeletons(word: str) -> frozenset[str]:
    word = _strip_accents(word.lower())
    bases = {_latin(word)}
    if "х" in word:  # «х» is Latin «h» (Хересъ) or «kh» (Хванчкара ≈ Khvanchkara)
        bases.add(_latin(word.replace("х", "кх")))
    forms = set()
    for base, ch in (
        (b, c) for b in bases for c in ("k", "s")
    ):  # Chianti ≈ кьянти, Chablis ≈ шабли
        form = base.replace("sch", "s").replace("ch", ch).replace("sh", "s").replace("zh", "s")
        form = form.replace("qu", "k").replace("ck", "k").replace("x", "ks").replace("ph", "f")
        form = re.sub(r"c(?=[eiy])", "s", form).replace("c", "k")
        form = form.replace("j", "h").replace("y", "i").replace("w", "v").replace("z", "s")
        form = form.replace("ts", "s").replace("h", "").replace("iu", "u")  # Талю ≈ Talu
        form = re.sub(r"(.)\1+", r"\1", form)
        forms.add(form)
    return frozenset(f for f in forms if f)


def _dish_keys(word: str) -> tuple[str, ...]:
    """The stems a dish word is found by: its own and its dictionary form's («пармезану» and
    «пармезан» stem apart; «икрои», folded without its «й», is «икра»)."""
    own = stem(word)
    noun = noun_lemma(word)
    base = own if noun is None else stem(noun)
    return (own,) if base == own else (own, base)


def words(text: str) -> list[str]:
    return _TOKEN.findall(_strip_accents(text.lower()).replace("ё", "е"))


def _dish_words(text: str) -> list[str]:
    """Words of a dish with their «й» kept («острой» and «острые» share a stem; «острои», as
    `words` folds it, does not)."""
    kept = _strip_accents(text.lower().replace("й", "\0")).replace("\0", "й")
    return _DISH_TOKEN.findall(kept.replace("ё", "е"))


class CatalogEntry(NamedTuple):
    """The searchable words of one wine: its name, region, appellation and grapes in one
    string (one small object per wine: a 100k-wine catalog is held while its index builds)."""

    wine_id: object
    text: str
    foods: str = ""  # its food pairings, "|"-separated
    # "wine_type|sweetness|grape|price" (the grape of a single-grape wine, else empty): what
    # «что-то похожее на …, но дешевле» keeps of it and measures against
    style: str = ""


def _stems(word: str) -> set[str]:
    stems = set()
    for form in skeletons(word):
        keep = max(3, len(form) - 2) if len(form) > 5 else max(3, len(form) - 1)
        stems.add(form[:keep])
    return stems


_START = 3  # the letters a stem and every term it fits begin alike (see `_fitting`)


def _fits(stem: str, term: str) -> bool:
    return term.startswith(stem) or (len(term) >= 5 and stem.startswith(term))


def _closeness(forms: set[str], term: str) -> int:
    """The longest start a sound form of the word shares with a catalog term."""
    best = 0
    for form in forms:
        size = 0
        for a, b in zip(form, term, strict=False):
            if a != b:
                break
            size += 1
        best = max(best, size)
    return best


_HEARD_MIN = 5
_HEARD_CUTOFF = 80.0
_HEARD_LENGTH_SLACK = 1
_DISH_CUTOFF = 80.0  # «калбаск» for «колбаск» 86, as the typos of the shop's own words
_CASE_ENDINGS = frozenset("аяуюеиыо")
_SURE_START = 4  # letters a word shares with a catalog term to name it whatever its ending


def _inflected(forms: set[str], term: str) -> bool:
    return any(len(f) == len(term) and f[:-1] == term[:-1] for f in forms)


_ALIASES = {"".join(words(k)): v for k, v in ALIASES.items()}


# Set phrases whose words name nothing: «на самом деле» is no «della»
_IDIOMS = re.compile(
    r"(?<![a-zа-яё])(?:(?:на|в) (?:самом )?деле|в общем|в целом|по крайней мере|так сказать"
    r"|как бы то ни было|между прочим|в принципе)(?![a-zа-яё])"
)


def query_words(text: str, ignore: Iterable[str] = ()) -> list[str]:
    """Words of a message that could name a wine, style or place."""
    skip = {w for phrase in ignore for w in words(phrase)}
    found: list[str] = []
    for word in words(_IDIOMS.sub(" ", text.lower())):
        if word in STOP or word in skip or len(word) < MIN_WORD:
            continue
        found.extend(_ALIASES.get(word, (word,)))
    return found


# Russian infinitives: a word the dictionary lacks in this shape is a verb of slang
# («задонатить», «апнуть»), not a wine's name written by ear.
_VERB_ENDINGS = ("ить", "ать", "ять", "еть", "уть", "ться", "тись")


class CatalogIndex:
    """The catalog's words → wine ids, built once per catalog version (fast on 100k wines)."""

    def __init__(self, entries: Sequence[CatalogEntry]) -> None:
        self.size = len(entries)
        self.ids: list[object] = [entry.wine_id for entry in entries]
        # term → positions in `ids` (4 bytes each: 100k wines × ~15 terms stay a few MB)
        index: dict[str, array[int]] = {}
        # Terms a Latin word of the catalog makes, and for the rest the stems of the Russian
        # words that make them: «раза» sounds like «Рача» but is no name of it.
        self.latin_terms: set[str] = set()
        self.russian_stems: dict[str, set[str]] = {}
        for position, entry in enumerate(entries):
            for word in {w for w in words(entry.text) if len(w) >= MIN_WORD and w not in STOP}:
                latin = word.isascii()
                for term in _skeletons(word):
                    found = index.get(term)
                    if found is None:
                        found = index[term] = array("I")
                    if not found or found[-1] != position:
                        found.append(position)
                    if latin:
                        self.latin_terms.add(term)
                    else:
                        self.russian_stems.setdefault(term, set()).add(stem(word))
        self.terms = index
        self._first_sounds: dict[str, list[str]] | None = None  # built on the first misheard name
        self._starts: dict[str, list[str]] | None = None  # terms by their first three letters
        self.styles = {entry.wine_id: tuple(entry.style.split("|")) for entry in entries}
        # The catalog's own dish words, by stem: «хачапури», «хамон» — whatever this shop pairs.
        self.foods: dict[str, str] = {}
        # The pairings of several words each word is in («кухня»: «азиатская кухня»), by stem,
        # with the stems each of their words is found by
        self.dishes: dict[str, dict[str, tuple[frozenset[str], ...]]] = {}
        for entry in entries:
            for dish in entry.foods.split("|"):
                wanted = [w for w in _dish_words(dish) if len(w) >= MIN_WORD and w not in STOP]
                found_by = tuple(frozenset(_dish_keys(w)) for w in wanted)
                for word, keys in zip(wanted, found_by, strict=True):
                    for key in keys:
                        self.foods.setdefault(key, word)
                        if len(wanted) > 1:
                            self.dishes.setdefault(key, {})[dish.strip()] = found_by

    def food(self, text: str) -> str | None:
        """A dish of the catalog's pairings the message names: after «к», «под», «with»…, or
        any long word of one («а если хачапури по-аджарски?»)."""
        tokens = _dish_words(text)
        keys: set[str] | None = None  # every word's stems, read once a dish word is met
        for position, word in enumerate(tokens):
            before = tokens[max(0, position - 2) : position]
            near = any(t in _DISH_PREPOSITIONS for t in before) or len(word) >= 6
            if not near:
                continue
            for key in [k for k in _dish_keys(word) if k in self.foods] or self._misspelt(word):
                if keys is None:
                    keys = {k for token in tokens for k in _dish_keys(token)}
                keys.add(key)  # «калбаскам гриль»: the word as the pairing spells it
                if whole := self._whole_dish(key, keys):
                    return whole
                # «а если к жареной?» names no dish; «к острой еде» does
                following = tokens[position + 1 : position + 2]
                if not is_adjective(word) or {noun_lemma(w) for w in following} & _ANY_FOOD:
                    return self.foods[key]
        return None

    def _misspelt(self, word: str) -> list[str]:
        """«к калбаскам»: the stem of the catalog's dish word a word no dictionary knows is a
        typo of (same first letter, as close as the shop's own words' typos must be)."""
        if word.isascii() or len(word) < _HEARD_MIN or analyse(word)[1]:
            return []
        own = stem(word)
        candidates = [key for key in self.foods if key[:1] == own[:1]]
        best = process.extractOne(own, candidates, scorer=fuzz.ratio, score_cutoff=_DISH_CUTOFF)
        return [str(best[0])] if best is not None else []

    def _whole_dish(self, key: str, said: set[str]) -> str | None:
        """The pairing of several words the message names whole («к азиатской кухне» is
        «азиатская кухня», not any «кухня»), if one is."""
        for dish, found_by in sorted(self.dishes.get(key, {}).items()):
            if all(stems & said for stems in found_by):
                return dish
        return None

    def _spelt(self, term: str, word: str) -> bool:
        """Does a Russian word name what a term stands for: a Latin name it sounds like, whole
        («шабли» — Chablis, «каву» — Cava), the same Russian word or one made of it
        («мускатом» — Мускат, «провансальское» — Прованс), not another one that sounds alike
        («раза» — Рача)?"""
        if term in self.latin_terms:  # the whole word, in some case: not «делать» for «della»
            forms = skeletons(word)
            # a case ends in a vowel («каву» — Cava): «может» is a verb, not Mosel
            cased = word[-1] in _CASE_ENDINGS and _inflected(forms, term)
            return any(term.startswith(f) for f in forms) or cased
        said = stem(word)  # «провансальское» is of Прованс, «крымское» of Крым
        return any(said.startswith(own) for own in self.russian_stems.get(term, ()))

    def _heard(self, word: str, forms: set[str], unknown: bool = False) -> list[str]:
        """The catalog terms a name written by ear stands for: a word of five letters or more
        that no dictionary knows (`unknown`: known not to be one), close to a term (rapidfuzz)
        that begins with the same sound."""
        known = not unknown and not word.isascii() and analyse(word)[1]
        if len(word) < _HEARD_MIN or known:
            return []
        if not word.isascii() and word.endswith(_VERB_ENDINGS):  # «задонатить»: slang, no name
            return []
        found: list[str] = []
        for form in forms:
            candidates = self._by_first_sound().get(form[:1], [])
            best = process.extractOne(
                form, candidates, scorer=fuzz.ratio, score_cutoff=_HEARD_CUTOFF
            )
            # a name heard is about as long as the name («рипассо» is no «rias»)
            if best is not None and abs(len(str(best[0])) - len(form)) <= _HEARD_LENGTH_SLACK:
                found.append(str(best[0]))
        return found

    def _fitting(self, stems: set[str]) -> list[str]:
        """The terms one of the stems fits (`_fits`). A stem of three letters or more fits only
        terms that begin with its first three, so only those are tried, not the whole catalog."""
        if any(len(s) < _START for s in stems):
            return [term for term in self.terms if any(_fits(s, term) for s in stems)]
        if self._starts is None:
            starts: dict[str, list[str]] = {}
            for term in self.terms:
                starts.setdefault(term[:_START], []).append(term)
            self._starts = starts
        tried = dict.fromkeys(t for s in stems for t in self._starts.get(s[:_START], ()))
        return [term for term in tried if any(_fits(s, term) for s in stems)]

    def _by_first_sound(self) -> dict[str, list[str]]:
        if self._first_sounds is None:
            grouped: dict[str, list[str]] = {}
            for term in self.terms:
                if len(term) >= _HEARD_MIN - 1:
                    grouped.setdefault(term[:1], []).append(term)
            self._first_sounds = grouped
        return self._first_sounds

    def match(self, text: str, ignore: Iterable[str] = ()) -> tuple[list[object], list[str]]:
        """The wines the message names (by name, region, appellation or grape), best-matching
        first, and the words that named them. A word matching more than a third of the catalog
        names nothing in particular and is skipped."""
        asked = query_words(text, ignore)
        score: dict[object, int] = {}
        used: list[str] = []
        for word in dict.fromkeys(asked):
            if stem(word) in self.foods:
                continue  # a dish of the shop's pairings («гриль»), not a wine's name
            if is_animate_noun(word) and word not in self.terms:
                continue  # «к папе»: the person the wine is for, not Papa Figos
            stems = _stems(word)
            forms = skeletons(word)
            fitting = self._fitting(stems)
            positions: set[int] = set()
            if not fitting:  # «Клауди» for Cloudy: a name heard, not read
                for term in self._heard(word, forms):
                    positions.update(self.terms[term])
                if not positions and word.endswith("с") and not word.isascii():
                    # «тейлорс»: an English possessive heard with its «s» (Taylor's)
                    for term in self._heard(word[:-1], skeletons(word[:-1]), unknown=True):
                        positions.update(self.terms[term])
            # The closest catalog words only: «бароло» is Barolo, not «barroca» that shares
            # its first four letters.
            best = max((_closeness(forms, term) for term in fitting), default=0)
            if best < _SURE_START:
                # A short start names a wine only as the same word in another case («каву» is
                # Cava); «мало» is not Malbec, «fine» not Fino.
                fitting = [t for t in fitting if not word.isascii() and _inflected(forms, t)]
            if not word.isascii() and analyse(word)[1]:  # a Russian word of the dictionary
                fitting = [t for t in fitting if self._spelt(t, word)]
            for term in fitting:
                if _closeness(forms, term) == best:
                    positions.update(self.terms[term])
            if not positions or len(positions) > max(3, self.size // 3):
                continue
            used.append(word)
            for wine_id in (self.ids[p] for p in sorted(positions)):
                score[wine_id] = score.get(wine_id, 0) + 1
        best = max(score.values(), default=0)
        return [i for i in score if score[i] == best], used
