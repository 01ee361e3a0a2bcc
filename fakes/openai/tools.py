"""The tools of a chat request as the real API checks them: names, JSON schemas (strict mode
included) and ``tool_choice``."""

from __future__ import annotations

import re
from typing import Any

from fakes.openai.protocol import (
    MISSING,
    Invalid,
    check_keys,
    empty_array,
    invalid_type,
    invalid_value,
    missing_param,
)

TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]+$")
JSON_SCHEMA_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


def _validate_schema(schema: Any, fn_name: str, strict: bool, context: tuple[str, ...]) -> None:
    prefix = f"Invalid schema for function '{fn_name}':"
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise Invalid(
            f"{prefix} {schema!r} is not of type 'object', 'boolean'.",
            param="tools",
            code="invalid_function_parameters",
        )
    stype = schema.get("type")
    if stype is not None:
        types = stype if isinstance(stype, list) else [stype]
        for t in types:
            if not isinstance(t, str) or t not in JSON_SCHEMA_TYPES:
                raise Invalid(
                    f"{prefix} {stype!r} is not valid under any of the given schemas.",
                    param="tools",
                    code="invalid_function_parameters",
                )
    props = schema.get("properties")
    if props is not None and not isinstance(props, dict):
        raise Invalid(
            f"{prefix} {props!r} is not of type 'object'.",
            param="tools",
            code="invalid_function_parameters",
        )
    required = schema.get("required")
    if required is not None and (
        not isinstance(required, list) or not all(isinstance(r, str) for r in required)
    ):
        raise Invalid(
            f"{prefix} {required!r} is not of type 'array'.",
            param="tools",
            code="invalid_function_parameters",
        )
    is_object = stype == "object" or (isinstance(stype, list) and "object" in stype)
    if strict and is_object:
        ctx = f"In context={context!r}"
        if schema.get("additionalProperties") is not False:
            raise Invalid(
                f"{prefix} {ctx}, 'additionalProperties' is required to be supplied and to "
                "be false.",
                param="tools",
                code="invalid_function_parameters",
            )
        missing = [k for k in (props or {}) if k not in (required or [])]
        if missing:
            raise Invalid(
                f"{prefix} {ctx}, 'required' is required to be supplied and to be an array "
                f"including every key in properties. Missing '{missing[0]}'.",
                param="tools",
                code="invalid_function_parameters",
            )
    for key, sub in (props or {}).items():
        _validate_schema(sub, fn_name, strict, (*context, "properties", key))
    items = schema.get("items")
    if items is not None:
        _validate_schema(items, fn_name, strict, (*context, "items"))
    for combinator in ("anyOf", "oneOf", "allOf"):
        subs = schema.get(combinator)
        if isinstance(subs, list):
            for n, sub in enumerate(subs):
                _validate_schema(sub, fn_name, strict, (*context, combinator, str(n)))
    for defs_key in ("$defs", "definitions"):
        defs = schema.get(defs_key)
        if isinstance(defs, dict):
            for key, sub in defs.items():
                _validate_schema(sub, fn_name, strict, (*context, defs_key, key))


def validate_tools(tools: Any) -> list[str]:
    if not isinstance(tools, list):
        raise invalid_type("tools", "an array", tools)
    if not tools:
        raise empty_array("tools")
    names: list[str] = []
    for i, tool in enumerate(tools):
        path = f"tools[{i}]"
        if not isinstance(tool, dict):
            raise invalid_type(path, "an object", tool)
        check_keys(tool, frozenset({"type", "function"}), path)
        ttype = tool.get("type", MISSING)
        if ttype is MISSING or ttype is None:
            raise missing_param(f"{path}.type")
        if ttype != "function":
            raise invalid_value(f"{path}.type", ttype, ["function"])
        fn = tool.get("function", MISSING)
        if fn is MISSING or fn is None:
            raise missing_param(f"{path}.function")
        if not isinstance(fn, dict):
            raise invalid_type(f"{path}.function", "an object", fn)
        check_keys(
            fn, frozenset({"name", "description", "parameters", "strict"}), f"{path}.function"
        )
        name = fn.get("name", MISSING)
        npath = f"{path}.function.name"
        if name is MISSING or name is None:
            raise missing_param(npath)
        if not isinstance(name, str):
            raise invalid_type(npath, "a string", name)
        if len(name) > 64:
            raise Invalid(
                f"Invalid '{npath}': string too long. Expected a string with maximum length 64, "
                f"but got a string with length {len(name)} instead.",
                param=npath,
                code="string_above_max_length",
            )
        if not TOOL_NAME_RE.match(name):
            raise Invalid(
                f"Invalid '{npath}': string does not match pattern. Expected a string that "
                "matches the pattern '^[a-zA-Z0-9_-]+$'.",
                param=npath,
                code="invalid_value",
            )
        if name in names:
            raise Invalid(
                f"Invalid 'tools': duplicate function name '{name}'. Function names must be "
                "unique.",
                param="tools",
                code="invalid_value",
            )
        names.append(name)
        desc = fn.get("description")
        if desc is not None and not isinstance(desc, str):
            raise invalid_type(f"{path}.function.description", "a string", desc)
        strict = fn.get("strict")
        if strict is not None and not isinstance(strict, bool):
            raise invalid_type(f"{path}.function.strict", "a boolean", strict)
        params = fn.get("parameters")
        if params is not None:
            if not isinstance(params, dict):
                raise invalid_type(f"{path}.function.parameters", "an object", params)
            if params and params.get("type") != "object":
                raise Invalid(
                    f"Invalid schema for function '{name}': schema must be a JSON Schema of "
                    f"'type: \"object\"', got 'type: \"{params.get('type')}\"'.",
                    param=f"{path}.function.parameters",
                    code="invalid_function_parameters",
                )
            _validate_schema(params, name, bool(strict), ())
        elif strict:
            raise missing_param(f"{path}.function.parameters")
    return names


def validate_tool_choice(choice: Any, tool_names: list[str]) -> None:
    if isinstance(choice, str):
        if choice not in ("none", "auto", "required"):
            raise invalid_value("tool_choice", choice, ["none", "auto", "required"])
        return
    if not isinstance(choice, dict):
        raise invalid_type("tool_choice", "one of a string or object", choice)
    if choice.get("type") != "function":
        raise invalid_value("tool_choice.type", choice.get("type"), ["function"])
    check_keys(choice, frozenset({"type", "function"}), "tool_choice")
    fn = choice.get("function")
    if not isinstance(fn, dict):
        raise missing_param("tool_choice.function")
    name = fn.get("name")
    if not isinstance(name, str):
        raise missing_param("tool_choice.function.name")
    if name not in tool_names:
        raise Invalid(
            f"Invalid value for 'tool_choice': function '{name}' was not found in 'tools'.",
            param="tool_choice",
            code="invalid_value",
        )
