"""An aside between two requests — a receipt («принято к сведению»), thanks for being rescued
(«вы нас выручили, просто спасли»), a question about the bot's own taste («а сам-то ты вино
любишь?») — is small talk; the same words beside a wish are still the wish (issue 40)."""

from __future__ import annotations

import pytest

from core.language.kinds import MessageKind
from core.language.reading import read


@pytest.mark.parametrize(
    "text",
    [
        "Принял, спасибо.",
        "ваш совет принят к сведению",
        "ок, взял на заметку",
        "записала, благодарю!",
        "ух, ты меня прям спас",
        "вы нас буквально спасли",
        "а ты-то сам вино пьёшь?",
        "вы сами когда-нибудь пробовали вино?",
        "тебе самому нравится вино?",
    ],
)
def test_an_aside_to_the_bot_is_small_talk(text: str) -> None:
    assert read(text).kind is MessageKind.smalltalk


@pytest.mark.parametrize(
    ("text", "dish"),
    [("принято, а теперь что-нибудь к утке", "утка"), ("вы пьёте вино с рыбой?", "рыба")],
)
def test_an_aside_beside_a_wish_keeps_the_wish(text: str, dish: str) -> None:
    reading = read(text)
    assert reading.kind is not MessageKind.smalltalk
    assert reading.query.filters.food_pairing == dish


def test_a_custom_is_not_a_receipt() -> None:
    assert read("вино принято подавать охлаждённым?").kind is MessageKind.wine_question


@pytest.mark.parametrize(
    "text",
    [
        "благодарю, смотрится здорово!",
        "хах, забавно",
        "ясно, схожу посоветуюсь",
        "ок, пойду подумаю ещё",
        "звучит именно то, что надо",
    ],
)
def test_a_reaction_or_a_pause_is_small_talk(text: str) -> None:
    assert read(text).kind is MessageKind.smalltalk


def test_a_look_asked_for_is_a_wish() -> None:
    assert read("хочу что-то, что смотрится празднично").kind is not MessageKind.smalltalk


@pytest.mark.parametrize(
    "text",
    [
        "а сам что больше любишь, красное или белое?",
        "тебе какое больше нравится: игристое или розовое?",
    ],
)
def test_the_bots_own_taste_between_two_styles_is_small_talk(text: str) -> None:
    assert read(text).kind is MessageKind.smalltalk


def test_a_style_chosen_with_a_request_beside_the_bot_is_a_request() -> None:
    assert read("ты кто? посоветуй красное или белое к утке").kind is MessageKind.request
