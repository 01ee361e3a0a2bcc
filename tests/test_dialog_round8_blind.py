"""The state a dialog keeps, eighth round of my own phrasings (issue 40; none taken from the
language sets): a meal named alone, however many words it takes, is the meal of the wine in
force — its colour, sweetness and budget stay; «ещё» never gives up a condition the message says
again; a neuter colour before a food it cannot agree with («белое рыбка») is the wine's."""

from __future__ import annotations

import pytest

from core.domain import Sweetness, WineType
from core.language.followups import read_followup
from core.language.kinds import MessageKind
from core.language.reading import read
from core.language.request import parse_query
from services.app.runtime import Runtime
from tests.agent_fixtures import rows_shown
from tests.test_conversation import offline_dialog as _dialog


async def test_a_meal_named_in_many_words_keeps_colour_sweetness_and_budget(
    seeded: Runtime,
) -> None:
    _, then = await _dialog(
        seeded, 801, "красное сухое, не дороже 1500", "к запечённой в духовке курице с травами"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    for wine in shown:
        assert wine.wine_type is WineType.red and wine.sweetness is Sweetness.dry
        assert wine.price_rub <= 1500
        assert any("куриц" in dish for dish in wine.food_pairings)


async def test_more_for_a_dish_said_again_never_gives_the_dish_up(seeded: Runtime) -> None:
    """Every sweet sparkling wine for a cake under 2000 is shown at once: «а ещё к торту?»
    shows the fitting ones again rather than a brut that has nothing to do with a cake."""
    _, then = await _dialog(
        seeded, 802, "игристое к торту до 2000", "ну а ещё варианты к торту найдутся?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    for wine in shown:
        assert wine.wine_type is WineType.sparkling and wine.price_rub <= 2000
        assert wine.sweetness is not Sweetness.dry
        assert any(word in dish for dish in wine.food_pairings for word in ("торт", "десерт"))


@pytest.mark.parametrize(
    ("text", "colour"),
    [("беленькое рыбка на ужин", WineType.white), ("красное рыбу запекаю", WineType.red)],
)
def test_a_neuter_colour_before_a_feminine_food_is_the_wines(text: str, colour: WineType) -> None:
    filters = parse_query(text).filters
    assert filters.wine_type is colour
    assert filters.food_pairing == "рыба"


@pytest.mark.parametrize(("text", "dish"), [("красная рыба", "лосось"), ("красное мясо", "мясо")])
def test_a_colour_that_agrees_with_its_food_stays_the_foods(text: str, dish: str) -> None:
    filters = parse_query(text).filters
    assert filters.wine_type is None and filters.food_pairing == dish


@pytest.mark.parametrize(
    ("text", "drier"),
    [
        ("too sweet for my taste, что-нибудь посуше", True),
        ("чересчур сладкое было, хочется посуше", True),
        ("слишком сухое, кислит, давай послаще", False),
    ],
)
def test_too_sweet_or_too_dry_is_the_measure_of_a_step_not_a_level_asked(
    text: str, drier: bool
) -> None:
    """«too sweet» says what the wines shown were like: the step goes from them, and no sweet
    (or dry) wine is asked for."""
    reading = read(text)
    assert reading.query.filters.sweetness is None
    assert reading.followup.drier is drier and reading.followup.sweeter is not drier


async def test_the_person_a_wine_is_for_is_no_wine_name(seeded: Runtime) -> None:
    """«для папы» names a father, not Papa Figos: the step keeps the red for pizza."""
    first, then = await _dialog(
        seeded,
        804,
        "красное к пицце до 1000",
        "хорошо, а подороже найдётся? это для папы, он любит пиццу",
    )
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.red for w in shown)
    assert all(any("пицц" in dish for dish in w.food_pairings) for w in shown)
    assert min(w.price_rub for w in shown) > max(w.price_rub for w in before)


@pytest.mark.parametrize(
    "text", ["а попрестижнее ничего нет?", "хочется чего-то пафоснее", "давай поэлитнее"]
)
def test_a_comparative_of_standing_asks_for_dearer_wine(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


@pytest.mark.parametrize("text", ["а подемократичнее есть?", "что-нибудь поскромнее по деньгам"])
def test_a_comparative_of_thrift_asks_for_cheaper_wine(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


async def test_a_word_that_sounds_like_a_names_little_word_names_no_wine(seeded: Runtime) -> None:
    """«дело» sounds like the «della» of Amarone della Valpolicella: «такое дело…» goes on
    with the white asked for, not a red named by accident."""
    _, then = await _dialog(
        seeded, 805, "белое к рыбе до 2000", "в общем такое дело, а подешевле похожее есть?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white for w in shown)


def test_a_step_beside_a_story_of_other_things_is_a_request() -> None:
    """Troubles told around a step are the reason for it; a step of another thing is still
    off-topic."""
    told = read(
        "на работе завал, телефон разбил, кредит за машину, короче давай что-нибудь подешевле"
    )
    assert told.is_request and told.followup.cheaper
    assert read("подбери телефон подешевле").kind is MessageKind.offtopic


@pytest.mark.parametrize(
    "text",
    [
        "билеты на самолёт дорогие, так что вино бы подешевле",
        "сыну купили самокат недорогой, а вино давай ещё подешевле",
    ],
)
def test_a_word_beginning_like_samyj_is_no_end_of_the_price_range(text: str) -> None:
    """«самолёт дорогие» is no «самое дорогое»: the step cheaper stands."""
    step = read_followup(text)
    assert step.cheaper and not step.extreme


@pytest.mark.parametrize(
    ("user", "text", "dish"),
    [(806, "красное сухое к калбаскам", "колбас"), (807, "красное под хенкали", "хинкали")],
)
async def test_a_misspelt_dish_of_the_shops_own_pairings_is_that_dish(
    seeded: Runtime, user: int, text: str, dish: str
) -> None:
    (answer,) = await _dialog(seeded, user, text)
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(any(dish in pairing for pairing in w.food_pairings) for w in shown)


@pytest.mark.parametrize("text", ["игристое пузырится от радости, шучу)", "just kidding lol"])
def test_a_joke_about_wine_asks_for_none(text: str) -> None:
    assert read(text).kind is MessageKind.smalltalk


def test_a_request_beside_a_joke_is_still_a_request() -> None:
    reading = read("шутки шутками, а нужно игристое до 1500")
    assert reading.is_request and reading.query.filters.price_max == 1500


async def test_a_pairing_of_the_shops_own_said_whole_wins_over_one_of_its_words(
    seeded: Runtime,
) -> None:
    """«гриль» alone reads as a barbecue; «колбаски гриль», spelt as heard, is the shop's own
    pairing, and the wines shown go with sausages."""
    (answer,) = await _dialog(seeded, 808, "красное к калбаскам гриль на даче")
    shown = await rows_shown(seeded, answer)
    assert shown
    assert all(any("колбас" in pairing for pairing in w.food_pairings) for w in shown)


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("мне сухое кажется кислым", "sweeter"),
        ("приторное какое-то оказалось", "drier"),
        ("оно тяжёлое какое-то", "lighter"),
        ("на вкус водянистое", "fuller"),
    ],
)
def test_a_taste_the_wines_seemed_to_have_is_a_step_away_from_it(text: str, step: str) -> None:
    reading = read(text)
    steps = {
        name
        for name in ("sweeter", "drier", "lighter", "fuller")
        if getattr(reading.followup, name)
    }
    assert steps == {step}
    filters = reading.query.filters
    assert filters.sweetness is None and filters.body_min is None and filters.body_max is None


async def test_dry_that_seems_sour_goes_sweeter_within_the_request(seeded: Runtime) -> None:
    _, then = await _dialog(
        seeded, 809, "красное сухое к шашлыку до 1500", "мне сухое кажется кислым, есть другое?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    for wine in shown:
        assert wine.wine_type is WineType.red and wine.price_rub <= 1500
        assert wine.sweetness is not Sweetness.dry


@pytest.mark.parametrize(
    "text", ["полусладкое есть что-нибудь?", "а с сахарком есть что-то?", "к утке есть что-либо?"]
)
def test_whether_the_shop_has_something_is_a_request(text: str) -> None:
    """«… есть что-нибудь?» asks the shop's stock, not a question for the knowledge base."""
    assert read(text).is_request


async def test_a_dish_of_several_words_widens_to_its_kind_before_the_budget_goes(
    seeded: Runtime,
) -> None:
    """Only a wine over the budget pairs with «осьминог на гриле» itself: an octopus wine
    within it comes first, and the white and the budget said before stay."""
    _, then = await _dialog(
        seeded, 810, "белое сухое, не дороже 2500", "а если будет осьминог на гриле?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white and w.price_rub <= 2500 for w in shown)
    assert any(any("осьминог" in p for p in w.food_pairings) for w in shown)


async def test_a_dish_no_wine_is_paired_with_is_given_up_before_colour_and_budget(
    seeded: Runtime,
) -> None:
    """No wine of the catalog is paired with pilaf: the red and the budget said before stay,
    and the dish is what is given up."""
    _, then = await _dialog(seeded, 811, "красное до 1500", "а если под плов с бараниной?")
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.red and w.price_rub <= 1500 for w in shown)


@pytest.mark.parametrize(
    "text", ["ничего себе цены", "ценник заоблачный какой-то", "а для простых смертных что-то?"]
)
def test_an_outcry_at_the_prices_asks_for_cheaper_wine(text: str) -> None:
    step = read_followup(text)
    assert step.cheaper and not step.dearer


async def test_an_outcry_at_the_prices_keeps_the_white_asked(seeded: Runtime) -> None:
    first, then = await _dialog(
        seeded, 812, "белое к рыбе", "ничего себе цены. а для простых смертных?"
    )
    before = await rows_shown(seeded, first)
    shown = await rows_shown(seeded, then)
    assert before and shown
    assert all(w.wine_type is WineType.white for w in shown)
    assert max(w.price_rub for w in shown) < min(w.price_rub for w in before)


@pytest.mark.parametrize(
    "text",
    ["а есть что-нибудь не такое бюджетное?", "не настолько простенькое бы", "can we go higher?"],
)
def test_cheapness_said_away_asks_for_dearer_wine(text: str) -> None:
    step = read_followup(text)
    assert step.dearer and not step.cheaper


async def test_a_grape_stays_still_when_nothing_cheaper_fits(seeded: Runtime) -> None:
    """After the cheapest dry chardonnay, «а ещё подешевле шардоне?» shows the still ones
    again, not a brut made partly from chardonnay."""
    _, _, then = await _dialog(
        seeded, 813, "сухое шардоне", "а подешевле?", "а ещё подешевле шардоне?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white for w in shown)


async def test_in_that_style_keeps_the_style_of_the_wines_shown(seeded: Runtime) -> None:
    """«в этом стиле» is «похожее»: the white dry style shown, from the country now asked."""
    _, then = await _dialog(
        seeded, 814, "что есть из Новой Зеландии?", "а чилийское в этом стиле и дешевле?"
    )
    shown = await rows_shown(seeded, then)
    assert shown
    assert all(w.wine_type is WineType.white and w.country == "Чили" for w in shown)


@pytest.mark.parametrize(
    ("text", "sweetness"),
    [
        ("хочу какое-то сладкое вино", Sweetness.sweet),
        ("посоветуй какое-то полусладкое", Sweetness.semi_sweet),
        ("чтобы было сладким, девушке", Sweetness.sweet),
    ],
)
def test_a_taste_wished_for_is_no_complaint(text: str, sweetness: Sweetness) -> None:
    reading = read(text)
    assert reading.query.filters.sweetness is sweetness
    assert not reading.followup.drier


def test_a_hard_day_is_no_heavy_wine() -> None:
    reading = read("на работе было тяжело, хочу красное")
    assert not reading.followup.lighter and reading.query.filters.wine_type is WineType.red
