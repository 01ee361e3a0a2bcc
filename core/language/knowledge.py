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
(`bench/eval/dev/knowledge*.json`; docs/language.md, "Evaluation"). Below them the bot
says honestly that it has no checked answer.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from functools import cache, cached_property
from importlib import resources
from typing import Any

from core.language.folding import stem
from core.language.retrieval import (
    STOP_LEMMAS,
    KnowledgeEntry,
    KnowledgeIndex,
    KnowledgeMatch,
    content_lemmas,
)
from core.language.subjects import HEALTH_LEMMAS

# Good enough to answer: thresholds measured on the development questions.
MIN_SCORE = 6.0
MIN_COVERAGE = 0.4
FULL_COVERAGE = 0.9
# The re-ranked first is not sure enough: the next answers when it explains this much and scores
# higher («эти подтеки на бокале…»: the legs, not the glasses whose wording is nearer).
NEXT_COVERAGE = 0.8
MIN_SCORE_FULL = 4.0

__all__ = [
    "STOP_LEMMAS",
    "KnowledgeEntry",
    "KnowledgeMatch",
    "Question",
    "content_lemmas",
    "entry_by_id",
    "health_match",
    "knowledge_base",
    "match_knowledge",
    "rank_knowledge",
]


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


@cache
def _index() -> KnowledgeIndex:
    return KnowledgeIndex(knowledge_base())


class Question:
    """A text as the knowledge base reads it: its words weighed once, and the entries (or the
    health entries alone) ranked once, when first asked for."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def _weights(self) -> tuple[dict[str, float], frozenset[str]]:
        return _index().read(self.text)

    @cached_property
    def ranked(self) -> tuple[KnowledgeMatch, ...]:
        """Every entry that shares a word with the text, best first."""
        weight, jargon = self._weights
        return tuple(_index().rank(weight, None, jargon))

    @cached_property
    def health_ranked(self) -> tuple[KnowledgeMatch, ...]:
        weight, jargon = self._weights
        return tuple(_index().rank(weight, _health_ids(), jargon))

    @cached_property
    def entries(self) -> tuple[KnowledgeEntry, ...]:
        """The entries sure enough to answer from, best first."""
        return tuple(m.entry for m in self.ranked if accepted(m))

    def match(self) -> KnowledgeMatch | None:
        """The entry that answers the text, when one explains it well enough."""
        ranked = self.ranked
        if not ranked:
            return None
        if accepted(ranked[0]):
            if self._health_undecided:
                # A health entry no surer than the next: the next when it is a wine entry that
                # answers («с возрастом темнеет»: not the legal age), else no entry.
                second = ranked[1]
                return None if second.entry.health or not accepted(second) else second
            return ranked[0]
        if _explains_more(ranked):
            # «откуда в вине вкус ванили»: the wording of a near entry comes first, the next
            # explains every word and scores higher
            return ranked[1]
        if len(ranked) > 1 and _COMPARING.search(self.text.lower()):
            # «в чём разница между токаем и сотерном?»: each of two entries explains its half
            first, second = ranked[0], ranked[1]
            index = _index()
            weight = self._weights[0]
            one, other = (index.docs[index.position[m.entry.id]] for m in (first, second))
            own = [t for t in weight if t in one and t not in other]
            theirs = [t for t in weight if t in other and t not in one]
            held = sum(w for t, w in weight.items() if t in one or t in other)
            both = dataclasses.replace(first, coverage=held / sum(weight.values()))
            if own and theirs and accepted(both):
                return both
        return None

    def names_subject(self, entry: KnowledgeEntry) -> bool:
        """The text names every word of the entry's title («к козьему сыру какое вино?» names
        «Вино и сыр»; «какое вино к рыбе?» does not name «Красное к рыбе»), a word of the same
        root counting («сырной» for «сыр»)."""
        said = self._weights[0]
        roots = [stem(t) for t in said]
        return all(
            lemma in said
            or any(r.startswith(t) or t.startswith(r) for r in roots if min(len(r), len(t)) >= 3)
            for lemma, t in ((lemma, stem(lemma)) for lemma in content_lemmas(entry.title))
        )

    @cached_property
    def _health_undecided(self) -> bool:
        """The best entry is a health one, and the next is nearly as close to the text."""
        ranked = self.ranked
        if len(ranked) < 2 or not ranked[0].entry.health or not accepted(ranked[0]):
            return False
        return self._toss_up(ranked[0], ranked[1:2])

    def _toss_up(self, first: KnowledgeMatch, rest: Sequence[KnowledgeMatch]) -> bool:
        """The next match is nearly as close to the text as the first (re-ranked scores)."""
        if not rest:
            return False
        weight = self._weights[0]
        index = _index()
        lead, second = (m.score + index.closeness_bonus(weight, m.entry) for m in (first, rest[0]))
        return lead < HEALTH_LEAD * second

    @property
    def health_undecided(self) -> bool:
        """Several health entries fit about as well: the general health answer, not one of
        them (a wrong health answer is worse than the general one)."""
        return self._health_undecided and self.ranked[1].entry.health

    def health_match(self) -> KnowledgeMatch | None:
        """The entry that answers a health, age or safety question, if any."""
        ranked = self.health_ranked
        other = self.match()
        if other is not None and not self._holds_health_words(other.entry):
            other = None
        if (
            ranked
            and ranked[0].score >= HEALTH_MIN_SCORE
            and ranked[0].coverage >= HEALTH_MIN_COVERAGE
        ):
            if other is not None and other.coverage >= ranked[0].coverage + HEALTH_MIN_COVERAGE:
                # «пробкой от шампанского можно глаз выбить? как открывать безопасно»: a wine
                # entry that speaks of the health words and explains far more of the question
                return other
            return ranked[0]
        if other is not None and other.coverage >= OTHER_FOR_HEALTH_COVERAGE:
            return other
        return None

    def _holds_health_words(self, entry: KnowledgeEntry) -> bool:
        """The entry speaks of the health words the text asks by («сульфиты вредны?»: the
        sulfites entry says whether they harm), not only of the rest of it («на 7 месяце
        глоток шампанского на день рождения» is no question of how much to buy)."""
        asked = [t for t in self._weights[0] if t in HEALTH_LEMMAS]
        doc = _index().docs[_index().position[entry.id]]
        return bool(asked) and all(t in doc for t in asked)


@cache
def _health_ids() -> frozenset[str]:
    return frozenset(e.id for e in knowledge_base() if e.health)


def rank_knowledge(text: str) -> tuple[KnowledgeMatch, ...]:
    """Every entry that shares a word with `text`, best first."""
    return Question(text).ranked


def _explains_more(ranked: Sequence[KnowledgeMatch]) -> bool:
    if len(ranked) < 2:
        return False
    first, second = ranked[0], ranked[1]
    return (
        second.coverage >= NEXT_COVERAGE
        and accepted(second)
        and second.score > first.score
        and not second.entry.health
    )


def accepted(match: KnowledgeMatch) -> bool:
    """Sure enough to answer: a strong match, or a short question the entry explains whole
    («сколько градусов в вине?» scores low only for being short)."""
    if match.coverage >= FULL_COVERAGE:
        return match.score >= MIN_SCORE_FULL
    return match.score >= MIN_SCORE and match.coverage >= MIN_COVERAGE


def match_knowledge(text: str) -> KnowledgeMatch | None:
    """The entry that answers `text`, when one explains it well enough."""
    return Question(text).match()


def health_match(text: str) -> KnowledgeMatch | None:
    """The entry that answers a health, age or safety question in `text`, if any."""
    return Question(text).health_match()


_COMPARING = re.compile(
    r"разниц|отлича|отличи|сравн|difference|differ|compare|\bvs\.?\b|versus|\bили\b|\bor\b"
)


# Ten health entries: a narrow choice, so a weaker match is still the right one; another entry
# answers a health question only when it explains nearly all of it («вредны ли сульфиты?»).
HEALTH_MIN_SCORE = 6.0
HEALTH_MIN_COVERAGE = 0.25
OTHER_FOR_HEALTH_COVERAGE = 0.6
# Outside the health path a health entry answers only this far ahead of the next entry (the
# re-ranked score): nearer, the two are a toss-up, and a wrong health answer is the worse one.
HEALTH_LEAD = 1.15
