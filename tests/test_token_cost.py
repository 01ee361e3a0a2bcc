"""bench.token_cost: what a provider's prompt cache can serve, and what an answer is billed."""

from __future__ import annotations

from pathlib import Path

from bench.token_cost import Call, Prices, PromptCache, Side, prompt_text, tokens

TOOLS = [{"type": "function", "function": {"name": "search_wines", "parameters": {}}}]


def _body(*messages: tuple[str, str], tools: bool = True) -> dict[str, object]:
    body: dict[str, object] = {"messages": [{"role": r, "content": c} for r, c in messages]}
    if tools:
        body["tools"] = TOOLS
    return body


def test_a_call_repeats_the_previous_prompt_from_its_start_only() -> None:
    side = Side("now", code=Path("."))
    cache = PromptCache()
    system = ("system", "Ты сомелье магазина. " * 40)
    first = _body(system, ("user", "красное к стейку"))
    second = _body(system, ("user", "красное к стейку"), ("assistant", "Вот три вина…"))
    without_tools = _body(system, ("user", "а подешевле?"), tools=False)
    cache.count(side, [first, second, without_tools], [5, 7, 3])
    # the first call met a cold cache and is not counted; the second repeats all of the first
    repeated, changed = side.calls
    assert repeated.repeated >= len(tokens(prompt_text(first))) - 1
    assert repeated.repeated < repeated.prompt
    # a call that drops the tool schemas shares nothing from the start: they come first
    assert changed.repeated == 0 and changed.output == 3
    assert changed.parts["system prompt"] > changed.parts["user messages"]


def test_cached_tokens_are_billed_only_past_the_minimum_and_in_steps() -> None:
    prices = Prices(input=1.0, cached=0.5, output=2.0, cache_min=1024, cache_step=128)
    short = Call(prompt=1000, repeated=1000, output=0)
    long = Call(prompt=2000, repeated=1500, output=100)
    assert prices.billed_cached(short) == 0
    assert prices.billed_cached(long) == 1408  # 11 steps of 128
    assert prices.cost(long) == ((2000 - 1408) * 1.0 + 1408 * 0.5 + 100 * 2.0) / 1_000_000
