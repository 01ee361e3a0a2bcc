"""Each example of «Words the bot has not seen» (issue 40), as a customer meets it: answered
through the turn service on the offline path (and the agent path where a model's prose is the
point), checked by what the person sees — the kind of answer, the entry it gives, the cards."""

from __future__ import annotations

import dataclasses
import itertools
from decimal import Decimal

import pytest

from core.language.knowledge import entry_by_id
from core.recommendation import Recommendation
from fakes.openai_server import call, reply, responder, tool_calls
from services.agent._run import UserContext
from services.app.container import build_services
from services.app.runtime import Runtime
from tests.agent_fixtures import (
    agent_settings,
    fake_openai,
    formatted,
    sommelier_service,
    system_text,
    wines_by_id,
    wines_in_tool_results,
)

_users = itertools.count(8_400_000_000_000)


async def _dialog(runtime: Runtime, *messages: str) -> list[Recommendation]:
    offline = runtime.settings.model_copy(update={"llm_api_key": None})
    services = build_services(dataclasses.replace(runtime, settings=offline))
    user = next(_users)
    try:
        return [await services.turns.answer(user, text) for text in messages]
    finally:
        await services.close()


async def test_a_greeting_with_a_request_is_the_request(seeded: Runtime) -> None:
    (rec,) = await _dialog(seeded, "привет! мне нужно вино к утке с вишнёвым соусом, до 2500")
    assert rec.kind == "request" and "привет" not in rec.intro.lower()
    wines = await wines_by_id(seeded, [w.id for w in rec.wines])
    assert wines and all(w.price_rub <= 2500 for w in wines.values())
    assert all(any("утк" in f for f in w.food_pairings) for w in wines.values())
    assert any("пино нуар" in w.grape_varieties for w in wines.values())


@pytest.mark.parametrize("first", ["итальянское красное", "красное к утке до 2500"])
async def test_cheaper_never_brings_dearer_wines(seeded: Runtime, first: str) -> None:
    before, after = await _dialog(seeded, first, "а подешевле?")
    dearest = max(w.price_rub for w in before.wines)
    cheapest = min(w.price_rub for w in before.wines)
    assert after.wines and all(w.price_rub <= dearest for w in after.wines)
    if not all(w.price_rub < cheapest for w in after.wines):
        assert "дешевле подходящих вин в каталоге нет" in after.intro.lower(), after.intro
    budget = Decimal(2500) if "2500" in first else None
    for wine in after.wines:  # «в пределах бюджета» only where it is
        if "в пределах бюджета" in wine.why:
            assert budget is not None and wine.price_rub <= budget, wine.why


async def test_a_follow_up_keeps_the_colour(seeded: Runtime) -> None:
    _, dry = await _dialog(seeded, "Добрый день! Хочу розовое на лето, недорого", "а сухое есть?")
    assert dry.wines
    assert all(w.wine_type.value == "rose" and w.sweetness.value == "dry" for w in dry.wines)


async def test_a_question_and_a_request_in_one_message(seeded: Runtime) -> None:
    (rec,) = await _dialog(seeded, "что такое танины и какое вино с мягкими танинами посоветуешь?")
    tannins = entry_by_id("tannins")
    assert tannins is not None and rec.entry == "tannins"
    assert rec.intro.startswith(tannins.answer)  # the fact first, then the wines
    assert rec.wines and all(w.wine_type.value == "red" for w in rec.wines)


@pytest.mark.parametrize(
    ("question", "entry"),
    [
        ("почему вино пахнет пробкой?", "cork_taint"),
        ("что такое орандж вино?", "orange"),
        ("как понять, что вино скисло?", "spoiled"),
        ("что такое купаж?", "blend"),
        ("какой бокал для пино нуар?", "glasses"),
        ("сколько калорий в бокале вина?", "health_calories"),
        ("сколько бокалов в день можно без вреда?", "health_daily"),
    ],
)
async def test_knowledge_questions_get_their_entry(
    seeded: Runtime, question: str, entry: str
) -> None:
    (rec,) = await _dialog(seeded, question)
    expected = entry_by_id(entry)
    assert expected is not None
    assert rec.kind == "wine_question" and rec.entry == entry and rec.wines == []
    assert rec.intro == expected.answer


async def test_a_question_the_base_cannot_answer_is_told_so(seeded: Runtime) -> None:
    (rec,) = await _dialog(seeded, "какое вино пили римские легионеры?")
    assert rec.kind == "wine_question" and rec.entry is None and rec.wines == []
    assert "нет проверенного ответа" in rec.intro


@pytest.mark.parametrize(
    "question",
    [
        "можно ли бокал вина при беременности?",
        "можно ли пить вино с антибиотиками?",
        "правда что красное вино полезно для сердца?",
        "со скольки лет можно покупать вино?",
    ],
)
async def test_health_questions_get_a_responsible_answer_and_no_cards(
    seeded: Runtime, question: str
) -> None:
    (rec,) = await _dialog(seeded, question)
    assert rec.kind == "wine_question" and rec.wines == []
    entry = entry_by_id(rec.entry or "")
    assert entry is not None and entry.health, rec.entry


@pytest.mark.parametrize("message", ["приветик", "ты классный", "хорошего дня", "👍"])
async def test_small_talk_gets_no_cards(seeded: Runtime, message: str) -> None:
    (rec,) = await _dialog(seeded, message)
    assert rec.kind == "smalltalk" and rec.wines == []


async def test_other_shopping_is_declined(seeded: Runtime) -> None:
    (rec,) = await _dialog(seeded, "какой телефон купить до 30 тысяч?")
    assert rec.kind == "offtopic" and rec.wines == []


async def test_a_false_producer_and_country_never_reach_a_card(seeded: Runtime) -> None:
    """A model writes «Его делает Vega Sicilia. Родом из Уругвая.» under a Russian Krasnostop:
    both sentences are dropped, the true one stays."""
    true = "Это красностоп с Дона."

    def answer(body: dict) -> object:  # type: ignore[type-arg]
        found = [w for w in wines_in_tool_results(body) if "Красностоп" in w["name"]]
        why = f"Его делает Vega Sicilia. Родом из Уругвая. {true}"
        return reply(formatted([(found[0]["id"], why)]))

    async with fake_openai() as server:
        server.script(
            tool_calls(call("search_wines", {"grape_variety": "красностоп", "limit": 3})),
            responder(answer),
        )
        async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
            rec = await service.generate_response(UserContext(), "красностоп есть?")
    assert rec.path == "agent" and len(rec.wines) == 1
    why = rec.wines[0].why
    assert "Vega Sicilia" not in why and "Уругва" not in why and true in why
    assert rec.dropped_claims.get("name") and rec.dropped_claims.get("country")


async def test_a_models_answer_to_a_wine_question_keeps_only_what_the_entry_says(
    seeded: Runtime,
) -> None:
    tannins = entry_by_id("tannins")
    assert tannins is not None
    said = "Танины дают терпкость. Их открыл Луи Пастер в 1864 году в Бургундии."
    async with fake_openai() as server:
        server.script(reply(said))
        async with sommelier_service(seeded, agent_settings(server.base_url)) as service:
            rec = await service.generate_response(UserContext(), "что такое танины?")
    system = system_text(server.requests[0])
    assert tannins.answer in system  # the model answers from the reviewed entry
    assert rec.path == "agent" and rec.entry == "tannins" and rec.wines == []
    assert "терпкость" in rec.intro and "Пастер" not in rec.intro and "1864" not in rec.intro


def test_the_entries_the_issue_found_wrong_are_right_now() -> None:
    def answer(entry_id: str) -> str:
        entry = entry_by_id(entry_id)
        assert entry is not None, entry_id
        return entry.answer.lower()

    champagne = answer("champagne_vs_sparkling")
    assert "игристое вино" in champagne and "российск" in champagne
    port = answer("port")
    assert "винтаж" in port or "vintage" in port
    assert "второе брожение" not in answer("asti") and "одн" in answer("asti")
    assert "несколько лет" in answer("bordeaux") or "первые годы" in answer("bordeaux")
    pradikat = answer("pradikat")
    assert "спелост" in pradikat and "не по сладости" in pradikat and "сух" in pradikat
    assert "аллерген" in answer("sulfites")
