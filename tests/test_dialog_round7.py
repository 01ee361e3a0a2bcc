"""Follow-ups of a seventh round of my own phrasings (issue 40; none taken from the language
sets): prices that «кусаются» are a wish for cheaper wine; «пожирнее по телу» and «слишком
лёгкое» ask for a fuller one; «вау, красиво звучит» is a reaction, not a request; «не такое
сладкое, как компот» is a step, its «как» a comparison; a word typed with a Latin letter in it
(«уткe») is still the Russian word; lasagne pairs as a meat-sauce pasta; «что можешь
посоветовать?» asks for wine; «сколько ты уже работаешь?» is about the bot."""

from __future__ import annotations

import pytest

from core.domain import WineType
from core.language.folding import fold
from core.language.followups import read_followup
from core.language.reading import read
from core.language.wine_names import asked_for_by_name
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_dialog as _dialog


@pytest.mark.parametrize("text", ["ох, цены кусаются", "цены конские", "кусачие цены"])
def test_prices_that_bite_ask_for_cheaper_wine(text: str) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.cheaper and not reading.followup.dearer


async def test_biting_prices_after_a_pick_keep_the_colour_and_go_cheaper(
    seeded: Runtime,
) -> None:
    first, then = await _dialog(seeded, 701, "мне к рыбе белое", "ох, цены кусаются")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.white for w in shown)
    assert max(w.price_rub for w in shown) <= max(w.price_rub for w in before)


@pytest.mark.parametrize(
    "text",
    [
        "хочется чего-нибудь пожирнее по телу",
        "оно слишком лёгкое, хочется поплотнее",
        "жидковато как-то",
        "а можно не такое лёгкое?",
    ],
)
def test_a_wish_for_more_body_is_fuller(text: str) -> None:
    step = read_followup(text)
    assert step.fuller and not step.lighter


async def test_a_fuller_wish_in_other_words_keeps_red(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 702, "красное к говядине", "хочется чего-нибудь пожирнее по телу"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)
    assert "плотнее" in (then.intro or "")


@pytest.mark.parametrize(
    "text", ["вау, красиво звучит", "выглядит аппетитно", "заманчиво", "солидно"]
)
def test_a_reaction_to_the_wines_is_small_talk(text: str) -> None:
    assert read(text).kind.value == "smalltalk"


async def test_a_reaction_between_two_requests_shows_no_wines_and_keeps_the_request(
    seeded: Runtime,
) -> None:
    first, between, then = await _dialog(
        seeded, 703, "красное сухое из Италии", "вау, красиво звучит", "а есть подешевле?"
    )
    assert first.wines and not between.wines
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red and w.country == "Италия" for w in shown)


@pytest.mark.parametrize(
    ("text", "drier"),
    [
        ("а не такое сладкое, как компот?", True),
        ("а можно не такое кислое, а то как уксус?", False),
        ("кислое прям как лимон, есть послаще?", False),
        ("не так сладко бы", True),
    ],
)
def test_a_step_with_a_comparison_is_a_request(text: str, drier: bool) -> None:
    reading = read(text)
    assert reading.is_request
    assert reading.followup.drier is drier
    assert reading.followup.sweeter is not drier


def test_a_why_with_a_comparison_stays_a_question() -> None:
    assert not read("почему вино такое кислое, как уксус?").is_request


def test_a_word_typed_in_two_alphabets_is_read_in_the_one_it_is_mostly_in() -> None:
    assert fold("красное к уткe") == "красное к утке"
    assert fold("крaсное") == "красное"
    assert fold("sauvignon blanc") == "sauvignon blanc"
    assert len(fold("Мoёt есть?")) == len("Мoёt есть?")


async def test_a_dish_typed_with_a_latin_letter_is_still_the_dish(seeded: Runtime) -> None:
    (answer,) = await _dialog(seeded, 704, "красное к уткe")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(any("утк" in p for p in w.food_pairings) for w in shown)


async def test_lasagne_gets_red_wines_for_a_meat_sauce(seeded: Runtime) -> None:
    (answer,) = await _dialog(seeded, 705, "вино к лазанье")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)


@pytest.mark.parametrize(
    "text",
    ["что можешь посоветовать?", "что можете порекомендовать?", "можешь что-нибудь посоветовать?"],
)
def test_asking_what_the_bot_recommends_is_a_request(text: str) -> None:
    assert read(text).is_request


@pytest.mark.parametrize("text", ["надо посоветоваться с мужем", "пойду посоветуюсь с женой"])
def test_going_to_ask_someone_is_small_talk(text: str) -> None:
    assert read(text).kind.value == "smalltalk"


@pytest.mark.parametrize(
    "text",
    [
        "а сколько ты уже работаешь?",
        "сколько тебе лет?",
        "кто тебя создал?",
        "ты вообще где берёшь информацию?",
        "на чём тебя обучали?",
        "откуда ты это знаешь?",
    ],
)
def test_the_bots_age_makers_and_sources_are_small_talk_about_the_bot(text: str) -> None:
    reading = read(text)
    assert reading.kind.value == "smalltalk"
    assert reading.message.social == "about"


def test_how_long_a_wine_keeps_stays_a_wine_question() -> None:
    assert read("сколько лет хранится вино?").kind.value == "wine_question"


@pytest.mark.parametrize("text", ["а посахарнее?", "а сладость побольше?", "сладости бы больше"])
def test_more_sugar_in_other_words_is_sweeter(text: str) -> None:
    step = read_followup(text)
    assert step.sweeter and not step.drier


async def test_more_sweetness_after_a_semi_dry_red_gives_sweeter_reds(seeded: Runtime) -> None:
    _, then = await _dialog(seeded, 706, "красное полусухое", "а сладость побольше?")
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)
    assert all(w.sweetness.value in ("semi_sweet", "sweet") for w in shown)


@pytest.mark.parametrize("text", ["можно и до полутора", "пусть будет белое"])
def test_a_change_opened_by_a_word_of_leave_refines(text: str) -> None:
    assert read_followup(text).refines


def test_aspic_is_meat() -> None:
    assert read("вино к холодцу").query.filters.food_pairing == "мясо"


@pytest.mark.parametrize("text", ["рыба будет красная, лосось", "к рыбе красную бутылку"])
def test_a_feminine_colour_after_a_fish_is_the_fish(text: str) -> None:
    assert read(text).query.filters.wine_type is None


def test_a_colour_for_the_fish_is_still_the_wine() -> None:
    assert read("к рыбе красное").query.filters.wine_type is WineType.red


async def test_the_fish_told_after_a_white_pick_keeps_the_white(seeded: Runtime) -> None:
    answers = await _dialog(seeded, 707, "белое к рыбе", "рыба будет красная, лосось")
    assert "белое" in (answers[1].intro or "")  # what was searched still says white


@pytest.mark.parametrize("text", ["поострее будет, с чили", "соус чили к мясу"])
def test_chili_with_food_is_the_pepper_not_the_country(text: str) -> None:
    assert read(text).query.filters.country is None


@pytest.mark.parametrize("text", ["вино из Чили", "чилийское красное"])
def test_chile_as_a_place_is_the_country(text: str) -> None:
    assert read(text).query.filters.country == "Чили"


async def test_a_cuisine_named_whole_gets_the_wines_paired_with_it(seeded: Runtime) -> None:
    (answer,) = await _dialog(seeded, 708, "к азиатской кухне что-то")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all("азиатская кухня" in w.food_pairings for w in shown)


async def test_spicy_food_in_an_oblique_case_gets_wines_for_spicy_dishes(seeded: Runtime) -> None:
    (answer,) = await _dialog(seeded, 709, "вино к острой еде")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all({"острые блюда", "азиатская кухня"} & set(w.food_pairings) for w in shown)


@pytest.mark.parametrize("text", ["хочу что-то пошикарнее", "а побогаче есть?"])
def test_something_grander_is_dearer(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize(
    "text", ["это всё какое-то бюджетное, хочу нормальное", "они дешёвые какие-то"]
)
def test_the_wines_shown_called_cheap_is_a_wish_for_dearer(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


def test_a_wish_for_a_budget_wine_is_still_cheap() -> None:
    assert not read_followup("хочу какое-то бюджетное вино").dearer


async def test_a_ceiling_given_up_mid_dialog_keeps_the_rest_and_goes_above_it(
    seeded: Runtime,
) -> None:
    _, then = await _dialog(
        seeded, 710, "красное сухое до 2000", "а если не ограничиваться двумя тысячами?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)
    assert any(w.price_rub > 2000 for w in shown)


async def test_a_set_phrase_names_no_wine(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 711, "красное сухое до 1200", "бюджет не ограничен на самом деле"
    )
    shown = await rows_shown(seeded, then)
    assert len(shown) == 3
    assert all(w.wine_type is WineType.red for w in shown)


def test_a_typo_changes_a_letter_or_two_not_the_length_of_a_word() -> None:
    assert read("а Барбареско?").query.filters.food_pairing is None
    assert read("к шошлыку").query.filters.food_pairing == "шашлык"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("посоветуй что-нибудь от Торрес", "Торрес"),
        ("вино Мукузани", "Мукузани"),
        ("а Рипассо есть?", "Рипассо"),
    ],
)
def test_a_capitalised_cyrillic_name_is_asked_for_by_name(text: str, name: str) -> None:
    assert asked_for_by_name(text) == name


@pytest.mark.parametrize(
    "text", ["подарок для Маши, посоветуй вино", "Привет, Сомелье", "хочу Шардоне", "а Вдова есть?"]
)
def test_a_first_name_a_common_word_or_a_grape_is_no_wine_name(text: str) -> None:
    assert asked_for_by_name(text) is None


async def test_a_wine_named_in_cyrillic_that_the_shop_lacks_is_said_to_be_missing(
    seeded: Runtime,
) -> None:
    (answer,) = await _dialog(seeded, 712, "посоветуй что-нибудь от Торрес")
    assert (answer.intro or "").startswith("Такого вина в каталоге нет")


async def test_a_name_heard_must_be_about_as_long_as_the_name(seeded: Runtime) -> None:
    _, then = await _dialog(seeded, 713, "есть амароне?", "ого, дорого. а Рипассо есть?")
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red for w in shown)  # no Rías Baixas white by ear


@pytest.mark.parametrize("step", ["а подешевле?", "дорого"])
async def test_cheaper_than_a_wine_named_is_a_cheaper_wine_of_its_kind(
    seeded: Runtime, step: str
) -> None:
    first, then = await _dialog(seeded, 714, "есть амароне?", step)
    (named,) = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is named.wine_type for w in shown)
    assert all(w.price_rub < named.price_rub for w in shown)


async def test_dearer_than_a_single_grape_wine_named_may_be_another_grape(
    seeded: Runtime,
) -> None:
    first, then = await _dialog(seeded, 715, "Catena Malbec есть?", "а подороже?")
    (named,) = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red and w.price_rub > named.price_rub for w in shown)


@pytest.mark.parametrize("text", ["погоди, мне звонят", "секунду, курьер пришёл"])
def test_a_pause_for_a_call_or_a_courier_is_small_talk(text: str) -> None:
    assert read(text).kind.value == "smalltalk"


async def test_a_pause_between_two_requests_shows_nothing_and_keeps_the_request(
    seeded: Runtime,
) -> None:
    _, pause, then = await _dialog(
        seeded, 716, "игристое", "погоди, мне звонят", "всё, я тут. давай брют"
    )
    assert not pause.wines
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.sparkling and w.sweetness.value == "dry" for w in shown)


def test_an_allergy_to_sulfites_gets_the_health_answer_not_a_refusal() -> None:
    reading = read("блин, забыл, у жены аллергия на сульфиты")
    assert reading.kind.value == "wine_question"
    assert reading.message.health
    assert reading.message.entry is not None and reading.message.entry.health


@pytest.mark.parametrize(
    "text",
    [
        "хочется чего-то более дорогого",
        "а что-нибудь недешёвое?",
        "цену можно повыше",
        "ценник побольше можно",
        "поднять ценник",
    ],
)
def test_a_higher_price_said_in_other_words_is_dearer(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize("text", ["цена поменьше бы", "опустим ценник"])
def test_a_lower_price_said_in_other_words_is_cheaper(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


@pytest.mark.parametrize(
    "text", ["давай что-то подороже рублей на 500", "на 300 дешевле", "подешевле на тысячу"]
)
def test_by_how_much_a_step_moves_is_no_price_bound(text: str) -> None:
    filters = read(text).query.filters
    assert filters.price_max is None and filters.price_min is None


@pytest.mark.parametrize(("text", "bound"), [("вино на 2000", 2000), ("подороже, на 3000", 3000)])
def test_a_sum_after_na_without_a_step_is_the_budget(text: str, bound: int) -> None:
    assert read(text).query.filters.price_max == bound


async def test_dearer_by_a_sum_gives_dearer_wines_not_cheap_ones(seeded: Runtime) -> None:
    first, then = await _dialog(
        seeded, 717, "красное к стейку до 1500", "давай что-то подороже рублей на 500"
    )
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.price_rub > max(b.price_rub for b in before) for w in shown)


async def test_lighter_after_mixed_bodies_is_lighter_than_the_heaviest_and_keeps_the_dish(
    seeded: Runtime,
) -> None:
    first, then = await _dialog(seeded, 718, "вино к утке", "а полегче?")
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert len({b.body for b in before}) > 1
    assert all(w.body < max(b.body for b in before) for w in shown)
    assert all(any("утк" in p for p in w.food_pairings) for w in shown)


async def test_a_wine_asked_for_with_the_verb_last_gets_wines_after_a_greeting(
    seeded: Runtime,
) -> None:
    (answer,) = await _dialog(seeded, 719, "привет) вино к суши подскажешь?")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert any("суши" in w.food_pairings for w in shown)


def test_a_doctor_before_an_initial_is_a_wines_name_not_health() -> None:
    reading = read("доктор л рислинг есть?")
    assert reading.is_request and not reading.message.health


def test_a_doctor_who_forbade_wine_is_still_health() -> None:
    assert read("доктор сказал, что мне нельзя вино").message.health


@pytest.mark.parametrize("text", ["спасибо, возьму", "беру!", "пожалуй, возьму"])
def test_a_choice_made_with_nothing_after_it_is_small_talk(text: str) -> None:
    assert read(text).kind.value == "smalltalk"


def test_taking_a_kind_of_wine_is_a_request() -> None:
    assert read("возьму красное").is_request


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [("нужно красное тысячи за 2-3", 2000, 3000), ("тыщи за 4", 3200, 4800)],
)
def test_thousands_said_before_digits_are_thousands(text: str, low: int, high: int) -> None:
    filters = read(text).query.filters
    assert (filters.price_min, filters.price_max) == (low, high)


async def test_the_word_wine_in_any_case_names_no_wine(seeded: Runtime) -> None:
    _, _, then = await _dialog(
        seeded,
        720,
        "розовое сухое к салату",
        "а как делают розовое вино, смешивают красное с белым?",
        "ладно, вернёмся к вину: а подешевле есть?",
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.rose for w in shown)


async def test_a_wine_paired_with_the_dish_in_the_persons_own_word_comes_first(
    seeded: Runtime,
) -> None:
    (answer,) = await _dialog(seeded, 721, "Нужно сладкое к торту на юбилей мамы!")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert "торт" in shown[0].food_pairings


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("падароже", "dearer"),
        ("пасуше", "drier"),
        ("паслаще", "sweeter"),
        ("понасыщенее бы", "fuller"),
        ("сухова то, можно мягче?", "sweeter"),
    ],
)
def test_a_step_spelt_as_it_sounds_is_the_step(text: str, step: str) -> None:
    assert getattr(read(text).followup, step)


def test_a_misspelt_comparative_is_not_split_as_a_glued_preposition() -> None:
    assert read("понасыщенее бы").query.filters.body_min is None


@pytest.mark.parametrize(
    "text",
    [
        "слушай, а вот если чуть-чуть подороже взять, что-нибудь будет интереснее?",
        "понимаешь, хочется прям вау-эффекта, денег не пожалею",
    ],
)
def test_a_dearer_wish_in_a_long_sentence_is_a_request(text: str) -> None:
    reading = read(text)
    assert reading.is_request and reading.followup.dearer


async def test_which_for_a_dish_among_a_country_gets_its_wines(seeded: Runtime) -> None:
    *_, then = await _dialog(
        seeded,
        722,
        "посоветуйте что-нибудь немецкое",
        "а австрийское?",
        "а к шницелю из австрийских какое?",
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.country == "Австрия" and "шницель" in w.food_pairings for w in shown)
