"""Slang thanks and forms of address («пасибки, братан», «благодарочка», «чувак, …») are social
words: alone they are small talk, around a request they come off it. Wordings of our own."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


@pytest.mark.parametrize("text", ["пасибки, братан", "благодарочка!", "сяп, дружбан"])
def test_slang_thanks_are_small_talk(text: str) -> None:
    assert read(text).message.kind is MessageKind.smalltalk


@pytest.mark.parametrize(
    ("text", "proper"),
    [
        ("чувак, подбери розовое к рыбе", "подбери розовое к рыбе"),
        ("белое к устрицам, братишка", "белое к устрицам"),
    ],
)
def test_a_form_of_address_comes_off_a_request(text: str, proper: str) -> None:
    reading = read(text)
    assert reading.message.kind is MessageKind.request
    assert reading.proper == proper
