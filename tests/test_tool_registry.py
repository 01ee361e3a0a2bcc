"""The catalog tools as the model uses them: slips repaired, failures explained, never a raise.

Everything runs against the real embedded catalog (seeds/wines.json); semantic search and
`sommelier embed` talk over HTTP to the fake OpenAI server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from pydantic import BaseModel

from core.domain import Sweetness, WineType
from core.errors import EmbeddingDimensionError
from fakes.openai_server import FakeOpenAIServer, deterministic_embedding
from repositories.models import Wine
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, load_seed_file
from services.agent._catalog_tools import (
    DESCRIPTION_CHARS,
    MAX_RESULTS,
    SearchWinesArgs,
    SemanticSearchArgs,
    build_catalog_tools,
)
from services.agent._tool_registry import Tool, ToolOutput, ToolRegistry, ToolResult
from services.app.runtime import Runtime
from services.llm.embeddings import EmbeddingService, wine_document
from tests.agent_fixtures import agent_settings, fake_openai, wines_by_id
from tests.conftest import TEST_EMBEDDING_DIM, make_settings

# Words that occur nowhere in the catalog: full-text search finds nothing for them.
NONSENSE_QUERY = "квазизюбр плимбумс"


@pytest.fixture
async def registry(seeded: Runtime) -> AsyncIterator[ToolRegistry]:
    """The registry without embeddings (no key): semantic_search works on full text."""
    embeddings = EmbeddingService(make_settings())
    yield build_catalog_tools(seeded.sessions, embeddings)
    await embeddings.close()


@pytest.fixture
async def bare_registry(runtime: Runtime) -> AsyncIterator[ToolRegistry]:
    """For calls that fail before reading the catalog: no need to reseed it."""
    embeddings = EmbeddingService(make_settings())
    yield build_catalog_tools(runtime.sessions, embeddings)
    await embeddings.close()


async def returned_wines(runtime: Runtime, result: ToolResult) -> list[Wine]:
    """The catalog rows behind a successful result, checking the payload matches wine_ids."""
    assert result.ok, result.content
    payload = json.loads(result.content)
    ids = [wine["id"] for wine in payload["wines"]]
    assert payload["count"] == len(ids)
    assert [str(i) for i in result.wine_ids] == ids
    by_id = await wines_by_id(runtime, ids)
    assert set(by_id) == set(ids), "every returned id is a real catalog wine"
    return [by_id[i] for i in ids]


def error_of(result: ToolResult) -> str:
    assert not result.ok
    return str(json.loads(result.content)["error"])


def grapes_include(word: str) -> Callable[[Wine], bool]:
    return lambda wine: any(word in grape for grape in wine.grape_varieties)


def foods_include(word: str) -> Callable[[Wine], bool]:
    return lambda wine: any(word in food for food in wine.food_pairings)


# ---- normalization of model slips ---------------------------------------------------------

# (arguments as the model sent them, what every returned wine must satisfy)
NORMALIZATION_CASES = [
    pytest.param({"wine_type": "красное"}, lambda w: w.wine_type == WineType.red, id="ru-red"),
    pytest.param(
        {"type": "игристое"}, lambda w: w.wine_type == WineType.sparkling, id="type-alias-ru"
    ),
    pytest.param({"color": "White"}, lambda w: w.wine_type == WineType.white, id="color-en"),
    pytest.param({"wine_type": "Rosé"}, lambda w: w.wine_type == WineType.rose, id="rose-accent"),
    pytest.param(
        {"sweetness": "полусладкое"},
        lambda w: w.sweetness == Sweetness.semi_sweet,
        id="ru-semi-sweet",
    ),
    pytest.param(
        {"sweetness": "semi-dry"}, lambda w: w.sweetness == Sweetness.semi_dry, id="en-semi-dry"
    ),
    pytest.param(
        {"kind": "десертное", "sugar": "сладкое"},
        lambda w: w.wine_type == WineType.dessert and w.sweetness == Sweetness.sweet,
        id="kind-sugar-aliases",
    ),
    pytest.param({"max_price": "2000 ₽"}, lambda w: w.price_rub <= 2000, id="max-price-rub"),
    pytest.param({"budget": "1 500 руб."}, lambda w: w.price_rub <= 1500, id="budget-spaced"),
    pytest.param({"price_max": "2k"}, lambda w: w.price_rub <= 2000, id="price-2k"),
    pytest.param(
        {"price_min": "5 000", "price_max": "6000.0"},
        lambda w: 5000 <= w.price_rub <= 6000,
        id="price-range-strings",
    ),
    pytest.param({"grape": "Merlot"}, grapes_include("мерло"), id="grape-alias-en"),
    pytest.param({"grape_varieties": ["Pinot Noir"]}, grapes_include("пино нуар"), id="grape-list"),
    pytest.param(
        {"food": "стейк", "country": "Russia"},
        lambda w: w.country == "Россия" and foods_include("стейк")(w),
        id="food-country-en",
    ),
    pytest.param(
        '"{\\"wine_type\\": \\"red\\", \\"price_max\\": \\"1500\\"}"',
        lambda w: w.wine_type == WineType.red and w.price_rub <= 1500,
        id="double-encoded-json",
    ),
    pytest.param(
        '```json\n{"wine_type": "белое"}\n```',
        lambda w: w.wine_type == WineType.white,
        id="fenced-json",
    ),
]


@pytest.mark.parametrize(("arguments", "holds"), NORMALIZATION_CASES)
async def test_search_wines_repairs_model_slips(
    seeded: Runtime,
    registry: ToolRegistry,
    arguments: dict[str, Any] | str,
    holds: Callable[[Wine], bool],
) -> None:
    # The case must discriminate: without the filter, the same search breaks the condition.
    baseline = await returned_wines(seeded, await registry.execute("search_wines", {"limit": 10}))
    assert not all(holds(w) for w in baseline)

    if isinstance(arguments, dict):
        arguments = {**arguments, "limit": 10}
    result = await registry.execute("search_wines", arguments)

    wines = await returned_wines(seeded, result)
    assert wines, result.content
    assert all(holds(w) for w in wines), [(w.name, w.wine_type, w.price_rub) for w in wines]


async def test_numbers_as_strings_are_numbers(seeded: Runtime, registry: ToolRegistry) -> None:
    result = await registry.execute(
        "search_wines", json.dumps({"price_min": "1000", "price_max": "3 000", "limit": "3"})
    )
    wines = await returned_wines(seeded, result)
    assert len(wines) == 3
    assert all(1000 <= w.price_rub <= 3000 for w in wines)


async def test_unknown_parameters_are_ignored_with_a_note(
    seeded: Runtime, registry: ToolRegistry
) -> None:
    result = await registry.execute("search_wines", {"wine_type": "red", "vintage": 2019})
    wines = await returned_wines(seeded, result)
    assert wines and all(w.wine_type == WineType.red for w in wines)
    assert any("vintage" in note for note in json.loads(result.content)["notes"])


async def test_limit_above_the_maximum_is_clamped(seeded: Runtime, registry: ToolRegistry) -> None:
    result = await registry.execute("search_wines", {"limit": 50})
    assert len(await returned_wines(seeded, result)) == MAX_RESULTS
    assert any("10" in note for note in json.loads(result.content)["notes"])


async def test_results_are_compact_and_bounded(seeded: Runtime, registry: ToolRegistry) -> None:
    result = await registry.execute("search_wines", {"limit": 10})
    payload = json.loads(result.content)
    compact = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    assert result.content == compact
    assert all(len(w["description"]) <= DESCRIPTION_CHARS for w in payload["wines"])
    # Ten wines stay well under what a small model context can take for one tool result.
    assert len(result.content) < 8000


async def test_an_empty_search_says_how_to_recover(registry: ToolRegistry) -> None:
    result = await registry.execute("search_wines", {"wine_type": "red", "price_max": 100})
    payload = json.loads(result.content)
    assert result.ok and payload["count"] == 0 and payload["wines"] == []
    assert "broader" in payload["hint"] or "fewer" in payload["hint"]


# ---- failures become result text ------------------------------------------------------------

FAILURE_CASES = [
    pytest.param("search_wines", {"price_max": -5}, ["price_max", "greater than or equal to 0"]),
    pytest.param("search_wines", '{"wine_type": "red", "price_max": ', ["not valid JSON"]),
    pytest.param("search_wines", "[1, 2]", ["must be a JSON object"]),
    pytest.param("search_wines", {"wine_type": "фиолетовое"}, ["wine_type", "'red'"]),
    pytest.param("search_wines", {"body_min": 7}, ["body_min", "less than or equal to 5"]),
    pytest.param("search_wines", {"limit": 0}, ["limit", "greater than or equal to 1"]),
    pytest.param(
        "search_wines",
        {"price_min": 3000, "price_max": 1000},
        ["price_min (3000", "greater than price_max (1000"],
    ),
    pytest.param("semantic_search", "", ["query", "Field required"]),
    pytest.param("semantic_search", None, ["query", "Field required"]),
    pytest.param("semantic_search", {"query": "x" * 400}, ["query", "at most 300"]),
    pytest.param("find_wine", {"wine_type": "red"}, ["unknown tool 'find_wine'", "search_wines"]),
]


@pytest.mark.parametrize(("name", "arguments", "explained"), FAILURE_CASES)
async def test_failures_are_explained_to_the_model(
    bare_registry: ToolRegistry, name: str, arguments: Any, explained: list[str]
) -> None:
    result = await bare_registry.execute(name, arguments)
    message = error_of(result)
    for fragment in explained:
        assert fragment in message, message
    assert result.wine_ids == []


async def test_empty_arguments_are_a_search_without_filters(
    seeded: Runtime, registry: ToolRegistry
) -> None:
    for empty in ("", "{}", None):
        wines = await returned_wines(seeded, await registry.execute("search_wines", empty))
        assert len(wines) == 5  # the default limit


class _NoArgs(BaseModel):
    pass


async def test_a_slow_or_broken_tool_is_reported_not_raised() -> None:
    async def slow(_: _NoArgs) -> ToolOutput:
        await asyncio.sleep(5)
        return ToolOutput({})

    async def broken(_: _NoArgs) -> ToolOutput:
        raise RuntimeError("password=hunter2 at postgresql://db")

    registry = ToolRegistry(
        [
            Tool("slow", "sleeps", _NoArgs, slow, timeout=0.05),
            Tool("broken", "raises", _NoArgs, broken),
        ]
    )
    assert "timed out" in error_of(await registry.execute("slow", "{}"))
    message = error_of(await registry.execute("broken", "{}"))
    assert "broken failed" in message
    assert "hunter2" not in message  # internal details never reach the model


# ---- semantic search ------------------------------------------------------------------------


async def _embedded_catalog(runtime: Runtime, server: FakeOpenAIServer) -> EmbeddingService:
    service = EmbeddingService(agent_settings(server.base_url))
    report = await service.embed_catalog(runtime.sessions)
    assert report.remaining == 0
    return service


async def test_semantic_search_uses_embeddings_when_available(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    async with seeded.sessions() as session:
        target = (await WineRepository(session).search({"wine_type": "rose"}, limit=1))[0]
    target_document = wine_document(target)
    axis = [1.0] + [0.0] * (TEST_EMBEDDING_DIM - 1)
    server.embedding_fn = lambda text: (
        axis
        if text in (target_document, NONSENSE_QUERY)
        else deterministic_embedding(text, TEST_EMBEDDING_DIM)
    )
    embeddings = await _embedded_catalog(seeded, server)
    try:
        registry = build_catalog_tools(seeded.sessions, embeddings)
        result = await registry.execute("semantic_search", {"query": NONSENSE_QUERY})
        wines = await returned_wines(seeded, result)
        # The query shares no word with the catalog: only the vector can have found the wine.
        assert wines[0].id == target.id
        assert "hybrid" in result.summary

        # The same query again is answered from the cache: no second embedding request.
        before = len(server.embedding_requests)
        again = await registry.execute("semantic_search", {"query": NONSENSE_QUERY})
        assert (await returned_wines(seeded, again))[0].id == target.id
        assert len(server.embedding_requests) == before
    finally:
        await embeddings.close()
    assert server.errors == []


async def test_semantic_search_falls_back_to_full_text_when_embeddings_fail(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    server.embeddings_fail = 500
    embeddings = EmbeddingService(agent_settings(server.base_url))
    try:
        registry = build_catalog_tools(seeded.sessions, embeddings)
        result = await registry.execute(
            "semantic_search", {"query": "минеральное к устрицам", "wine_type": "white"}
        )
        wines = await returned_wines(seeded, result)
        assert wines and all(w.wine_type == WineType.white for w in wines)
        assert any(foods_include("устриц")(w) for w in wines)
        assert "text" in result.summary
        assert server.embedding_requests, "the embedding API was tried first"

        # Nothing in the text either: still wines within the filters.
        result = await registry.execute(
            "semantic_search", {"query": NONSENSE_QUERY, "wine_type": "rose", "price_max": 2000}
        )
        wines = await returned_wines(seeded, result)
        assert wines and all(w.wine_type == WineType.rose and w.price_rub <= 2000 for w in wines)
    finally:
        await embeddings.close()


async def test_semantic_search_survives_a_dimension_mismatch(seeded: Runtime) -> None:
    async with fake_openai(embedding_dim=32) as server:
        embeddings = EmbeddingService(agent_settings(server.base_url))
        try:
            registry = build_catalog_tools(seeded.sessions, embeddings)
            result = await registry.execute("semantic_search", {"query": "игристое к устрицам"})
            wines = await returned_wines(seeded, result)
            assert server.embedding_requests
            # The vectors cannot be compared; the words still find sparkling wines.
            assert wines and all(w.wine_type == WineType.sparkling for w in wines), [
                (w.name, w.wine_type) for w in wines
            ]
        finally:
            await embeddings.close()


# ---- `sommelier embed` ----------------------------------------------------------------------


async def _embedded_count(runtime: Runtime, model: str) -> int:
    async with runtime.sessions() as session:
        return await WineRepository(session).count_embedded(model)


async def test_embed_catalog_is_safe_to_rerun_and_refreshes_stale_vectors(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    catalog = load_seed_file(DEFAULT_SEED_FILE)
    service = EmbeddingService(agent_settings(server.base_url))
    progress: list[tuple[int, int]] = []

    async def record(done: int, total: int) -> None:
        progress.append((done, total))

    try:
        first = await service.embed_catalog(seeded.sessions, batch_size=25, progress=record)
        assert (first.embedded, first.remaining) == (len(catalog), 0)
        assert progress[-1] == (len(catalog), len(catalog))
        assert len(progress) == -(-len(catalog) // 25)  # one report per batch
        assert await _embedded_count(seeded, service.model) == len(catalog)

        requests = len(server.embedding_requests)
        second = await service.embed_catalog(seeded.sessions)
        assert (second.embedded, second.remaining) == (0, 0)
        assert len(server.embedding_requests) == requests  # nothing was sent again

        # A changed description makes that one vector stale; a price change does not.
        described = catalog[0].model_copy(update={"description": "Новое описание вина."})
        repriced = catalog[1].model_copy(update={"price_rub": catalog[1].price_rub + 1})
        async with seeded.sessions() as session:
            report = await WineRepository(session).upsert_many([described, repriced])
            await session.commit()
        assert report.updated == 2
        third = await service.embed_catalog(seeded.sessions)
        assert (third.embedded, third.remaining) == (1, 0)
    finally:
        await service.close()
    assert server.errors == []


async def test_embed_catalog_names_both_dimensions_on_a_mismatch(seeded: Runtime) -> None:
    async with fake_openai(embedding_dim=32) as server:
        service = EmbeddingService(agent_settings(server.base_url))
        try:
            with pytest.raises(EmbeddingDimensionError) as caught:
                await service.embed_catalog(seeded.sessions)
        finally:
            await service.close()
    message = str(caught.value)
    assert "32" in message and str(TEST_EMBEDDING_DIM) in message
    assert await _embedded_count(seeded, service.model) == 0


async def test_embed_catalog_refuses_a_setting_that_does_not_fit_the_column(
    seeded: Runtime, server: FakeOpenAIServer
) -> None:
    service = EmbeddingService(agent_settings(server.base_url, embedding_dim=32))
    try:
        with pytest.raises(EmbeddingDimensionError) as caught:
            await service.embed_catalog(seeded.sessions)
    finally:
        await service.close()
    message = str(caught.value)
    assert "EMBEDDING_DIM is 32" in message and str(TEST_EMBEDDING_DIM) in message
    assert server.embedding_requests == []  # refused before spending anything


# ---- one contract ---------------------------------------------------------------------------


def test_every_tool_schema_lists_exactly_its_parameters(bare_registry: ToolRegistry) -> None:
    specs = {spec["function"]["name"]: spec["function"] for spec in bare_registry.openai_specs()}
    assert set(specs) == {"search_wines", "semantic_search"}
    models = {"search_wines": SearchWinesArgs, "semantic_search": SemanticSearchArgs}
    for name, function in specs.items():
        parameters = function["parameters"]
        assert set(parameters["properties"]) == set(models[name].model_fields)
        assert parameters["additionalProperties"] is False
        assert parameters["properties"]["limit"]["maximum"] == MAX_RESULTS
    assert specs["semantic_search"]["parameters"]["required"] == ["query"]


def test_a_restricted_registry_offers_only_the_allowed_tools(bare_registry: ToolRegistry) -> None:
    only = bare_registry.restricted(["search_wines"])
    assert [s["function"]["name"] for s in only.openai_specs()] == ["search_wines"]
    assert "semantic_search" not in only.prompt_section()
    assert bare_registry.restricted(None) is bare_registry


@pytest.mark.parametrize(
    ("query", "wine_type", "sweetness"),
    [
        ("красное сухое к стейку", "red", "dry"),
        ("Красного сухого вина к мясу", "red", "dry"),
        ("dry red wine for a steak", "red", "dry"),
        ("белое к рыбе", "white", None),
    ],
)
async def test_semantic_search_keeps_to_the_colour_and_sweetness_in_its_query(
    seeded: Runtime, registry: ToolRegistry, query: str, wine_type: str, sweetness: str | None
) -> None:
    """A colour or sweetness in the query is a filter: full-text matching must not bring a
    white dessert wine because its name («…Красного Камня») contains «красного»."""
    result = await registry.execute("semantic_search", json.dumps({"query": query}))
    wines = await returned_wines(seeded, result)
    assert wines
    assert all(w.wine_type.value == wine_type for w in wines), [w.name for w in wines]
    if sweetness:
        assert all(w.sweetness.value == sweetness for w in wines), [w.name for w in wines]


async def test_semantic_search_explicit_filters_win_over_the_query(
    seeded: Runtime, registry: ToolRegistry
) -> None:
    arguments = {"query": "красное к стейку", "wine_type": "white", "price_max": 1500}
    wines = await returned_wines(
        seeded, await registry.execute("semantic_search", json.dumps(arguments))
    )
    assert wines
    assert all(w.wine_type.value == "white" and w.price_rub <= 1500 for w in wines)
