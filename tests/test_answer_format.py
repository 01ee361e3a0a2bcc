"""The final answer format: what the model writes is read deterministically into cards."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from services.agent._answer_format import (
    FORMAT_INSTRUCTIONS,
    MAX_CLOSING,
    MAX_INTRO,
    MAX_PLAIN,
    MAX_WHY,
    clip,
    first_sentence,
    intro_so_far,
    parse_answer,
    render_answer,
)
from services.agent._safety import without_false_prices

ID_A = "0b7c8a4e-5f41-4f0c-9d55-3b1b1e0a0001"
ID_B = "0b7c8a4e-5f41-4f0c-9d55-3b1b1e0a0002"


def test_the_documented_format_is_read_into_intro_picks_and_closing() -> None:
    text = (
        "[INTRO]\nК стейку — плотные красные.\n"
        f"[WINE:{ID_A}]\nМальбек с мягкими танинами.\n"
        f"[WINE:{ID_B}]\nКаберне с нотой смородины.\n"
        "[CLOSING]\nХорошего ужина!"
    )
    parsed = parse_answer(text)
    assert parsed.formatted
    assert parsed.intro == "К стейку — плотные красные."
    assert [(p.ref, p.why) for p in parsed.picks] == [
        (ID_A, "Мальбек с мягкими танинами."),
        (ID_B, "Каберне с нотой смородины."),
    ]
    assert parsed.closing == "Хорошего ужина!"


@pytest.mark.parametrize(
    "marker",
    [f"[WINE:{ID_A}]", f"[wine: {ID_A}]", f"[ WINE = {ID_A} ]", f"[Wine#{ID_A}]", f"[WINE {ID_A}]"],
)
def test_marker_spelling_slips_are_tolerated(marker: str) -> None:
    parsed = parse_answer(f"[intro]\nВот.\n{marker}\nПочему.\n[Closing]\nВсё.")
    assert [(p.ref, p.why) for p in parsed.picks] == [(ID_A, "Почему.")]
    assert (parsed.intro, parsed.closing) == ("Вот.", "Всё.")


def test_text_before_the_first_marker_is_the_intro_when_none_is_marked() -> None:
    parsed = parse_answer(f"Отличный выбор для вечера:\n[WINE:{ID_A}]\nСвежее и легкое.")
    assert parsed.intro == "Отличный выбор для вечера:"
    assert [p.ref for p in parsed.picks] == [ID_A]
    assert parsed.closing == ""


def test_a_name_in_the_marker_is_kept_for_lookup() -> None:
    parsed = parse_answer("[INTRO]\nВот.\n[WINE:Catena Malbec]\nАргентинский мальбек.")
    assert [(p.ref, p.why) for p in parsed.picks] == [("Catena Malbec", "Аргентинский мальбек.")]


@pytest.mark.parametrize("text", ["Привет! Чем могу помочь?", "  Танины — это ...  "])
def test_plain_text_is_not_formatted(text: str) -> None:
    parsed = parse_answer(text)
    assert not parsed.formatted
    assert parsed.picks == []
    assert parsed.intro == text.strip()


@pytest.mark.parametrize("text", [None, "", "   \n "])
def test_an_empty_answer_is_empty(text: str | None) -> None:
    parsed = parse_answer(text)
    assert (parsed.intro, parsed.picks, parsed.closing, parsed.formatted) == ("", [], "", False)


def test_long_sections_are_clipped_at_a_boundary() -> None:
    sentence = "Очень длинное объяснение про вино. "
    text = (
        f"[INTRO]\n{sentence * 100}\n[WINE:{ID_A}]\n{sentence * 100}\n[CLOSING]\n{sentence * 100}"
    )
    parsed = parse_answer(text)
    for section, limit in ((parsed.intro, MAX_INTRO), (parsed.picks[0].why, MAX_WHY)):
        assert len(section) <= limit + 1
        assert section.endswith("…")
        assert section[:-1].endswith(".")  # cut after a sentence, not inside a word
    assert len(parsed.closing) <= MAX_CLOSING + 1
    plain = parse_answer("слово " * 2000)
    assert len(plain.intro) <= MAX_PLAIN + 1 and plain.intro.endswith("слово…")


def test_clip_leaves_short_text_alone_and_cuts_long_words_hard() -> None:
    assert clip("  коротко  ", 20) == "коротко"
    assert clip("x" * 50, 10) == "x" * 10 + "…"


def test_the_intro_so_far_grows_char_by_char_and_never_shows_a_marker() -> None:
    """What a stream may show while the answer is written: each prefix of the text gives an
    intro that extends the previous one, with no marker or the start of one in it."""
    text = (
        "Сейчас подумаю.\n[ intro ]\nК стейку [по-моему] — плотные красные.\n"
        f"[WINE:{ID_A}]\nМальбек.\n[CLOSING]\nПриятного!"
    )
    shown = ""
    for end in range(len(text) + 1):
        so_far = intro_so_far(text[:end])
        if so_far is None:
            assert "intro ]" not in text[:end]
            continue
        assert so_far.text.startswith(shown)
        shown = so_far.text
        assert "[WI" not in shown and "[ intro" not in shown and "CLOSING" not in shown
    final = intro_so_far(text)
    assert final is not None and final.complete
    assert final.text.strip() == "К стейку [по-моему] — плотные красные."
    assert intro_so_far("[INTRO]\nК стейку [WINE:0b7c") == ("К стейку ", False)


def test_rendered_answers_read_back_unchanged() -> None:
    picks = [(ID_A, "Первое."), (ID_B, "Второе.")]
    parsed = parse_answer(render_answer("Вступление.", picks, "Завершение."))
    assert parsed.formatted
    assert parsed.intro == "Вступление."
    assert [(p.ref, p.why) for p in parsed.picks] == picks
    assert parsed.closing == "Завершение."


def test_the_instructions_show_the_markers_the_parser_reads() -> None:
    ids = iter([ID_A, ID_B])
    # The example the instructions give, after the line that introduces it, with ids in place
    # of the placeholders.
    example = "\n".join(
        re.sub(r"<[^>]+>", lambda _: next(ids), line) if line.startswith("[WINE") else line
        for line in FORMAT_INSTRUCTIONS.splitlines()[1:]
        if line != "..."
    )
    parsed = parse_answer(example)
    assert parsed.formatted
    assert [p.ref for p in parsed.picks] == [ID_A, ID_B]
    assert parsed.intro and parsed.closing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Дом E. Guigal — классика Роны. Второе предложение.", "Дом E. Guigal — классика Роны."),
        ("Вино из Бордо! Хорошее.", "Вино из Бордо!"),
        ("Без точки в конце", "Без точки в конце"),
        ("Одно предложение.", "Одно предложение."),
    ],
)
def test_first_sentence_keeps_initials(text: str, expected: str) -> None:
    assert first_sentence(text) == expected


def test_a_search_limit_may_be_named_as_a_limit_but_not_as_a_price() -> None:
    limits = {Decimal(500)}
    text = "Дешевле 500 ₽ красного нет. Все вина по 500 ₽! Я искал: красное, до 500 ₽."
    assert without_false_prices(text, set(), limits) == (
        "Дешевле 500 ₽ красного нет. Я искал: красное, до 500 ₽."
    )
    assert without_false_prices("Все вина по 1 ₽.", set(), {Decimal(1)}) == ""
