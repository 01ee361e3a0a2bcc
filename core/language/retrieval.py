"""Ranked retrieval over the knowledge base: Okapi BM25 over lemmas, with typo correction.

A message's words are reduced to lemmas (`lemmas`); a word the dictionary does not know is
corrected against the base's own vocabulary (`rapidfuzz`) and a known word the base lacks is
tried by its root (`kin`). Every entry is scored over the lemmas of its title (×3), keywords
(×2) and questions, and the best ten are ranked again by how close the message is to one of
their wordings. Each match says how much of the message it explains (`coverage`). Which match
is good enough to answer is decided in `knowledge`.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from core.language.folding import stem, word_set
from core.language.lemmas import Word, words_of

# BM25's usual constants.
_K1 = 1.2
_B = 0.75
# Title and keywords say what an entry is about: they count more than a question's words.
_TITLE_WEIGHT = 3
_KEYWORD_WEIGHT = 2
# A message worded like one of an entry's questions counts beyond the words it shares.
_QUESTION_BONUS = 10.0
_FUZZY_CUTOFF = 84.0
_PLAIN_WORD_WEIGHT = 1.0
_ENGLISH_WORD_WEIGHT = 2.0  # an English word the base lacks: a term as often as a plain word

# Lemmas that carry no subject: question words, pronouns, prepositions, particles, and «вино».
STOP_LEMMAS = word_set(
    "а и или но да нет не ни же ли бы вот ну то это этот тот такой такое так как "
    "какой который что чем чего кто где куда когда зачем почему откуда сколько ли в "
    "во на к ко с со у о об от до из за по под над для при про без между через перед "
    "после я ты вы мы он она оно они мой твой ваш наш свой его её ее их мне меня тебе "
    "тебя вам вас нам нас себя сам самый весь всё все быть есть мочь можно нужно надо "
    "стоить хотеть сказать рассказать объяснить подсказать знать понять значить "
    "означать делать сделать вообще обычно очень просто ещё еще уже тоже также лишь "
    "только вино винный винишко винцо a an the of to in on for with and or is are be "
    "it this that what why how which do does can should i you we me my your wine "
    "wines простой слово кратко коротко подробно подробный вкратце пожалуйста плиз вопрос "
    "интересно интересовать разница отличие отличаться правда кстати by way btw "
    # fillers and hedges: they say how, not what about
    "всегда никогда там тут здесь некоторый бывать теперь сейчас реально действительно "
    "прям прямо типа вроде де известный знаменитый славиться совсем казаться "
    # words that tie a sentence together, not a subject
    "чтобы чтоб тем"
)

# Spoken and slang spellings of the words above, as written (the dictionary does not know them,
# so they would weigh as the rarest term): «скока» for «сколько», «типо» for «типа», «вайн» for
# «вино».
SPOKEN_FILLERS = word_set(
    "типо скока скоко скок чё чо шо щас ваще кароче короче блин лол плз пж пжлст "
    "вайн вайна вайны вайном вайне норм нормас ок окей"
)


# Spoken and pet names of the shop's words, as written, to the word the base holds: «шампусик»,
# «красненькое», «шардик» ask what «шампанское», «красное», «шардоне» ask.
SPOKEN_NAMES = {
    **dict.fromkeys(("шампунь", "шампусик", "шампунское", "шампусика", "шампуня"), "шампанский"),
    **dict.fromkeys(("красненькое", "красненького", "красненький", "красненькая"), "красный"),
    **dict.fromkeys(("беленькое", "беленького", "беленький", "беленькая"), "белый"),
    **dict.fromkeys(("шардик", "шардика", "шардоша", "шардошка"), "шардон"),
    **dict.fromkeys(("совик", "совика", "совиньончик"), "совиньон"),
    **dict.fromkeys(("кабер", "каберешка", "каберешку"), "каберне"),
}


def lemma_of(word: Word) -> str:
    """The word's lemma, a spoken name read as the word it stands for."""
    return SPOKEN_NAMES.get(word.text, word.lemma)


def says_nothing(word: Word) -> bool:
    """A word that carries no subject: a stop lemma, a one-letter word or a spoken filler."""
    return len(word.lemma) <= 1 or word.lemma in STOP_LEMMAS or word.text in SPOKEN_FILLERS


# English words that say no subject, as the stemmer leaves them («does» → «doe»).
STOP_LEMMAS |= frozenset(
    stem(w)
    for w in [
        "does",
        "did",
        "done",
        "mean",
        "means",
        "meaning",
        "when",
        "where",
        "between",
        "difference",
        "different",
        "exactly",
        "really",
        "just",
        "like",
        "would",
        "could",
        "about",
        "there",
        "their",
        "they",
        "them",
        "get",
        "got",
        "make",
        "good",
        "tell",
        "know",
        "please",
        "any",
        "some",
        "much",
        "many",
        "more",
        "most",
        "very",
        "still",
        "also",
        "vs",
        "versus",
        "have",
        "has",
        "had",
        "while",
        "take",
        "taking",
        "ok",
        "okay",
        "if",
        "am",
        "was",
        "were",
        "been",
        "will",
        "always",
        "never",
        "actually",
        "why",
        "so",
        "such",
        "too",
        "then",
        "than",
    ]
)


@dataclass(frozen=True)
class KnowledgeEntry:
    id: str
    title: str
    answer: str
    facts: tuple[str, ...]
    cards: dict[str, Any] | None
    questions: tuple[str, ...]
    keywords: tuple[str, ...]
    source: str
    health: bool = False


@dataclass(frozen=True)
class KnowledgeMatch:
    entry: KnowledgeEntry
    score: float  # BM25
    coverage: float  # the IDF-weighted share of the message's content words the entry holds
    # The message names the entry's own term, a word no dictionary knows («рипассо»,
    # «малолактика»): about wine, however few of its other words the base holds.
    term: bool = False


def content_lemmas(text: str) -> list[str]:
    """The lemmas of `text` that can say what it is about (no stop words, no one-letter words)."""
    return [lemma_of(w) for w in words_of(text) if not says_nothing(w)]


class KnowledgeIndex:
    """BM25 over the entries' lemmas."""

    def __init__(self, entries: Sequence[KnowledgeEntry]) -> None:
        self.entries = entries
        self.docs: list[Counter[str]] = []  # lemma -> weighted count
        # Each entry's title and questions as lemma sets, for `closeness`.
        self.position = {entry.id: number for number, entry in enumerate(entries)}
        self.phrasings: list[list[frozenset[str]]] = [
            [frozenset(content_lemmas(q)) for q in (entry.title, *entry.questions)]
            for entry in entries
        ]
        # Each entry's title and keywords: the words that name its subject.
        self.names: list[frozenset[str]] = [
            frozenset(
                lemma
                for phrase in (entry.title, *entry.keywords)
                for lemma in content_lemmas(phrase)
            )
            for entry in entries
        ]
        for entry in entries:
            doc: Counter[str] = Counter()
            for _ in range(_TITLE_WEIGHT):
                doc.update(content_lemmas(entry.title))
            for keyword in entry.keywords:
                for _ in range(_KEYWORD_WEIGHT):
                    doc.update(content_lemmas(keyword))
            for question in entry.questions:
                doc.update(content_lemmas(question))
            self.docs.append(doc)
        lengths = [sum(doc.values()) for doc in self.docs]
        self.lengths = lengths
        self.average = sum(lengths) / max(1, len(lengths))
        frequency: Counter[str] = Counter()
        for doc in self.docs:
            frequency.update(doc.keys())
        count = len(self.docs)
        self.idf = {
            term: math.log(1 + (count - n + 0.5) / (n + 0.5)) for term, n in frequency.items()
        }
        # What an unseen word weighs: as much as the rarest word of the base.
        self.unseen_idf = math.log(1 + (count + 0.5) / 0.5)
        self.vocabulary = sorted(self.idf)
        # lemma -> (the position of an entry that holds it, what it adds to that entry's BM25
        # score), computed once: a message is scored against those entries alone (an entry
        # sharing no word scores nothing).
        self.scores: dict[str, list[tuple[int, float]]] = {}
        for position, doc in enumerate(self.docs):
            for term in doc:
                self.scores.setdefault(term, []).append((position, self._bm25(term, position)))
        # Each wording's lemmas with their IDF, in the wording's own order (for `closeness`).
        self.weighed: list[list[tuple[frozenset[str], tuple[tuple[str, float], ...]]]] = [
            [(p, tuple((t, self.idf.get(t, 0.0)) for t in p)) for p in phrasings]
            for phrasings in self.phrasings
        ]
        self.by_root: dict[str, list[str]] = {}
        for term in self.vocabulary:
            if not term.isascii() and len(stem(term)) >= 4:
                self.by_root.setdefault(stem(term)[:4], []).append(term)

    def _bm25(self, term: str, position: int) -> float:
        tf = self.docs[position][term]
        norm = tf + _K1 * (1 - _B + _B * self.lengths[position] / self.average)
        return self.idf[term] * tf * (_K1 + 1) / norm

    def kin(self, lemma: str) -> str | None:
        """A word of the base built on the same root (Snowball stems that differ at most in
        their last letter past a common part of four): a derivation, not a typo."""
        root = stem(lemma)
        if len(root) < 5:
            return None
        best: tuple[float, str] | None = None
        for term in self.by_root.get(root[:4], ()):
            other = stem(term)
            common = _common_prefix(root, other)
            if common >= 5 and common >= min(len(root), len(other)) - 1:
                weight = self.idf[term]
                if best is None or weight > best[0]:
                    best = (weight, term)
        return best[1] if best else None

    def correct(self, lemma: str) -> str:
        """A word the base does not hold, to the nearest one it does (a typo: «танинн»)."""
        if lemma in self.idf or len(lemma) < 5:
            return lemma
        found = process.extractOne(
            lemma, self.vocabulary, scorer=fuzz.ratio, score_cutoff=_FUZZY_CUTOFF
        )
        if found:
            return str(found[0])
        return self.shortened(lemma) or lemma

    def shortened(self, lemma: str) -> str | None:
        """A word of the base that the unknown word begins, clipped the way speech clips it
        («дегустить» → «дегустировать», «декант» → «декантация»): its root of five letters or
        more is the start of the base word's."""
        root = stem(lemma)
        if len(root) < 5:
            return None
        held = [t for t in self.by_root.get(root[:4], ()) if stem(t).startswith(root)]
        return max(held, key=lambda t: (self.idf[t], t)) if held else None

    def query(self, text: str) -> dict[str, float]:
        """The message's content lemmas, each with what it weighs in `coverage`: its IDF when
        the base holds it; a word the base lacks weighs as the rarest word when the dictionary
        does not know it either (a term or a name: «ксиномавро», «en primeur» — a question the
        base cannot answer), and little when it is plain Russian («иметь», «значение»)."""
        return self.read(text)[0]

    def read(self, text: str) -> tuple[dict[str, float], frozenset[str]]:
        """`query`, and the words of the message no dictionary knows that the base holds (its
        terms: «рипассо», «петнат»)."""
        terms: dict[str, float] = {}
        jargon_held: set[str] = set()
        for word in words_of(text):
            if says_nothing(word):
                continue
            base = lemma_of(word)
            if base != word.lemma:
                word = dataclasses.replace(word, known=True)
            if not word.known:  # a typo of a word the base holds: «танинны», «шардоне»
                base = self.correct(base)
                if base in self.idf and not word.text.isascii():
                    jargon_held.add(base)
            if base not in self.idf and word.known:
                base = self.kin(base) or base  # «подача» for «подавать», «кислый» for «кислотность»
            if base in self.idf:
                terms[base] = self.idf[base]
            else:
                jargon = not word.known or word.person
                plain = _ENGLISH_WORD_WEIGHT if word.text.isascii() else _PLAIN_WORD_WEIGHT
                terms[base] = self.unseen_idf if jargon else plain
        return terms, frozenset(jargon_held)

    def rank(
        self,
        weight: dict[str, float],
        only: frozenset[str] | None = None,
        jargon: frozenset[str] = frozenset(),
    ) -> list[KnowledgeMatch]:
        terms = list(weight)
        if not terms:
            return []
        total = sum(weight.values())
        matches: list[KnowledgeMatch] = []
        # Term at a time over the entries that hold it; each entry's terms add up in the
        # message's order, as they would entry by entry.
        scores: dict[int, float] = {}
        held: dict[int, float] = {}
        for term in terms:
            weighs = weight[term]
            for position, adds in self.scores.get(term, ()):
                scores[position] = scores.get(position, 0.0) + adds
                held[position] = held.get(position, 0.0) + weighs
        for position in sorted(scores):
            entry = self.entries[position]
            if only is not None and entry.id not in only:
                continue
            if (score := scores[position]) > 0:
                named = bool(jargon & self.names[position])
                matches.append(KnowledgeMatch(entry, score, held[position] / total, named))
        matches.sort(key=lambda m: (-m.score, m.entry.id))
        # The best ten again, by how close the message is to one of each entry's wordings.
        head = sorted(
            matches[:10],
            key=lambda m: (-(m.score + self.closeness_bonus(weight, m.entry)), m.entry.id),
        )
        return head + matches[10:]

    def closeness_bonus(self, weight: dict[str, float], entry: KnowledgeEntry) -> float:
        """What the message's closeness to one of the entry's wordings adds to its score."""
        return _QUESTION_BONUS * self.closeness(weight, entry)

    def closeness(self, weight: dict[str, float], entry: KnowledgeEntry) -> float:
        """The weighted Jaccard similarity of the message and the entry's closest wording."""
        total = sum(weight.values())
        best = 0.0
        for phrasing, weighed in self.weighed[self.position[entry.id]]:
            shared = sum(w for term, w in weight.items() if term in phrasing)
            union = total + sum(idf for t, idf in weighed if t not in weight)
            best = max(best, shared / union if union else 0.0)
        return best


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size
