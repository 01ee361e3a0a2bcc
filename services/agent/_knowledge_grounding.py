"""A model's answer to a wine question, held to the reviewed entries it was given.

The model answers from the top knowledge entries (their texts are in its prompt); each of its
sentences is read for claims (core/language/claims.py: grapes, countries, regions, producers,
years, numbers, awards, ageing, names by their shape) and kept only when the entries' own
words make every one of them — the same check a card's why gets against its catalog row. A
sentence with a claim no entry makes is dropped; an answer left with nothing becomes the best
entry's reviewed answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache

from core.language.claim_cues import UNCONFIRMED_KINDS, borne_out
from core.language.claims import Claim, numbers_in, read_claims, split_sentences
from core.language.knowledge import KnowledgeEntry
from core.language.scanning import ScannedText


@lru_cache(maxsize=512)
def _entry_reading(text: str) -> tuple[frozenset[Claim], frozenset[Decimal], str]:
    claims = frozenset(Claim(c.kind, c.value) for c in read_claims(text))
    return claims, numbers_in(text), ScannedText.of(text).folded


def _borne_out(
    claim: Claim, claims: frozenset[Claim], numbers: frozenset[Decimal], text: str
) -> bool:
    if Claim(claim.kind, claim.value) in claims:
        return True
    if isinstance(claim.value, (int, Decimal)):
        return Decimal(claim.value).normalize() in numbers
    if claim.kind in ("award", "ageing", "history"):
        return any(c.kind == claim.kind for c in claims)
    if claim.kind in UNCONFIRMED_KINDS and isinstance(claim.value, str):
        own = frozenset((c.kind, c.value) for c in claims if isinstance(c.value, str))
        return borne_out((claim.kind, claim.value), own)
    if isinstance(claim.value, str):
        return claim.value.lower() in text
    return False


def ground_knowledge(answer: str, entries: Sequence[KnowledgeEntry]) -> tuple[str, Counter[str]]:
    """(the answer with only sentences the entries bear out, dropped claims by kind)."""
    dropped: Counter[str] = Counter()
    if not entries:
        return answer, dropped
    source = " ".join(entry.answer for entry in entries)
    claims, numbers, folded = _entry_reading(source)
    kept: list[str] = []
    for sentence in split_sentences(answer):
        failing = [
            claim
            for claim in read_claims(sentence)
            if claim.kind != "price" and not _borne_out(claim, claims, numbers, folded)
        ]
        if failing:
            dropped.update(claim.kind for claim in failing)
        else:
            kept.append(sentence)
    text = " ".join(kept).strip()
    return (text or entries[0].answer), dropped
