"""The wine knowledge base: short reviewed answers to common questions, shipped as data.

`knowledge.json` holds the entries. Each has `ask` patterns — lists of words, each word one or
more '|'-separated prefixes of folded words («танин» matches «танины», «танинов») that must all
occur in the message, in any order — the answer, the facts the answer states (checked by the
evaluation set), and `cards`: catalog filters for the questions where showing two wines helps
(«какое игристое подают холоднее?»). Messages are folded and split into words by the same
`folding` module the request reader uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from core.language.folding import fold, tokenize


@dataclass(frozen=True)
class KnowledgeEntry:
    id: str
    title: str
    answer: str
    facts: tuple[str, ...]
    cards: dict[str, Any] | None
    patterns: tuple[tuple[tuple[str, ...], ...], ...]


@dataclass(frozen=True)
class KnowledgeMatch:
    entry: KnowledgeEntry
    score: int  # characters of the matched prefixes: the more specific pattern wins


@lru_cache(maxsize=1)
def knowledge_base() -> tuple[KnowledgeEntry, ...]:
    raw = resources.files("core.language").joinpath("knowledge.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    entries: list[KnowledgeEntry] = []
    for item in data["entries"]:
        patterns = tuple(
            tuple(tuple(fold(alt) for alt in word.split("|")) for word in pattern)
            for pattern in item["ask"]
        )
        entries.append(
            KnowledgeEntry(
                id=item["id"],
                title=item["title"],
                answer=item["answer"],
                facts=tuple(item["facts"]),
                cards=item.get("cards"),
                patterns=patterns,
            )
        )
    return tuple(entries)


def _word_score(word: tuple[str, ...], tokens: list[str]) -> int:
    best = 0
    for prefix in word:
        if any(token.startswith(prefix) for token in tokens):
            best = max(best, len(prefix))
    return best


def match_knowledge(text: str) -> KnowledgeMatch | None:
    """The entry whose pattern matches the message most specifically, if any."""
    tokens = [t.text for t in tokenize(fold(text))]
    if not tokens:
        return None
    best: KnowledgeMatch | None = None
    for entry in knowledge_base():
        for pattern in entry.patterns:
            scores = [_word_score(word, tokens) for word in pattern]
            if not all(scores):
                continue
            score = sum(scores) + 3 * (len(pattern) - 1)
            if best is None or score > best.score:
                best = KnowledgeMatch(entry, score)
    return best


def entry_by_id(entry_id: str) -> KnowledgeEntry | None:
    return next((e for e in knowledge_base() if e.id == entry_id), None)
