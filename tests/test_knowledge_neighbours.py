"""Near-neighbour knowledge entries (a general one and a particular one on the same subject)
are told apart by what the question is about: their wordings and keywords say it."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("при подаче игристого какая нужна температура?", "temp_sparkling"),
        ("какая температура подачи у шампанского?", "temp_sparkling"),
        ("каберне должно подышать перед подачей?", "breathing"),
        ("открыл бутылку позавчера, сколько ещё можно пить?", "open_bottle"),
        ("сколько живёт игристое после открытия?", "open_sparkling"),
        ("открыл бутылку мерло позавчера, её ещё можно пить?", "open_bottle"),
    ],
)
def test_the_particular_entry_answers_a_particular_question(question: str, entry: str) -> None:
    reading = read(question)
    assert reading.kind is MessageKind.wine_question
    assert reading.entry is not None and reading.entry.id == entry
