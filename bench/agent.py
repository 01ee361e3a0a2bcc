"""Agent overhead and prompt economy against a fake LLM that answers instantly.

Overhead is what an answer costs besides waiting for the LLM: the SommelierService's own
`total - llm` timing (prompt building, tool calls on the catalog, parsing, resolving wines).
Prompt economy compares the characters sent per answer on the agent path with the
random-catalog prompt path for the same questions, in the same run.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench import llm_script
from bench.stats import Summary
from core.settings import Settings
from fakes.openai_server import FakeOpenAIServer
from services.agent import CHARS_PER_TOKEN, SommelierService, UserContext
from services.llm.client import LLMClient
from services.llm.embeddings import EmbeddingService


@dataclass
class AgentReport:
    size: int
    overhead: Summary
    tools: Summary
    total: Summary
    paths: dict[str, int]
    answers: int
    variant: str = "current"
    # The grounded-prose check of the model's text (services/agent/_grounding.py) per answer.
    grounding: Summary = field(default_factory=lambda: Summary.of([]))


@dataclass
class EconomyReport:
    questions: int
    agent_chars: Summary
    catalog_chars: Summary
    agent_paths: dict[str, int]
    catalog_paths: dict[str, int]
    agent_parts: dict[str, float] = field(default_factory=dict)  # mean chars per answer
    catalog_parts: dict[str, float] = field(default_factory=dict)
    # Share of the agent path's characters that is the same for every person and turn.
    stable_share: float = 0.0
    agent_calls: float = 0.0  # LLM calls per answer on the agent path

    @property
    def ratio(self) -> float:
        return self.agent_chars.mean / self.catalog_chars.mean if self.catalog_chars.mean else 0.0

    @staticmethod
    def tokens(chars: float) -> float:
        return chars / CHARS_PER_TOKEN


def llm_settings(settings: Settings, base_url: str) -> Settings:
    return settings.model_copy(
        update={
            "llm_api_key": llm_script.API_KEY,
            "llm_base_url": base_url,
            "llm_max_retries": 0,
            "llm_timeout_seconds": 30.0,
            "embedding_api_key": llm_script.API_KEY,
            "embedding_base_url": base_url,
        }
    )


def _parts(requests: Sequence[dict[str, Any]], answers: int) -> dict[str, float]:
    """Mean characters per answer by where they come from."""
    totals: Counter[str] = Counter()
    for body in requests:
        for message in body["messages"]:
            content = message.get("content") or ""
            size = len(content) if isinstance(content, str) else 0
            role = message["role"]
            totals["system prompt" if role == "system" else f"{role} messages"] += size
            for call in message.get("tool_calls") or []:
                totals["tool calls"] += len(call["function"]["name"]) + len(
                    call["function"]["arguments"]
                )
        if body.get("tools"):
            totals["tool schemas"] += len(json.dumps(body["tools"], ensure_ascii=False))
    return {k: v / max(answers, 1) for k, v in sorted(totals.items())}


def _stable_share(requests: Sequence[dict[str, Any]], fixed: str) -> float:
    """How much of what is sent is a prefix identical across people and turns: the tool schemas
    and the system prompt up to where the per-person context begins (measured as the common
    prefix of each system message with `fixed`, the instructions around an empty context)."""
    stable = total = 0
    for body in requests:
        prefix = 0
        if body.get("tools"):
            prefix = len(json.dumps(body["tools"], ensure_ascii=False))
        messages = body["messages"]
        system = messages[0].get("content") or "" if messages else ""
        prefix += _common_prefix(system, fixed)
        size = sum(_chars(m) for m in messages)
        if body.get("tools"):
            size += len(json.dumps(body["tools"], ensure_ascii=False))
        stable += prefix
        total += size
    return stable / total if total else 0.0


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _chars(message: dict[str, Any]) -> int:
    content = message.get("content") or ""
    size = len(content) if isinstance(content, str) else 0
    for call in message.get("tool_calls") or []:
        size += len(call["function"]["name"]) + len(call["function"]["arguments"])
    return size


async def _answer_all(
    service: SommelierService, questions: Sequence[str]
) -> list[tuple[float, float, float, int, str, float]]:
    out = []
    for question in questions:
        rec = await service.generate_response(UserContext(None), question)
        t = rec.timings_ms
        out.append(
            (t["overhead"], t["tools"], t["total"], rec.prompt_chars, rec.path, t["grounding"])
        )
    return out


async def run_agent(
    sessions: async_sessionmaker[AsyncSession],
    settings: Settings,
    size: int,
    questions: Sequence[str],
    *,
    rounds: int = 2,
    economy: bool = False,
) -> tuple[AgentReport, EconomyReport | None]:
    async with FakeOpenAIServer(
        api_key=llm_script.API_KEY, embedding_dim=settings.embedding_dim
    ) as server:
        s = llm_settings(settings, server.base_url)
        llm = LLMClient(s)
        embeddings = EmbeddingService(s)
        try:
            service = SommelierService(s, sessions, llm, embeddings)
            llm_script.script(server, 3 * len(questions) * (rounds + 1))
            await _answer_all(service, questions)  # warm-up
            server.requests.clear()
            runs: list[tuple[float, float, float, int, str, float]] = []
            agent_requests: list[dict[str, Any]] = []
            for index in range(rounds):
                runs += await _answer_all(service, questions)
                if index == 0:
                    agent_requests = list(server.requests)
            report = AgentReport(
                size=size,
                overhead=Summary.of([r[0] for r in runs if r[4] == "agent"]),
                tools=Summary.of([r[1] for r in runs if r[4] == "agent"]),
                total=Summary.of([r[2] for r in runs if r[4] == "agent"]),
                paths=dict(Counter(r[4] for r in runs)),
                answers=len(runs),
                grounding=Summary.of([r[5] for r in runs if r[4] == "agent"]),
            )
            if not economy:
                return report, None
            first = runs[: len(questions)]
            server.reset()
            llm_script.script(server, 3 * len(questions), force_catalog=True)
            catalog = await _answer_all(service, questions)
            catalog_requests = [b for b in server.requests if not b.get("tools")]
            eco = EconomyReport(
                questions=len(questions),
                agent_chars=Summary.of([float(r[3]) for r in first]),
                catalog_chars=Summary.of([float(r[3]) for r in catalog]),
                agent_paths=dict(Counter(r[4] for r in first)),
                catalog_paths=dict(Counter(r[4] for r in catalog)),
                agent_parts=_parts(agent_requests, len(questions)),
                catalog_parts=_parts(catalog_requests, len(questions)),
                stable_share=_stable_share(agent_requests, service.instructions()),
                agent_calls=len(agent_requests) / max(len(questions), 1),
            )
            return report, eco
        finally:
            await llm.close()
            await embeddings.close()
