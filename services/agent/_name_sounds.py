"""Names compared by how they sound: «Вега Сицилия» is «Vega Sicilia», «Фонтанафредды» is
«Fontanafredda», «Фрэнка Гери» is «Фрэнк Гери». What the grounded-prose check uses to hold a
producer or any other name the prose gives to a wine's own words.
"""

from __future__ import annotations

import re
from functools import lru_cache

from core.language.catalog_terms import skeletons, words
from core.language.lemmas import lemma

# Words of many producers' names: sharing one («Château») makes no two producers the same.
_GENERIC_NAME_WORDS = frozenset(
    words(
        "château chateau шато domaine домен bodega bodegas tenuta weingut quinta cantina casa "
        "estate winery wines vineyards vineyard cellars family famille fattoria castello "
        "maison мезон винодельня винодельни винодельне хозяйство дом семья the and del des"
    )
)


@lru_cache(maxsize=8192)
def word_sounds(text: str) -> tuple[frozenset[str], ...]:
    """Each distinctive word of a name or text as its sound skeletons, of the word as written
    and of its dictionary form («Фрэнка Гери» ≈ «Фрэнк Гери», «Виктором» ≈ «Виктор»)."""
    return tuple(sounds for sounds, _ in written_sounds(text))


@lru_cache(maxsize=8192)
def written_sounds(text: str) -> tuple[tuple[frozenset[str], bool], ...]:
    """The words `word_sounds` gives, each with whether it is written in Latin letters."""
    found, generic = _sounds_by_kind(text)
    # A word that sounds like a house's title («Тенуты» is «Tenuta» in Cyrillic) is that
    # title when a name follows, but a name when it stands alone («реки Кача» is no «Casa»).
    return tuple(
        (sounds | _unsaid(sounds) if latin else sounds, latin) for sounds, latin in found or generic
    )


@lru_cache(maxsize=8192)
def _sounds_by_kind(
    text: str,
) -> tuple[tuple[tuple[frozenset[str], bool], ...], tuple[tuple[frozenset[str], bool], ...]]:
    """(the sounds of the distinctive words, of those that sound like a house's title), each
    with whether the word is written in Latin letters."""
    found = []
    generic = []
    for word in words(text):
        if (read := _word_entry(word)) is not None:
            entry, titled = read
            (generic if titled else found).append(entry)
    return tuple(found), tuple(generic)


@lru_cache(maxsize=65_536)  # a wine's words come back wine after wine
def _word_entry(word: str) -> tuple[tuple[frozenset[str], bool], bool] | None:
    """((a word's sound skeletons, whether it is written in Latin letters), whether it sounds
    like a house's title), or None for a short or generic word of names."""
    if len(word) < 3 or word in _GENERIC_NAME_WORDS:
        return None
    sounds = _sounds_of_word(word)
    return (sounds, word.isascii()), bool(_blurred_set(sounds) & _generic_sounds())


@lru_cache(maxsize=65_536)  # like the skeletons and lemmas it is made of: words repeat
def _sounds_of_word(word: str) -> frozenset[str]:
    forms = {word, lemma(word), *_heard_as(word)}
    # «ai» and «ei» merged for names alone: Taylor ≈ Тэйлор (a search would confuse more)
    found = {s.replace("ai", "ei") for form in forms for s in skeletons(form)}
    if not word.isascii() and _POSSESSIVE.search(word):  # «Грэхэмс» is «Graham's»
        found |= skeletons(word[:-1])
    return frozenset(found)


@lru_cache(maxsize=8192)
def _unsaid(sounds: frozenset[str]) -> frozenset[str]:
    """The skeletons of a word written in Latin letters without an ending it may not sound:
    heard only against another alphabet (a name in Cyrillic writes what is heard)."""
    return frozenset(unsaid for s in sounds for unsaid in _without_silent_end(s))


_SILENT_END = re.compile(r"(?:[tsdx]|[aeiou]+)$")
_POSSESSIVE = re.compile(r"[бвгдзклмнпрт]с$")


def _without_silent_end(skeleton: str) -> set[str]:
    """A skeleton without the final letters a Latin spelling may not sound («sogrape» ≈
    «согрейп», «jadot» ≈ «жадо», «grapes» ≈ «грейпс»); a Cyrillic spelling writes what is
    heard, so «перец» has no such ending (and is no «Перу»)."""
    if len(_VOWELS.sub("a", skeleton)) <= 3:
        return set()
    found = {_SILENT_END.sub("", skeleton, count=1)}
    if skeleton.endswith("es"):
        found.add(skeleton[:-2])
    return found - {skeleton}


@lru_cache(maxsize=1)
def _generic_sounds() -> frozenset[str]:
    generic = (s for word in _GENERIC_NAME_WORDS if len(word) >= 4 for s in skeletons(word))
    return _blurred_set(frozenset(generic))


# How Russian writes some Latin spellings of names: «Jadot» is «Жадо», «Guido» «Гвидо»,
# Catalan and Portuguese «ix» «ш» («Freixenet» is «Фрешенет»), «Ste.» «Сент», an English «w» «у».
_HEARD_AS = (
    (re.compile(r"^j(?=[aeiou])"), "zh"),
    (re.compile(r"gu(?=[aeiou])"), "gv"),
    (re.compile(r"(?<=[aeo])ix(?=[aeiou])"), "sh"),
    (re.compile(r"^w(?=[aeiou])"), "u"),  # «William» is «Уильям», «Weil» «Вейль» as written
)
_SAINTS = {"st": ("sent", "saint", "sankt"), "ste": ("sent", "saint")}


def _heard_as(word: str) -> set[str]:
    if not word.isascii():
        return set()
    found = {pattern.sub(sound, word) for pattern, sound in _HEARD_AS} - {word}
    return found | set(_SAINTS.get(word, ()))


@lru_cache(maxsize=8192)
def name_sounds(text: str) -> frozenset[str]:
    """Sound skeletons of the distinctive words of a name or text."""
    return frozenset().union(*(sounds for sounds, _ in _sounds_by_kind(text)[0]))


@lru_cache(maxsize=8192)
def titled_name_sounds(text: str) -> frozenset[str]:
    """Sound skeletons of the words of a text a name that sounds like a house's title may be
    («кьянт» of «Chianti»): its distinctive words and those that sound like a title."""
    return frozenset(s for kind in _sounds_by_kind(text) for sounds, _ in kind for s in sounds)


def sounds_like_a_title(name: str) -> bool:
    """Does every distinctive word of `name` sound like a house's title («Кача», «кьянт»)?"""
    return not _sounds_by_kind(name)[0]


def forget_name_sounds() -> None:
    """Forget the names read so far (a benchmark reads each answer cold)."""
    cached_readers = (
        _sounds_by_kind,
        word_sounds,
        written_sounds,
        name_sounds,
        titled_name_sounds,
        latin_name_sounds,
        names_by_start,
    )
    for cached in cached_readers:
        cached.cache_clear()


@lru_cache(maxsize=8192)
def latin_name_sounds(text: str) -> frozenset[str]:
    """The sound skeletons `name_sounds` gives of the words written in Latin letters, and those
    skeletons without an ending a Latin spelling may not sound."""
    return frozenset(
        s
        for kind in _sounds_by_kind(text)
        for sounds, latin in kind
        if latin
        for s in sounds | _unsaid(sounds)
    )


def sounds_like(
    sounds: frozenset[str],
    names: frozenset[str],
    latin_names: frozenset[str] | None = None,
    latin: bool = True,
) -> bool:
    """One word against a wine's names: the same skeleton, one a case ending longer
    («фонтанафредды» ≈ «Fontanafredda») or another case ending («вдова» ≈ «вдово(й)»), or
    the same consonants once vowels are blurred and a silent ending dropped, as a name is
    heard when written in another alphabet («Вэлли» ≈ «Valley», «Жадо» ≈ «Jadot»): a word in
    Cyrillic (`latin` False) is heard so only against the names written in Latin
    (`latin_names`), as Russian writes its own vowels as they are («Кача» is no «козий»)."""
    if sounds & names:
        return True
    blurred = _blurred_set(sounds)
    shared = blurred & _blurred_set(names)
    if shared and (latin or latin_names is None):
        return True
    # within Cyrillic a blurred vowel holds only in a long name («Массандры»), not «Кача»
    if any(len(_VOWELS.sub("", form)) >= 3 for form in shared):
        return True
    if not latin and latin_names is not None and blurred & _blurred_set(latin_names):
        return True
    by_start = names_by_start(names)
    return any(
        ((a.startswith(b) or b.startswith(a)) and abs(len(a) - len(b)) <= 2)
        or (len(a) == len(b) and a[:-1] == b[:-1])  # «вдова» ≈ «вдовой»: another case
        for a in sounds
        if len(a) >= 5
        for b in by_start.get(a[:4], ())
    )


@lru_cache(maxsize=8192)
def names_by_start(names: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """A wine's sounds of five or more by their first four: two sounds `sounds_like` holds
    alike beyond the same one share at least their first four."""
    found: dict[str, list[str]] = {}
    for name in names:
        if len(name) >= 5:
            found.setdefault(name[:4], []).append(name)
    return {start: tuple(alike) for start, alike in found.items()}


_VOWELS = re.compile(r"[aeiou]+")


@lru_cache(maxsize=8192)
def _blurred_set(skeletons: frozenset[str]) -> frozenset[str]:
    return frozenset(form for skeleton in skeletons for form in _blurred(skeleton))


@lru_cache(maxsize=65_536)
def _blurred(skeleton: str) -> frozenset[str]:
    """A skeleton heard loosely: each run of vowels one vowel («veli», «valei» → «vala»); a
    leading «j» may be «ж» («jadot»). Two sounds at least, so no short word matches by chance."""
    forms = set()
    for base in {skeleton, "s" + skeleton[1:] if skeleton.startswith("h") else skeleton}:
        forms.add(_VOWELS.sub("a", base))
    return frozenset(f for f in forms if len(f) >= 2 and len(_VOWELS.sub("", f)) >= 1)
