"""A fake model for the agent path: it reads what a real model reads, and only that.

Its tool calls come from the person's words and the rest of the conversation in the request
(earlier user turns, its own earlier answers, its own tool calls and their results when the
history holds them) and from the tool schemas sent with it (`body["tools"]`: which tools and
arguments exist, the enum values). The system prompt is never read: not its conversation-state
block («фильтры поиска: {…}», the mood «для semantic_search») nor anything else the product
computed, so the agent path's score measures how the product handles a model's tool use, not
the product's own offline reader twice. The words are read with a small vocabulary of its own
(`bench/eval/reader.py`), without the product's language code.

A turn: read the new message; when it is a follow-up («а белое?», «подешевле», «только не
шардоне»), start from this model's previous search in the conversation and apply what the
message changes; call search_wines, or semantic_search with the person's words when they name
no structured filter (a mood, an occasion). When the search finds nothing, search once more
without the dish and body (the tool's hint says to broaden). Then recommend up to three of the
wines the tools returned in the answer format, each with its style and price (which it reads
back from its own answer when the next message says «подешевле» or «посуше»); when nothing is
found it says so honestly.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from bench.eval.reader import Reading, read
from fakes.openai.protocol import content_text, may_call_tools
from fakes.openai_server import Step, call, reply, tool_calls

JSONDict = dict[str, Any]
LIMIT = 5
SWEETNESS_ORDER = ("dry", "semi_dry", "semi_sweet", "sweet")
TYPE_RU = {
    "red": "красное",
    "white": "белое",
    "rose": "розовое",
    "sparkling": "игристое",
    "dessert": "десертное",
    "fortified": "крепленое",
}
SWEETNESS_RU = {
    "dry": "сухое",
    "semi_dry": "полусухое",
    "semi_sweet": "полусладкое",
    "sweet": "сладкое",
}
_RU_SWEETNESS = {word: key for key, word in SWEETNESS_RU.items()}
_WINE_BLOCK = re.compile(r"\[WINE:[^\]]+\]\s*([^\[]*)")
_PRICE = re.compile(r"(\d{1,3}(?:[ \u00a0\u202f]\d{3})+|\d+)\s*₽")
# Arguments that only guide a search: dropped first when it finds nothing.
SOFT = ("food_pairing", "body_min", "body_max")


@dataclass
class Search:
    tool: str
    args: JSONDict


@dataclass
class Shown:
    """What this model said of the wines in its previous answer: their prices and sweetness."""

    prices: list[int] = field(default_factory=list)
    sweetness: list[str] = field(default_factory=list)


@dataclass
class Turn:
    user: str
    calls: list[Search] = field(default_factory=list)
    results: list[JSONDict] = field(default_factory=list)
    answer: str = ""


def _turns(body: JSONDict) -> list[Turn]:
    """The conversation by user turn; system messages are not read."""
    turns: list[Turn] = []
    for message in body["messages"]:
        role = message.get("role")
        if role == "user":
            turns.append(Turn(content_text(message.get("content"))))
        elif not turns or role not in ("assistant", "tool"):
            continue
        elif role == "assistant" and message.get("tool_calls"):
            for tc in message["tool_calls"]:
                function = tc.get("function") or {}
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except json.JSONDecodeError:
                    continue
                turns[-1].calls.append(Search(str(function.get("name")), args))
        elif role == "assistant":
            turns[-1].answer = content_text(message.get("content"))
        else:
            try:
                payload = json.loads(content_text(message.get("content")) or "{}")
            except json.JSONDecodeError:
                payload = {}
            turns[-1].results.append(payload if isinstance(payload, dict) else {})
    return turns


def _shown(answer: str) -> Shown:
    """The prices an answer names, and the sweetness it gives each wine it recommends."""
    shown = Shown()
    for price in _PRICE.findall(answer):
        shown.prices.append(int(re.sub(r"\D", "", price)))
    for block in _WINE_BLOCK.findall(answer) or [answer]:
        words = re.findall(r"\w+", block.lower())
        style = next((_RU_SWEETNESS[w] for w in words if w in _RU_SWEETNESS), None)
        if style:
            shown.sweetness.append(style)
    return shown


def _step(sweetness: str, delta: int) -> str:
    index = SWEETNESS_ORDER.index(sweetness) + delta
    return SWEETNESS_ORDER[max(0, min(len(SWEETNESS_ORDER) - 1, index))]


def _relative(args: JSONDict, changes: set[str], shown: Shown) -> None:
    """«Подешевле», «посуше», «полегче»: relative to the wines shown, else to the search."""
    if "cheaper" in changes:
        if shown.prices:
            args["price_max"] = min(shown.prices) - 1
        else:
            args["price_max"] = int(float(args.get("price_max") or 2000) * 0.7)
        if float(args.get("price_min") or 0) >= args["price_max"]:
            args.pop("price_min", None)
    if "dearer" in changes:
        floor = max(shown.prices) if shown.prices else args.get("price_max") or 2000
        args["price_min"] = int(float(floor)) + 1
        if float(args.get("price_max") or 0) <= args["price_min"]:
            args.pop("price_max", None)
    if "drier" in changes:
        base = min(shown.sweetness, key=SWEETNESS_ORDER.index, default=None)
        current = args.get("sweetness") or base
        args["sweetness"] = _step(current, -1) if current else "dry"
    if "sweeter" in changes:
        base = max(shown.sweetness, key=SWEETNESS_ORDER.index, default=None)
        current = args.get("sweetness") or base
        args["sweetness"] = _step(current, +1) if current else "semi_sweet"
    if "lighter" in changes:
        args["body_max"] = max(1, int(args.get("body_max") or 4) - 1)
        if int(args.get("body_min") or 0) > args["body_max"]:
            args.pop("body_min", None)
    if "fuller" in changes:
        args["body_min"] = min(5, int(args.get("body_min") or 3) + 1)
        if int(args.get("body_max") or 5) < args["body_min"]:
            args.pop("body_max", None)


def _apply(previous: Search | None, reading: Reading, text: str, shown: Shown) -> Search:
    """The search this message asks for: a follow-up changes the previous one."""
    followup = previous is not None and (
        reading.followup
        or bool(reading.changes)
        or (not reading.values and bool(reading.exclude_grapes or reading.exclude_countries))
    )
    args: JSONDict = dict(previous.args) if followup and previous else {}
    tool = previous.tool if followup and previous else "search_wines"
    args.pop("limit", None)
    new = reading.values
    if "wine_type" in new and new["wine_type"] != args.get("wine_type"):
        for key in ("grape_variety", "region", "name"):
            args.pop(key, None)
        styles = ("sparkling", "dessert", "fortified")
        if new["wine_type"] in styles or args.get("wine_type") in styles:
            args.pop("sweetness", None)
    if "country" in new or "countries" in new or "region" in new:
        for key in ("country", "countries", "region", "name"):
            args.pop(key, None)
    if "grape_variety" in new:
        args.pop("name", None)
    if "price_max" in new and "price_min" not in new:
        args.pop("price_min", None)
    args.update(new)
    for key, excluded in (
        ("exclude_grapes", reading.exclude_grapes),
        ("exclude_countries", reading.exclude_countries),
    ):
        if excluded:
            args[key] = list(dict.fromkeys([*args.get(key, []), *excluded]))
    if args.get("grape_variety") in args.get("exclude_grapes", []):
        args.pop("grape_variety")
    if args.get("country") in args.get("exclude_countries", []):
        args.pop("country")
    _relative(args, reading.changes, shown)
    structured = {k for k in args if k not in ("wine_type", "price_max", "query")}
    guides = structured - {"sweetness", "exclude_countries", "exclude_grapes"}
    if (reading.mood and not guides) or not args:  # a mood, or words it cannot file anywhere
        tool, args["query"] = "semantic_search", text.strip()
    elif tool == "semantic_search" and structured:
        tool = "search_wines"
    if tool == "search_wines":
        args.pop("query", None)
    elif not args.get("query"):
        args["query"] = text.strip()
    return Search(tool, args)


def _fit(search: Search, tools: list[JSONDict]) -> Search | None:
    """Only the arguments (and enum values) the tool's schema offers; None without the tool."""
    schemas = {t["function"]["name"]: t["function"].get("parameters", {}) for t in tools}
    if search.tool == "semantic_search" and search.tool not in schemas:
        search = Search("search_wines", {k: v for k, v in search.args.items() if k != "query"})
    properties = schemas.get(search.tool, {}).get("properties")
    if properties is None:
        return None
    args: JSONDict = {}
    for key, value in search.args.items():
        spec = properties.get(key)
        if spec is None or ("enum" in spec and value not in spec["enum"]):
            continue
        args[key] = value
    if "limit" in properties:
        args["limit"] = LIMIT
    return Search(search.tool, args)


def _state(turns: list[Turn]) -> tuple[Search | None, Shown]:
    """This model's search in force before the last message, and its previous answer's wines."""
    search: Search | None = None
    shown = Shown()
    for turn in turns[:-1]:
        reading = read(turn.user)
        own = next((c for c in turn.calls if c.tool in ("search_wines", "semantic_search")), None)
        if own is not None:
            search = own
        elif not reading.empty() and not reading.smalltalk:
            search = _apply(search, reading, turn.user, shown)
        if turn.answer and "[WINE:" in turn.answer:
            shown = _shown(turn.answer)
    return search, shown


def _broader(search: Search) -> Search | None:
    """The search without what only guides it (the dish, the body), if it had any."""
    if search.tool != "search_wines" or not any(k in search.args for k in SOFT):
        return None
    return Search(search.tool, {k: v for k, v in search.args.items() if k not in SOFT})


def _why(wine: JSONDict) -> str:
    """The wine's style, country and price as the tool gave them, then its description."""
    style = f"{SWEETNESS_RU.get(wine.get('sweetness'), '')} {TYPE_RU.get(wine.get('type'), '')}"
    facts = [style.strip().capitalize() or "Вино"]
    if wine.get("country"):
        facts[0] += f" ({wine['country']})"
    if wine.get("price") is not None:
        facts.append(f"{wine['price']} ₽")
    return ", ".join(facts) + ". " + str(wine.get("description") or "")[:80]


def _answer(turn: Turn) -> Step:
    wines: list[JSONDict] = []
    for payload in turn.results:
        for wine in payload.get("wines", []):
            if (
                isinstance(wine, dict)
                and "id" in wine
                and all(w["id"] != wine["id"] for w in wines)
            ):
                wines.append(wine)
    if not wines:
        return reply("К сожалению, под эти условия в каталоге ничего не нашлось.")
    parts = ["[INTRO]", "Вот что я нашел по вашему запросу:"]
    for wine in wines[:3]:
        parts += [f"[WINE:{wine['id']}]", _why(wine)]
    parts += ["[CLOSING]", "Хорошего вечера!"]
    return reply("\n".join(parts))


def respond(body: JSONDict) -> Step:
    turns = _turns(body)
    if not turns:
        return reply("Здравствуйте! Расскажите, какое вино вы ищете.")
    turn = turns[-1]
    tools = body["tools"] if may_call_tools(body) else []
    reading = read(turn.user)
    if not turn.calls:
        if reading.smalltalk and reading.empty():
            return reply("Пожалуйста! Если захотите подобрать вино — напишите.")
        previous, shown = _state(turns)
        search = _fit(_apply(previous, reading, turn.user, shown), tools) if tools else None
        if search is not None:
            return tool_calls(call(search.tool, search.args))
    elif tools and len(turn.calls) == 1 and not any(p.get("wines") for p in turn.results):
        broader = _broader(turn.calls[0])
        broader = _fit(broader, tools) if broader is not None else None
        if broader is not None:
            return tool_calls(call(broader.tool, broader.args))
    return _answer(turn)
