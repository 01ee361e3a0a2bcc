"""The wine knowledge base: short reviewed answers to common questions, found by retrieval.

Entries live in `core/language/knowledge/*.json`, one file per subject. Each carries several
question wordings (the ways people ask), keywords (spellings, synonyms, Latin forms), the
answer, the facts the answer states, the source it was checked against and, for questions
that ask which wine, catalog filters for two example wines (`cards`).

A message is matched by ranked retrieval, not by triggers: its words are reduced to lemmas
(`lemmas`), words the dictionary does not know are corrected against the base's own
vocabulary (`rapidfuzz`), and every entry is scored by Okapi BM25 over the lemmas of its
title, questions and keywords. The best entry is taken only when it explains enough of the
message (`coverage`, the IDF-weighted share of the message's content words the entry holds)
and scores above a threshold measured on the development questions
(`bench/eval/dev/knowledge*.json`; README "Language and evaluation"). Below them the bot
says honestly that it has no checked answer.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from rapidfuzz import fuzz, process

from core.language.folding import stem, word_set
from core.language.lemmas import words_of

# BM25's usual constants; thresholds measured on the development questions.
_K1 = 1.2
_B = 0.75
MIN_SCORE = 6.0
MIN_COVERAGE = 0.4
FULL_COVERAGE = 0.9
MIN_SCORE_FULL = 4.0
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
    "только вино винный a an the of to in on for with and or is are be "
    "it this that what why how which do does can should i you we me my your wine "
    "wines простой слово кратко коротко подробно подробный вкратце пожалуйста плиз вопрос "
    "интересно интересовать разница отличие отличаться правда кстати by way btw same as s "
    "difference between"
)


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


def _entry(item: dict[str, Any]) -> KnowledgeEntry:
    return KnowledgeEntry(
        id=item["id"],
        title=item["title"],
        answer=item["answer"],
        facts=tuple(item.get("facts", ())),
        cards=item.get("cards"),
        questions=tuple(item.get("questions", ())),
        keywords=tuple(item.get("keywords", ())),
        source=item.get("source", ""),
        health=bool(item.get("health", False)),
    )


@cache
def knowledge_base() -> tuple[KnowledgeEntry, ...]:
    folder = resources.files("core.language").joinpath("knowledge")
    entries: list[KnowledgeEntry] = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".json"):
            entries += [_entry(item) for item in json.loads(path.read_text("utf-8"))["entries"]]
    return tuple(entries)


def entry_by_id(entry_id: str) -> KnowledgeEntry | None:
    return _by_id().get(entry_id)


@cache
def _by_id() -> dict[str, KnowledgeEntry]:
    return {entry.id: entry for entry in knowledge_base()}


def content_lemmas(text: str) -> list[str]:
    """The lemmas of `text` that can say what it is about (no stop words, no one-letter words)."""
    return [w.lemma for w in words_of(text) if len(w.lemma) > 1 and w.lemma not in STOP_LEMMAS]


class _Index:
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
        self.by_root: dict[str, list[str]] = {}
        for term in self.vocabulary:
            if not term.isascii() and len(stem(term)) >= 4:
                self.by_root.setdefault(stem(term)[:4], []).append(term)

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
        return str(found[0]) if found else lemma

    def query(self, text: str) -> dict[str, float]:
        """The message's content lemmas, each with what it weighs in `coverage`: its IDF when
        the base holds it; a word the base lacks weighs as the rarest word when the dictionary
        does not know it either (a term or a name: «ксиномавро», «en primeur» — a question the
        base cannot answer), and little when it is plain Russian («иметь», «значение»)."""
        terms: dict[str, float] = {}
        for word in words_of(text):
            base = word.lemma
            if len(base) <= 1 or base in STOP_LEMMAS:
                continue
            if not word.known:  # a typo of a word the base holds: «танинны», «шардоне»
                base = self.correct(base)
            if base not in self.idf and word.known:
                base = self.kin(base) or base  # «подача» for «подавать», «кислый» for «кислотность»
            if base in self.idf:
                terms[base] = self.idf[base]
            else:
                jargon = not word.known or word.person
                plain = _ENGLISH_WORD_WEIGHT if word.text.isascii() else _PLAIN_WORD_WEIGHT
                terms[base] = self.unseen_idf if jargon else plain
        return terms

    def rank(
        self, weight: dict[str, float], only: frozenset[str] | None = None
    ) -> list[KnowledgeMatch]:
        terms = list(weight)
        if not terms:
            return []
        total = sum(weight.values())
        matches: list[KnowledgeMatch] = []
        for entry, doc, length in zip(self.entries, self.docs, self.lengths, strict=True):
            if only is not None and entry.id not in only:
                continue
            score = 0.0
            held = 0.0
            for term in terms:
                tf = doc.get(term, 0)
                if not tf:
                    continue
                held += weight[term]
                norm = tf + _K1 * (1 - _B + _B * length / self.average)
                score += self.idf[term] * tf * (_K1 + 1) / norm
            if score > 0:
                matches.append(KnowledgeMatch(entry, score, held / total))
        matches.sort(key=lambda m: (-m.score, m.entry.id))
        # The best ten again, by how close the message is to one of each entry's wordings.
        head = sorted(
            matches[:10],
            key=lambda m: (
                -(m.score + _QUESTION_BONUS * self.closeness(weight, m.entry)),
                m.entry.id,
            ),
        )
        return head + matches[10:]

    def closeness(self, weight: dict[str, float], entry: KnowledgeEntry) -> float:
        """The weighted Jaccard similarity of the message and the entry's closest wording."""
        total = sum(weight.values())
        best = 0.0
        for phrasing in self.phrasings[self.position[entry.id]]:
            shared = sum(w for term, w in weight.items() if term in phrasing)
            union = total + sum(self.idf.get(t, 0.0) for t in phrasing if t not in weight)
            best = max(best, shared / union if union else 0.0)
        return best


def _common_prefix(a: str, b: str) -> int:
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


@cache
def _index() -> _Index:
    return _Index(knowledge_base())


@lru_cache(maxsize=4096)
def rank_knowledge(text: str, health_only: bool = False) -> tuple[KnowledgeMatch, ...]:
    """Every entry that shares a word with `text`, best first."""
    index = _index()
    only = frozenset(e.id for e in index.entries if e.health) if health_only else None
    return tuple(index.rank(index.query(text), only))


def accepted(match: KnowledgeMatch) -> bool:
    """Sure enough to answer: a strong match, or a short question the entry explains whole
    («сколько градусов в вине?» scores low only for being short)."""
    if match.coverage >= FULL_COVERAGE:
        return match.score >= MIN_SCORE_FULL
    return match.score >= MIN_SCORE and match.coverage >= MIN_COVERAGE


def match_knowledge(text: str, health_only: bool = False) -> KnowledgeMatch | None:
    """The entry that answers `text`, when one explains it well enough."""
    ranked = rank_knowledge(text, health_only)
    if not ranked:
        return None
    if accepted(ranked[0]):
        return ranked[0]
    if len(ranked) > 1 and _COMPARING.search(text.lower()):
        # «в чём разница между токаем и сотерном?»: each of two entries explains its half
        first, second = ranked[0], ranked[1]
        both = dataclasses.replace(first, coverage=min(1.0, first.coverage + second.coverage))
        if first.coverage >= MIN_COVERAGE / 2 and accepted(both):
            return both
    return None


_COMPARING = re.compile(
    r"разниц|отлича|отличи|сравн|difference|differ|compare|\bvs\.?\b|versus|\bили\b|\bor\b"
)


# Ten health entries: a narrow choice, so a weaker match is still the right one; another entry
# answers a health question only when it explains nearly all of it («вредны ли сульфиты?»).
HEALTH_MIN_SCORE = 6.0
HEALTH_MIN_COVERAGE = 0.25
OTHER_FOR_HEALTH_COVERAGE = 0.6


def health_match(text: str) -> KnowledgeMatch | None:
    """The entry that answers a health, age or safety question, if any."""
    ranked = rank_knowledge(text, health_only=True)
    if ranked and ranked[0].score >= HEALTH_MIN_SCORE and ranked[0].coverage >= HEALTH_MIN_COVERAGE:
        return ranked[0]
    other = match_knowledge(text)
    if other is not None and other.coverage >= OTHER_FOR_HEALTH_COVERAGE:
        return other
    return None
