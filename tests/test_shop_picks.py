"""The shop's own picks: boost and bury rules re-order wines that fit a request and never bring
in one that does not — on the offline path, the agent's tools (the strict fake model over real
HTTP), the catalog slice; dates respected; a boosted wine's card says «Выбор магазина» and no
other card does; the feed's tags and margin; the rules file."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import select

from bot.delivery_plan import delivery_plan, planned_answer
from bot.rendering import render_card, render_compact_card
from core.domain import Sweetness, WineType
from core.errors import PickRuleError
from core.recommendation import Recommendation
from core.shop_picks import PickRule, make_rule
from fakes.openai_server import (
    FakeOpenAIServer,
    JSONDict,
    call,
    error,
    reply,
    responder,
    tool_calls,
)
from repositories.models import Wine
from repositories.shop_picks import add_rules, list_rules
from services.agent import UserContext, shop_today
from services.agent._wine_handles import handle
from services.app.catalog.importer import import_catalog
from services.app.picks.rules_file import format_rules, parse_rules
from services.app.runtime import Runtime
from tests.agent_fixtures import (
    agent_settings,
    catalog_ids,
    formatted,
    last_tool_payloads,
    sommelier_service,
    why_for,
    wines_by_id,
    wines_in_tool_results,
)
from web.chat.events import card

STEAK = "красное сухое к стейку до 2000"
STEAK_TOOL = {"wine_type": "red", "sweetness": "dry", "food_pairing": "стейк", "price_max": 2000}


def steak_ok(wine: Wine) -> bool:
    return (
        wine.wine_type == WineType.red
        and wine.sweetness == Sweetness.dry
        and wine.price_rub <= 2000
        and any("стейк" in food for food in wine.food_pairings)
    )


async def ask(runtime: Runtime, text: str, base_url: str | None = None) -> Recommendation:
    settings = agent_settings(base_url) if base_url else agent_settings(None, llm_api_key=None)
    async with sommelier_service(runtime, settings) as service:
        return await service.generate_response(UserContext(), text)


async def catalog(runtime: Runtime) -> list[Wine]:
    async with runtime.sessions() as s:
        return list(await s.scalars(select(Wine).where(Wine.available.is_(True))))


async def rules(runtime: Runtime, *made: PickRule) -> None:
    async with runtime.sessions() as s:
        await add_rules(s, list(made))
        await s.commit()


async def fitting_and_not(runtime: Runtime, shown: set[Any]) -> tuple[Wine, Wine]:
    """A wine that fits the steak request but was not shown, and a red that does not fit
    (over the budget) — of a producer with no fitting wine."""
    wines = await catalog(runtime)
    fitting = [w for w in wines if steak_ok(w) and w.id not in shown]
    fit_producers = {w.producer for w in wines if steak_ok(w)}
    misfit = [
        w
        for w in wines
        if w.wine_type == WineType.red and w.price_rub > 2000 and w.producer not in fit_producers
    ]
    assert fitting and misfit, "the seed catalog has both"
    return fitting[-1], misfit[0]


# ---- the offline path -------------------------------------------------------------------------


async def test_a_boost_puts_a_fitting_wine_first_and_never_adds_one_that_does_not_fit(
    seeded: Runtime,
) -> None:
    before = await ask(seeded, STEAK)
    assert before.path == "offline" and len(before.wines) == 3
    assert not any(w.shop_pick for w in before.wines)
    boosted, misfit = await fitting_and_not(seeded, {w.id for w in before.wines})
    await rules(
        seeded,
        make_rule("boost", "wine", boosted.slug),
        make_rule("boost", "wine", str(misfit.id)),
        make_rule("boost", "producer", misfit.producer),
    )

    after = await ask(seeded, STEAK)

    assert after.wines[0].id == boosted.id
    assert misfit.id not in {w.id for w in after.wines}
    by_id = {w.id: w for w in await catalog(seeded)}
    assert all(steak_ok(by_id[w.id]) for w in after.wines)
    assert [w.shop_pick for w in after.wines] == [True, False, False]
    assert "ослабил" not in after.intro


async def test_a_bury_moves_a_wine_down(seeded: Runtime) -> None:
    before = await ask(seeded, STEAK)
    first = before.wines[0]
    await rules(seeded, make_rule("bury", "wine", str(first.id)))

    after = await ask(seeded, STEAK)

    ids = [w.id for w in after.wines]
    assert len(ids) == 3 and ids[0] != first.id
    assert first.id not in ids[:-1]  # gone, or at most last
    assert not any(w.shop_pick for w in after.wines)


async def test_a_narrower_rule_wins_a_disagreement(seeded: Runtime) -> None:
    before = await ask(seeded, STEAK)
    boosted, _ = await fitting_and_not(seeded, {w.id for w in before.wines})
    await rules(
        seeded,
        make_rule("bury", "country", boosted.country),
        make_rule("boost", "wine", boosted.slug),
    )
    after = await ask(seeded, STEAK)
    assert after.wines[0].id == boosted.id and after.wines[0].shop_pick


@pytest.mark.parametrize(
    ("starts", "ends", "applies"),
    [(1, None, False), (None, -1, False), (-3, 0, True), (0, 3, True)],
)
async def test_a_rule_applies_only_within_its_dates(
    seeded: Runtime, starts: int | None, ends: int | None, applies: bool
) -> None:
    today = shop_today()
    before = await ask(seeded, STEAK)
    boosted, _ = await fitting_and_not(seeded, {w.id for w in before.wines})
    day = {k: today + timedelta(days=v) for k, v in (("s", starts), ("e", ends)) if v is not None}
    await rules(seeded, make_rule("boost", "wine", boosted.slug, day.get("s"), day.get("e")))

    after = await ask(seeded, STEAK)

    assert (after.wines[0].id == boosted.id) is applies
    assert after.wines[0].shop_pick is applies


# ---- the agent's tools and the catalog slice ---------------------------------------------------


def first_three(body: JSONDict) -> Any:
    wines = [w for payload in last_tool_payloads(body) for w in payload.get("wines", [])]
    return reply(formatted([(w["id"], why_for(w["id"])) for w in wines[:3]]))


async def test_the_agents_search_lists_a_boosted_fitting_wine_first_and_no_misfit(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.script(
        tool_calls(call("search_wines", STEAK_TOOL | {"limit": 5})), responder(first_three)
    )
    before = await ask(seeded, STEAK, server.base_url)
    listed_before = [w["id"] for w in wines_in_tool_results(server.requests[1])]
    shown = {uuid.UUID(i) for i in await wines_by_id(seeded, listed_before)}
    boosted, misfit = await fitting_and_not(seeded, shown)  # beyond the tool's first five
    assert before.wines and not any(w.shop_pick for w in before.wines)
    await rules(
        seeded,
        make_rule("boost", "wine", str(boosted.id)),
        make_rule("boost", "producer", misfit.producer),
    )

    server.script(
        tool_calls(call("search_wines", STEAK_TOOL | {"limit": 5})), responder(first_three)
    )
    after = await ask(seeded, STEAK, server.base_url)

    listed = wines_in_tool_results(server.requests[-1])
    assert listed[0]["id"] == handle(boosted.id)
    assert all(w["producer"] != misfit.producer for w in listed)
    assert after.path == "agent" and after.wines[0].id == boosted.id
    assert [w.shop_pick for w in after.wines] == [True, False, False]


async def test_the_catalog_slice_leads_with_the_boosted_fitting_wine(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    before = await ask(seeded, STEAK)
    boosted, misfit = await fitting_and_not(seeded, {w.id for w in before.wines})
    await rules(
        seeded, make_rule("boost", "wine", boosted.slug), make_rule("boost", "wine", misfit.slug)
    )

    def from_catalog(body: JSONDict) -> Any:
        ids = catalog_ids(body)
        return reply(formatted([(i, why_for(i)) for i in ids[:3]]))

    server.script(error(400, "This model does not support tools."), responder(from_catalog))
    rec = await ask(seeded, STEAK, server.base_url)

    lines = catalog_ids(server.requests[-1])
    assert lines[0] == handle(boosted.id) and handle(misfit.id) not in lines
    assert rec.path == "catalog_prompt" and rec.wines[0].id == boosted.id
    assert rec.wines[0].shop_pick and not any(w.shop_pick for w in rec.wines[1:])


# ---- the card -----------------------------------------------------------------------------------


async def test_only_a_boosted_wines_card_says_shop_pick(seeded: Runtime) -> None:
    before = await ask(seeded, STEAK)
    await rules(seeded, make_rule("boost", "wine", str(before.wines[1].id)))
    rec = await ask(seeded, STEAK)
    marked = [w for w in rec.wines if w.shop_pick]
    assert len(marked) == 1 and marked[0].id == before.wines[1].id

    for wine in rec.wines:
        says = wine.shop_pick
        assert ("Выбор магазина" in render_card(wine)) is says
        assert ("Выбор магазина" in render_compact_card(wine)) is says
        assert (card(wine)["shop_pick"] == "Выбор магазина") is says
    again = planned_answer(delivery_plan(rec))  # a takeover sends the same cards
    assert [w.shop_pick for w in again.wines] == [w.shop_pick for w in rec.wines]
    assert rec.public_json()["wines"][0]["shop_pick"] is True


# ---- the feed's tags and margin, rules on them ---------------------------------------------------

FEED = (
    "id,name,producer,country,color,sugar,price,food,tags,margin\n"
    't1,Тегированное красное,Дом А,Италия,красное,сухое,1500,стейк,"акция; Распродажа",35%\n'
    "t2,Простое красное,Дом Б,Италия,красное,сухое,1900,стейк,,12\n"
    "t3,Ещё красное,Дом В,Италия,красное,сухое,1800,стейк,новинка,20\n"
)


async def test_the_feeds_tags_and_margin_are_read_and_rules_can_name_them(
    clean_db: Runtime,
) -> None:
    report = await import_catalog(clean_db.sessions, "feed.csv", data=FEED.encode(), fmt="csv")
    assert report.inserted == 3, report
    by_id = {w.external_id: w for w in await catalog(clean_db)}
    assert by_id["t1"].tags == ["акция", "распродажа"] and by_id["t1"].margin == Decimal("35.00")
    assert by_id["t2"].tags == [] and by_id["t2"].margin == Decimal("12.00")

    await rules(clean_db, make_rule("bury", "tag", "НОВИНКА"), make_rule("boost", "margin", "30"))
    rec = await ask(clean_db, "красное сухое к стейку из Италии")
    # Boosted by its margin, neither, buried by its tag.
    assert [w.name for w in rec.wines] == ["Тегированное красное", "Простое красное", "Ещё красное"]


# ---- the rules file ----------------------------------------------------------------------------


async def test_a_rules_file_round_trips_and_a_bad_one_names_every_bad_row(
    clean_db: Runtime,
) -> None:
    made = [
        make_rule("boost", "producer", "Дом А", "2026-01-01", "2026-12-31", "=не формула"),
        make_rule("bury", "margin", "-5"),
        make_rule("boost", "tag", "акция"),
    ]
    for fmt in ("csv", "json"):
        text = format_rules(made, fmt)
        assert parse_rules(text, fmt) == made
    bad = "action,field,value,starts_on\nboost,wine,x,\nlift,wine,y,\nbury,margin,много,\n"
    with pytest.raises(PickRuleError) as caught:
        parse_rules(bad, "csv")
    message = str(caught.value)
    assert "line 3" in message and "lift" in message
    assert "line 4" in message and "margin" in message
    assert "line 2" not in message
    with pytest.raises(PickRuleError, match="ends_on"):
        make_rule("boost", "wine", "x", "2026-02-01", "2026-01-01")
    with pytest.raises(PickRuleError, match="no column"):
        parse_rules("what,ever\n1,2\n", "csv")
    with pytest.raises(PickRuleError, match="not JSON"):
        parse_rules("[{", "json")
    async with clean_db.sessions() as s:
        assert await list_rules(s) == []
