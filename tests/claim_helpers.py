"""What the claims tables share: whether a sentence under a card stands for a wine."""

from __future__ import annotations

from core.language.claims import read_sentence
from services.agent._verdict import Verdict
from services.agent._wine_facts import Facts


def stands(facts: Facts, sentence: str) -> bool:
    """Every claim the sentence makes (prices aside: they are checked against the answer's
    own figures) is borne out by the wine's row or its own words."""
    return all(
        facts.check(claim) is Verdict.OK
        for claim in read_sentence(sentence).claims
        if claim.kind != "price"
    )
