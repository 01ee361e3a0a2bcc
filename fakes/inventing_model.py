"""A fake model that makes things up about real wines (issue #31).

It picks real catalog wines the way a good model does — search_wines with the filters of the
question, then three of the wines the tool returned (or, on the catalog prompt, three of the
catalog lines it was given) — and writes about each one the confident mistakes a real model
writes: a wrong vintage, grape and country, an invented age in oak, a price nobody gave, an
award, a producer, an alcohol level. Next to them, one true sentence: the wine's own grape (or
its country), which a correct check keeps. The intro claims all three are from one country
they are not from, the closing that they all won medals.

Selected by model name: `install(server)` makes every chat request for `INVENTING_MODEL` that
no scripted step answers go to `respond`, so `LLM_MODEL=inventing-sommelier` against the
fake server is all a test needs. From a terminal, `python -m fakes.inventing_model` serves it
and prints the settings that point `sommelier ask --json "…"` at it.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from typing import Any

from core.language.request import grape_from_text, parse_query
from fakes.openai_server import FakeOpenAIServer, Step, call, may_call_tools, reply, tool_calls

INVENTING_MODEL = "inventing-sommelier"
# The why of every card, as measured from outside (the example), then more inventions.
INVENTED_WHY = (
    "Урожай 1987 года. Это чистый пино менье из Чили. Выдержка 30 лет в новом дубе. "
    "Сегодня всего 99 ₽ за бутылку."
)
INVENTED_MORE = "95 баллов Паркера. Производитель — Château Margaux. Крепость 16,5 %."
INVENTED_CLOSING = "Все эти вина получили золотые медали. Хорошего вечера!"
# What no card's why may still say after the check (each is false of every catalog wine).
FALSE_MARKS = ("1987", "менье", "30 лет", "99 ₽", "Паркер", "Margaux", "16,5")
_COUNTRIES = ("Чили", "Италии", "Франции", "Австралии")
_GENITIVE = {"Чили": "Чили", "Италии": "Италия", "Франции": "Франция", "Австралии": "Австралия"}
# A catalog line starts with the wine's id as the model is shown it (its first 8 hex digits).
_CATALOG_LINE = re.compile(r"^([0-9a-f]{8})( \|.*)$", re.M)

JSONDict = dict[str, Any]


def install(server: FakeOpenAIServer) -> None:
    """Answer unscripted chat requests for INVENTING_MODEL with `respond`."""
    server.model_responders[INVENTING_MODEL] = respond


TRUE_INTRO = "Вот что нашлось в каталоге."


def true_sentence(grapes: list[str], country: str) -> str:
    """A sentence true of the wine: a grape the vocabulary knows, else its country."""
    for grape in grapes:
        if grape_from_text(grape):
            return f"Сорт — {grape}."
    return f"Страна — {country}."


def invented_why(grapes: list[str], country: str) -> str:
    return f"{true_sentence(grapes, country)} {INVENTED_WHY} {INVENTED_MORE}"


def invented_intro(countries: list[str]) -> str:
    country = next(c for c in _COUNTRIES if _GENITIVE[c] not in countries)
    return f"{TRUE_INTRO} Все три — из {country}, урожая 1987 года."


def _answer(wines: list[tuple[str, list[str], str]]) -> Step:
    parts = ["[INTRO]", invented_intro([country for _, _, country in wines])]
    for wine_id, grapes, country in wines[:3]:
        parts += [f"[WINE:{wine_id}]", invented_why(grapes, country)]
    parts += ["[CLOSING]", INVENTED_CLOSING]
    return reply("\n".join(parts))


def respond(body: JSONDict) -> Step:
    messages: list[JSONDict] = body["messages"]
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    results = [m for m in messages[last_user + 1 :] if m["role"] == "tool"]
    if not may_call_tools(body) and not results:  # the catalog prompt: wines as catalog lines
        system = "\n".join(str(m.get("content") or "") for m in messages if m["role"] == "system")
        lines = _CATALOG_LINE.findall(system)
        wines = []
        for wine_id, rest in lines[:3]:
            fields = [f.strip() for f in rest.split("|")]
            place = fields[3] if len(fields) > 3 else ""
            grapes = fields[5].split(", ") if len(fields) > 5 else []
            wines.append((wine_id, grapes, place.split(",")[0]))
        return _answer(wines)
    if not results:
        question = str(messages[last_user].get("content") or "")
        filters = parse_query(question).filters.model_dump(mode="json", exclude_none=True)
        for key in ("price_min", "price_max"):
            if key in filters:
                filters[key] = float(filters[key])
        return tool_calls(call("search_wines", {**filters, "limit": 5}))
    found: list[JSONDict] = []
    for message in results:
        payload = json.loads(message["content"])
        found += payload.get("wines", []) if isinstance(payload, dict) else []
    if not found:
        return reply("К сожалению, под эти условия в каталоге ничего не нашлось.")
    return _answer([(w["id"], list(w.get("grapes") or []), str(w["country"])) for w in found])


async def _serve() -> None:
    async with FakeOpenAIServer(api_key="inventing-key", embedding_dim=1536) as server:
        install(server)
        print(
            f"LLM_BASE_URL={server.base_url} LLM_API_KEY=inventing-key "
            f"LLM_MODEL={INVENTING_MODEL} "
            'sommelier ask --json "красное сухое к стейку"   (Ctrl+C stops the server)',
            flush=True,
        )
        await asyncio.Event().wait()


if __name__ == "__main__":
    try:
        asyncio.run(_serve())
    except KeyboardInterrupt:
        sys.exit(0)
