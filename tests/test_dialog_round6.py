"""Follow-ups of a sixth round of my own phrasings (issue 40; none taken from the language
sets): a question whether the bot is a person is about the bot, not «живое вино»; «ок, а…»,
«не, …», «ладно, давай…» before a change keep the request; a misspelt «подишевле» is still
cheaper; «бюджет можно поднять» is dearer; «с меньшей стоимостью» names no wine by ear; one
trait said in a few more words («что-то лёгкое, не слишком тяжёлое») keeps the colour."""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from core.language.followups import read_followup
from core.language.lemmas import analyse
from core.language.reading import read
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_dialog as _dialog


@pytest.mark.parametrize(
    "text",
    [
        "а ты бот или живой чел?",
        "ты нейросеть что ли?",
        "с кем я сейчас говорю?",
        "я с роботом переписываюсь?",
        "are you an AI?",
    ],
)
def test_asking_whether_the_bot_is_a_person_is_small_talk_about_the_bot(text: str) -> None:
    reading = read(text)
    assert reading.kind.value == "smalltalk"
    assert reading.message.social == "about"


def test_natural_wine_is_still_a_wine_question() -> None:
    assert read("а живое вино у вас бывает?").kind.value != "smalltalk"


@pytest.mark.parametrize(
    ("word", "lemma"), [("меньшеи", "малый"), ("сухои", "сухой"), ("китаиская", "китайский")]
)
def test_a_word_folded_without_its_short_i_is_still_a_dictionary_word(
    word: str, lemma: str
) -> None:
    assert analyse(word) == (lemma, True)


@pytest.mark.parametrize("text", ["а подишевле", "а дешевлее есть?", "падешевле можно?"])
def test_a_misspelt_cheaper_is_cheaper(text: str) -> None:
    assert read(text).followup.cheaper


@pytest.mark.parametrize(
    "text", ["хм, а есть что-то покруче? бюджет можно поднять", "давай увеличим бюджет"]
)
def test_a_budget_raised_is_dearer(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize("text", ["бюджет бы поменьше", "урежем бюджет"])
def test_a_budget_cut_is_cheaper(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


@pytest.mark.parametrize(
    "text", ["ок а сухое тогда до 1000", "ладно, давай сухое до косаря", "ну ок, а сухое есть"]
)
def test_a_change_after_a_word_of_assent_refines(text: str) -> None:
    assert read_followup(text).refines


async def test_a_bot_question_between_keeps_the_colour_for_the_next_change(
    seeded: Runtime,
) -> None:
    _, between, then = await _dialog(
        seeded,
        481,
        "красное полусладкое недорогое",
        "а ты бот или живой человек?",
        "ок а сухое тогда до 1500",
    )
    assert not between.wines
    assert "бот" in (between.intro or "").lower()
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red and w.sweetness is Sweetness.dry for w in shown)
    assert all(w.price_rub <= 1500 for w in shown)


async def test_a_formal_cheaper_keeps_the_request(seeded: Runtime) -> None:
    first, then = await _dialog(
        seeded,
        482,
        "Требуется красное сухое вино из Италии.",
        "Прошу варианты с меньшей стоимостью.",
    )
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.red and w.country == "Италия" for w in shown)
    assert min(w.price_rub for w in shown) <= min(w.price_rub for w in before)


async def test_a_sour_complaint_then_semi_dry_keeps_the_colour(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 483, "белое сухое посоветуй", "не, сухое кислит, полусухое есть?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white for w in shown)


async def test_a_lighter_wish_in_a_few_words_keeps_the_colour(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 484, "мне нужно красное сухое", "что-то лёгкое, не слишком тяжёлое"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)


@pytest.mark.parametrize("text", ["а что подешевле?", "какое посуше есть?", "which is cheaper?"])
def test_a_step_asked_as_which_wine_is_a_request(text: str) -> None:
    assert read(text).is_request


@pytest.mark.parametrize("text", ["Что слаще: брют или экстра брют?", "почему шампанское дороже?"])
def test_a_comparison_or_a_why_stays_a_question(text: str) -> None:
    assert not read(text).is_request


async def test_which_is_cheaper_for_the_same_dish_after_thanks_gets_wines(
    seeded: Runtime,
) -> None:
    _, _, then = await _dialog(
        seeded, 485, "белое к рыбе", "wow, thanks!", "а что подешевле к ней же?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white for w in shown)


async def test_too_sour_yet_not_cloying_is_between_dry_and_sweet(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 486, "игристое брют", "слишком кисло, а есть не брют, но и не приторное?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.sparkling for w in shown)
    assert all(w.sweetness in (Sweetness.semi_dry, Sweetness.semi_sweet) for w in shown)


@pytest.mark.parametrize("text", ["норм, а если не жалеть денег?", "денег не жалко, покажи ещё"])
def test_money_not_spared_is_dearer(text: str) -> None:
    assert read_followup(text).dearer


def test_an_indefinite_which_is_no_question() -> None:
    reading = read("дорогие какие-то, а бюджетнее?")
    assert reading.is_request
    assert reading.followup.cheaper


async def test_less_sweet_when_nothing_drier_fits_the_dish_gives_the_dish_up(
    seeded: Runtime,
) -> None:
    first, then = await _dialog(seeded, 487, "сладкое белое к десерту", "а менее сладкое?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    order = ["dry", "semi_dry", "semi_sweet", "sweet"]
    sweetest_before = max(order.index(w.sweetness.value) for w in before)
    assert all(w.wine_type is WineType.white for w in shown)
    assert all(order.index(w.sweetness.value) < sweetest_before for w in shown)
    assert "ослабил" in (then.intro or "")


@pytest.mark.parametrize(
    "text",
    [
        "не самое дешёвое хочу",
        "с верхней полки что-нибудь",
        "а высокого класса?",
        "это простовато, хочу уровень повыше",
        "ну это дешёвка какая-то",
        "эти дешевые, не солидно",
        "а вот прям хорошее, не экономя",
        "хочется чего-то особенного",
    ],
)
def test_dearer_said_without_a_price_word(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper and not step.extreme


@pytest.mark.parametrize("text", ["вино к сыру, особенно к бри", "мне нужно что-то простое"])
def test_words_near_the_dearer_ones_are_no_step(text: str) -> None:
    assert not read_followup(text).dearer


@pytest.mark.parametrize(
    "text", ["не, кислое", "оно же кислючее", "а можно без кислинки?", "как-то кисловато"]
)
def test_a_sour_complaint_steps_sweeter(text: str) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.sweeter and not reading.followup.drier


@pytest.mark.parametrize("text", ["сахара поменьше", "less sugar please", "приторно как-то"])
def test_less_sugar_steps_drier(text: str) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.drier and not reading.followup.sweeter


def test_a_sweetish_wine_wished_is_no_complaint() -> None:
    assert not read_followup("сладковатое что-нибудь").drier


@pytest.mark.parametrize(
    "text",
    [
        "погоди, жена спрашивает",
        "секунду",
        "щас спрошу у мужа",
        "благодарю, гляну",
        "это прям то что я искал",
        "отлично, завтра зайду в магазин",
        "thanks a lot, that helps",
    ],
)
def test_a_pause_or_a_thanks_in_passing_is_small_talk(text: str) -> None:
    assert read(text).kind.value == "smalltalk"


@pytest.mark.parametrize(
    "text", ["погоди, жена спрашивает, есть ли розовое", "секундочку, а белое есть?"]
)
def test_a_pause_before_a_request_leaves_the_request(text: str) -> None:
    assert read(text).is_request


@pytest.mark.parametrize(
    "text", ["а доставка есть?", "а вы работаете в воскресенье?", "где ваш магазин находится?"]
)
def test_the_shops_errands_get_no_wine_cards(text: str) -> None:
    assert read(text).kind.value == "offtopic"


async def test_a_pause_between_turns_shows_no_cards_and_keeps_the_request(
    seeded: Runtime,
) -> None:
    _, pause, then = await _dialog(
        seeded, 488, "красное сухое к стейку", "погоди, жена спрашивает", "а подешевле есть?"
    )
    assert not pause.wines
    shown = await rows_shown(seeded, then)
    assert shown and all(w.wine_type is WineType.red for w in shown)


@pytest.mark.parametrize(
    "text",
    [
        "не, столько не дам",
        "цена высоковата",
        "а есть что-то за копейки?",
        "на мели я",
        "а что подоступнее?",
        "не хочу переплачивать",
    ],
)
def test_cheaper_said_as_a_complaint_about_money(text: str) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.cheaper and not reading.followup.dearer


def test_a_higher_price_category_is_still_dearer() -> None:
    assert read_followup("вино более высокой ценовой категории").dearer


async def test_a_dish_of_the_shops_own_pairings_is_found_in_any_case(seeded: Runtime) -> None:
    [answer] = await _dialog(seeded, 489, "а к блинам с икрой что?")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(any("икра" in f for f in w.food_pairings) for w in shown)


def test_a_salmon_steak_is_salmon() -> None:
    assert read("а к стейку из лосося?").query.filters.food_pairing == "лосось"


async def test_an_adjective_alone_names_no_dish_of_the_catalog(seeded: Runtime) -> None:
    _, then = await _dialog(seeded, 490, "вино к рыбе", "а если к жареной?")
    shown = await rows_shown(seeded, then)
    assert shown
    assert not any("жареный поросенок" in w.food_pairings for w in shown)


async def test_a_colour_the_maker_does_not_make_says_the_name_was_given_up(
    seeded: Runtime,
) -> None:
    first, then = await _dialog(seeded, 491, "Фанагория есть?", "а белое у них?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.white for w in shown)
    assert "название" in (then.intro or "")


async def test_cheaper_from_the_same_maker_stays_with_the_maker(seeded: Runtime) -> None:
    first, then = await _dialog(seeded, 492, "хочу что-нибудь от Mondavi", "а подешевле от них же?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert {w.producer for w in shown} <= {w.producer for w in before}


@pytest.mark.parametrize(
    "text",
    ["сколько градусов в нём?", "чем закусывать его?", "к нему что приготовить?", "оно сладкое?"],
)
async def test_a_question_about_the_wine_just_shown_gets_those_wines(
    seeded: Runtime, text: str
) -> None:
    first, then = await _dialog(seeded, 493, "красное к стейку", text)
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert {w.id for w in shown} <= {w.id for w in before}


def test_a_serving_question_about_it_keeps_its_reviewed_answer() -> None:
    reading = read("его надо охлаждать?")
    assert reading.kind.value == "wine_question" and reading.message.entry is not None


@pytest.mark.parametrize("text", ["а понасыщеннее?", "а поплотнее есть?", "хочу потяжелее"])
def test_fuller_said_with_po(text: str) -> None:
    step = read_followup(text)
    assert step.fuller and not step.lighter


@pytest.mark.parametrize("text", ["слишком тяжёлое для лета", "а менее насыщенное?"])
def test_lighter_said_as_too_heavy(text: str) -> None:
    step = read_followup(text)
    assert step.lighter and not step.fuller


async def test_another_grape_keeps_the_colour_shown(seeded: Runtime) -> None:
    first, then = await _dialog(seeded, 494, "пино нуар", "а другой сорт?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert {w.wine_type for w in before} == {WineType.red}
    assert all(w.wine_type is WineType.red and "пино нуар" not in w.grape_varieties for w in shown)


async def test_cheaper_after_the_dish_was_given_up_never_brings_dearer_wines(
    seeded: Runtime,
) -> None:
    _, second, then = await _dialog(
        seeded, 495, "красное к шашлыку", "а итальянское?", "а подешевле?"
    )
    before = await rows_shown(seeded, second)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.country == "Италия" and w.wine_type is WineType.red for w in shown)
    assert max(w.price_rub for w in shown) <= max(w.price_rub for w in before)
    assert "нет" in (then.intro or "")


async def test_a_price_range_the_person_set_is_not_called_a_step(seeded: Runtime) -> None:
    _, then = await _dialog(seeded, 496, "I need a gift, around 5000", "she likes red")
    assert "дороже показанных" not in (then.intro or "")


async def test_more_after_nothing_cheaper_keeps_to_the_persons_own_budget(
    seeded: Runtime,
) -> None:
    _, _, _, then = await _dialog(
        seeded, 497, "белое к рыбе до 1500", "а подешевле?", "а ещё дешевле?", "а ещё?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white and w.price_rub <= 1500 for w in shown)
