"""`sommelier ask` and `sommelier chat`: the agent in a terminal."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from core.domain import format_price
from core.recommendation import Recommendation
from services.agent import Final, Observation, Thought, ToolInvoked
from services.app.container import build_services
from services.app.runtime import Runtime
from services.app.texts import T

DIM = "\033[2m"
BOLD = "\033[1m"
RESET = "\033[0m"
# The terminal's own conversation is stored like a chat's, under an id no Telegram user has.
TERMINAL_USER_ID = 0


def _style(code: str, text: str) -> str:
    return f"{code}{text}{RESET}" if sys.stdout.isatty() else text


def format_recommendation(rec: Recommendation) -> str:
    lines = [rec.intro] if rec.intro else []
    for i, wine in enumerate(rec.wines, 1):
        place = ", ".join(x for x in (wine.country, wine.region) if x)
        lines.append("")
        lines.append(_style(BOLD, f"{i}. {wine.name}") + f" — {wine.producer}, {place}")
        lines.append(f"   {format_price(wine.price_rub)} · {', '.join(wine.grape_varieties)}")
        lines.append(f"   {wine.why}")
    if rec.closing:
        lines += ["", rec.closing]
    return "\n".join(lines)


async def ask(rt: Runtime, text: str, as_json: bool, user_id: int | None) -> int:
    services = build_services(rt)
    try:
        admitted = services.admission.admit(text, who=user_id)
        if not admitted.ok:
            refusal = T.ask_empty if admitted.refusal == "empty" else T.ask_too_long
            print(refusal.format(limit=admitted.limit), file=sys.stderr)
            return 2
        await rt.ensure_ready()
        rec = await services.turns.answer(user_id, admitted.text, remember=False)
    finally:
        await services.close()
    if as_json:
        print(json.dumps(rec.public_json(), ensure_ascii=False))
    else:
        print(format_recommendation(rec))
    return 0


def _describe_event(event: Any) -> str | None:
    if isinstance(event, ToolInvoked):
        args = json.dumps(event.input, ensure_ascii=False)
        return _style(DIM, f"  → {event.tool} {args}")
    if isinstance(event, Observation):
        mark = "✓" if event.ok else "✗"
        return _style(DIM, f"  {mark} {event.tool}: {event.summary} ({event.took_ms:.0f} ms)")
    if isinstance(event, Thought):
        return _style(DIM, f"  … {event.content}")
    return None


async def chat(rt: Runtime) -> int:
    await rt.ensure_ready()
    services = build_services(rt)
    turns = services.turns
    await services.people.new_conversation(TERMINAL_USER_ID)
    print(T.terminal_greeting(llm=services.llm.configured))
    try:
        while True:
            try:
                said = await asyncio.to_thread(input, T.terminal_prompt)
            except EOFError:
                break
            if not said.strip():
                break  # an empty line ends the conversation
            admitted = services.admission.admit(said, who=TERMINAL_USER_ID)
            if admitted.refusal == "too_long":
                print(T.terminal_too_long.format(limit=admitted.limit))
            if not admitted.ok:
                continue
            async for event in turns.stream(TERMINAL_USER_ID, admitted.text):
                line = _describe_event(event)
                if line:
                    print(line)
                if isinstance(event, Final):
                    rec: Recommendation = event.result
                    print("\n" + format_recommendation(rec))
    except KeyboardInterrupt:
        pass
    finally:
        await services.close()
    print(T.terminal_goodbye)
    return 0
