"""Tools as typed definitions: one place generates the LLM schemas and the prompt section."""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from core.errors import CatalogFilterError, ToolArgumentsError
from services.agent._tool_arguments import normalize

A = TypeVar("A", bound=BaseModel)


@dataclass
class ToolOutput:
    payload: dict[str, Any]
    wine_ids: list[uuid.UUID] = field(default_factory=list)
    summary: str = ""


@dataclass(frozen=True)
class Tool(Generic[A]):
    name: str
    description: str
    args_model: type[A]
    handler: Callable[[A], Awaitable[ToolOutput]]
    timeout: float | None = None

    @property
    def parameter_names(self) -> frozenset[str]:
        return frozenset(self.args_model.model_fields)

    def json_schema(self) -> dict[str, Any]:
        return _schema_of(self.args_model)

    def openai_spec(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.json_schema(),
            },
        }


@dataclass
class ToolResult:
    """What one call produced: the text the model receives and what the service keeps."""

    name: str
    ok: bool
    content: str
    arguments: dict[str, Any]
    took_ms: float
    wine_ids: list[uuid.UUID] = field(default_factory=list)
    summary: str = ""
    wines: list[dict[str, Any]] = field(default_factory=list)  # the briefs the model got


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool[Any]], default_timeout: float = 10.0) -> None:
        self._tools: dict[str, Tool[Any]] = {}
        for tool in tools:
            if tool.name in self._tools:
                raise ValueError(f"duplicate tool name {tool.name}")
            self._tools[tool.name] = tool
        self.default_timeout = default_timeout
        self._specs: list[dict[str, Any]] | None = None

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def restricted(self, allowlist: Iterable[str] | None) -> ToolRegistry:
        if allowlist is None:
            return self
        allowed = set(allowlist)
        return ToolRegistry(
            [t for n, t in self._tools.items() if n in allowed], self.default_timeout
        )

    def openai_specs(self) -> list[dict[str, Any]]:
        """The schemas sent with every model call: built once (the tools never change), the
        same list each time, so the LLM client measures it once too."""
        if self._specs is None:
            self._specs = [tool.openai_spec() for tool in self._tools.values()]
        return self._specs

    def prompt_section(self) -> str:
        """The tools part of the system prompt, generated from the same schemas.

        Names and purposes only: the full types, enums and bounds travel in the function
        schemas of every request, so repeating them here would only cost tokens.
        """
        lines = []
        for tool in self._tools.values():
            schema = tool.json_schema()
            required = set(schema.get("required", []))
            params = ", ".join(
                f"`{name}` (обязательный)" if name in required else f"`{name}`"
                for name in schema.get("properties", {})
            )
            lines.append(f"- `{tool.name}`: {tool.description} Параметры: {params}.")
        return "\n".join(lines)

    async def execute(self, name: str, raw_arguments: str | dict[str, Any] | None) -> ToolResult:
        """Run one call. Every failure becomes result text for the model; nothing raises."""
        started = time.perf_counter()

        def fail(message: str, arguments: dict[str, Any] | None = None) -> ToolResult:
            took = (time.perf_counter() - started) * 1000
            content = json.dumps({"error": message}, ensure_ascii=False, separators=(",", ":"))
            return ToolResult(name, False, content, arguments or {}, took, summary=message)

        tool = self._tools.get(name)
        if tool is None:
            return fail(f"unknown tool '{name}'; available tools: {', '.join(self._tools)}")
        try:
            normalized = normalize(raw_arguments, tool.parameter_names)
        except ToolArgumentsError as exc:
            return fail(f"{exc}; send a JSON object with the parameters of {name}")
        try:
            arguments = tool.args_model.model_validate(normalized.arguments)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in exc.errors()
            )
            return fail(f"invalid arguments for {name}: {problems}", normalized.arguments)
        try:
            output = await asyncio.wait_for(
                tool.handler(arguments), timeout=tool.timeout or self.default_timeout
            )
        except TimeoutError:
            return fail(f"{name} timed out; try narrower filters", normalized.arguments)
        except Exception as exc:  # a tool must never break the agent loop
            return fail(f"{name} failed: {_public_error(exc)}", normalized.arguments)
        payload = dict(output.payload)
        if normalized.notes:
            payload["notes"] = normalized.notes
        took = (time.perf_counter() - started) * 1000
        return ToolResult(
            name,
            True,
            json.dumps(payload, ensure_ascii=False, default=str, separators=(",", ":")),
            arguments.model_dump(mode="json", exclude_none=True),
            took,
            output.wine_ids,
            output.summary,
            list(output.payload.get("wines") or []),
        )


def _public_error(exc: Exception) -> str:
    if isinstance(exc, CatalogFilterError):
        return str(exc)
    return type(exc).__name__


@functools.cache
def _schema_of(model: type[BaseModel]) -> dict[str, Any]:
    # pydantic rebuilds a schema on every call (~2.5 ms each, four per answer); models are static.
    return _clean_schema(model.model_json_schema())


# Bounds only the validation needs: a model never nears them, and a call past one is answered
# with the validation error. Sent with every call, they would cost tokens on each.
_VALIDATION_ONLY = frozenset({"maxLength", "minLength", "maxItems"})


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Inline $defs, drop titles, defaults, validation-only bounds and a zero minimum, and
    collapse Optional[...] into a plain typed property."""
    defs = schema.get("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = copy.deepcopy(defs[node["$ref"].rsplit("/", 1)[-1]])
                extra = {k: v for k, v in node.items() if k != "$ref"}
                return resolve({**target, **extra})
            if "anyOf" in node:
                options = [o for o in node["anyOf"] if o.get("type") != "null"]
                if len(options) == 1:
                    merged = {**{k: v for k, v in node.items() if k != "anyOf"}, **options[0]}
                    return resolve(merged)
            return {
                k: resolve(v)
                for k, v in node.items()
                if k not in ("title", "$defs")
                and k not in _VALIDATION_ONLY
                and k != "default"  # an argument left out is the default: no need to say it
                and not (k == "minimum" and v == 0)
            }
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    cleaned = resolve(schema)
    cleaned["additionalProperties"] = False
    return cleaned
