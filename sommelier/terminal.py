"""`sommelier ask` and `sommelier chat`: the agent in a terminal."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from repositories.types import format_price
from repositories.users import UserRepository
from services.events import Final, Observation, Thought, ToolInvoked
from services.recommendation import Recommendation
from services.sommelier import UserContext
from sommelier.app import build_services
from sommelier.runtime import Runtime

DIM = "\033[2m"
BOLD = "\033[1m"
RESET = "\033[0m"
MAX_QUERY_CHARS = 1000


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


async def _user_context(rt: Runtime, user_id: int | None) -> UserContext:
    if user_id is None:
        return UserContext()
    async with rt.sessions() as session:
        user = await UserRepository(session).get(user_id)
    if user is None:
        return UserContext(user_id=user_id)
    return UserContext(user_id, dict(user.taste_profile or {}), user.language_code)


async def ask(rt: Runtime, text: str, as_json: bool, user_id: int | None) -> int:
    text = text.strip()
    if not text:
        print("sommelier: the question is empty", file=sys.stderr)
        return 2
    if len(text) > MAX_QUERY_CHARS:
        print(
            f"sommelier: the question is longer than {MAX_QUERY_CHARS} characters", file=sys.stderr
        )
        return 2
    await rt.ensure_ready()
    services = build_services(rt)
    try:
        user = await _user_context(rt, user_id)
        rec = await services.sommelier.generate_response(user, text, [])
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
    history: list[dict[str, Any]] = []
    mode = "с ИИ" if services.llm.configured else "без ИИ (LLM_API_KEY не задан)"
    print(f"Сомелье слушает ({mode}). Спросите о вине; пустая строка или Ctrl+D — выход.")
    try:
        while True:
            try:
                text = (await asyncio.to_thread(input, "\nвы › ")).strip()
            except EOFError:
                break
            if not text:
                break
            if len(text) > MAX_QUERY_CHARS:
                print(f"Пожалуйста, короче: до {MAX_QUERY_CHARS} символов.")
                continue
            async for event in services.sommelier.stream(UserContext(), text, history):
                line = _describe_event(event)
                if line:
                    print(line)
                if isinstance(event, Final):
                    rec: Recommendation = event.result
                    history.extend(rec.new_messages)
                    print("\n" + format_recommendation(rec))
    except KeyboardInterrupt:
        pass
    finally:
        await services.close()
    print("\nДо встречи!")
    return 0
