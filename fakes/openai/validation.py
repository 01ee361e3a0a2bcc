"""A chat completion request as strictly as the real API validates it: the arguments and their
ranges, every message and content part, the pairing of assistant ``tool_calls`` with tool
messages, ``response_format`` (the tools themselves: tools.py; images: media.py)."""

from __future__ import annotations

from typing import Any

from fakes.openai.media import IMAGE_DETAILS, validate_image_url
from fakes.openai.protocol import (
    MISSING,
    Invalid,
    JSONDict,
    check_bool,
    check_keys,
    check_number,
    content_text,
    empty_array,
    invalid_type,
    invalid_value,
    missing_param,
    validate_keys_and_model,
)
from fakes.openai.tools import validate_tool_choice, validate_tools

CHAT_ALLOWED_KEYS = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "temperature",
        "top_p",
        "max_tokens",
        "max_completion_tokens",
        "stream",
        "stream_options",
        "n",
        "stop",
        "presence_penalty",
        "frequency_penalty",
        "seed",
        "response_format",
        "user",
        "logit_bias",
        "logprobs",
        "top_logprobs",
        "metadata",
        "store",
        "service_tier",
        "reasoning_effort",
    }
)

ROLES = ("system", "assistant", "user", "tool", "developer")
MESSAGE_KEYS: dict[str, frozenset[str]] = {
    "system": frozenset({"role", "content", "name"}),
    "developer": frozenset({"role", "content", "name"}),
    "user": frozenset({"role", "content", "name"}),
    # What the SDK echoes back when a response message is appended to the history.
    "assistant": frozenset(
        {
            "role",
            "content",
            "name",
            "tool_calls",
            "refusal",
            "audio",
            "function_call",
            "annotations",
        }
    ),
    "tool": frozenset({"role", "content", "tool_call_id"}),
}
PART_TYPES: dict[str, tuple[str, ...]] = {
    "system": ("text",),
    "developer": ("text",),
    "user": ("text", "image_url", "input_audio", "file"),
    "assistant": ("text", "refusal"),
    "tool": ("text",),
}
PART_KEYS: dict[str, frozenset[str]] = {
    "text": frozenset({"type", "text"}),
    "image_url": frozenset({"type", "image_url"}),
    "input_audio": frozenset({"type", "input_audio"}),
    "file": frozenset({"type", "file"}),
    "refusal": frozenset({"type", "refusal"}),
}


def _validate_content(content: Any, role: str, path: str) -> None:
    if isinstance(content, str):
        return
    if not isinstance(content, list):
        raise invalid_type(path, "one of a string or array of objects", content)
    if not content:
        raise empty_array(path)
    allowed = PART_TYPES[role]
    for j, part in enumerate(content):
        ppath = f"{path}[{j}]"
        if not isinstance(part, dict):
            raise invalid_type(ppath, "an object", part)
        ptype = part.get("type", MISSING)
        if ptype is MISSING:
            raise missing_param(f"{ppath}.type")
        if ptype not in allowed:
            raise invalid_value(f"{ppath}.type", ptype, allowed)
        check_keys(part, PART_KEYS[ptype], ppath)
        if ptype in ("text", "refusal"):
            value = part.get(ptype, MISSING)
            if value is MISSING:
                raise missing_param(f"{ppath}.{ptype}")
            if not isinstance(value, str):
                raise invalid_type(f"{ppath}.{ptype}", "a string", value)
        elif ptype == "image_url":
            image = part.get("image_url", MISSING)
            if image is MISSING:
                raise missing_param(f"{ppath}.image_url")
            if not isinstance(image, dict):
                raise invalid_type(f"{ppath}.image_url", "an object", image)
            check_keys(image, frozenset({"url", "detail"}), f"{ppath}.image_url")
            if not isinstance(image.get("url"), str):
                raise missing_param(f"{ppath}.image_url.url")
            validate_image_url(image["url"], f"{ppath}.image_url.url")
            detail = image.get("detail", "auto")
            if detail not in IMAGE_DETAILS:
                raise invalid_value(f"{ppath}.image_url.detail", detail, IMAGE_DETAILS)
        else:
            inner = part.get(ptype, MISSING)
            if inner is MISSING:
                raise missing_param(f"{ppath}.{ptype}")
            if not isinstance(inner, dict):
                raise invalid_type(f"{ppath}.{ptype}", "an object", inner)


def _validate_message_tool_calls(calls: Any, path: str) -> list[str]:
    if not isinstance(calls, list):
        raise invalid_type(path, "an array of objects", calls)
    if not calls:
        raise empty_array(path)
    ids: list[str] = []
    for k, tc in enumerate(calls):
        tpath = f"{path}[{k}]"
        if not isinstance(tc, dict):
            raise invalid_type(tpath, "an object", tc)
        check_keys(tc, frozenset({"id", "type", "function"}), tpath)
        tc_id = tc.get("id", MISSING)
        if tc_id is MISSING or tc_id is None:
            raise missing_param(f"{tpath}.id")
        if not isinstance(tc_id, str):
            raise invalid_type(f"{tpath}.id", "a string", tc_id)
        tc_type = tc.get("type", MISSING)
        if tc_type is MISSING or tc_type is None:
            raise missing_param(f"{tpath}.type")
        if tc_type != "function":
            raise invalid_value(f"{tpath}.type", tc_type, ["function"])
        fn = tc.get("function", MISSING)
        if fn is MISSING or fn is None:
            raise missing_param(f"{tpath}.function")
        if not isinstance(fn, dict):
            raise invalid_type(f"{tpath}.function", "an object", fn)
        check_keys(fn, frozenset({"name", "arguments"}), f"{tpath}.function")
        for key in ("name", "arguments"):
            value = fn.get(key, MISSING)
            if value is MISSING or value is None:
                raise missing_param(f"{tpath}.function.{key}")
            if not isinstance(value, str):
                raise invalid_type(f"{tpath}.function.{key}", "a string", value)
        ids.append(tc_id)
    return ids


def _validate_messages(messages: Any) -> None:
    if messages is None:
        raise missing_param("messages")
    if not isinstance(messages, list):
        raise invalid_type("messages", "an array", messages)
    if not messages:
        raise empty_array("messages")

    for i, msg in enumerate(messages):
        path = f"messages[{i}]"
        if not isinstance(msg, dict):
            raise invalid_type(path, "an object", msg)
        role = msg.get("role", MISSING)
        if role is MISSING or role is None:
            raise missing_param(f"{path}.role")
        if role not in ROLES:
            raise invalid_value(f"{path}.role", role, ROLES)
        check_keys(msg, MESSAGE_KEYS[role], path)
        name = msg.get("name")
        if name is not None and not isinstance(name, str):
            raise invalid_type(f"{path}.name", "a string", name)

        content = msg.get("content", MISSING)
        if role == "assistant":
            calls = msg.get("tool_calls")
            if calls is not None:
                _validate_message_tool_calls(calls, f"{path}.tool_calls")
            has_other = any(msg.get(k) is not None for k in ("function_call", "audio"))
            if content is MISSING or content is None:
                if calls is None and not has_other:
                    raise Invalid(
                        "Invalid value for 'content': expected a string, got null.",
                        param=f"messages.[{i}].content",
                    )
            else:
                _validate_content(content, role, f"{path}.content")
        else:
            if content is MISSING:
                raise missing_param(f"{path}.content")
            _validate_content(content, role, f"{path}.content")
        if role == "tool":
            tcid = msg.get("tool_call_id", MISSING)
            if tcid is MISSING or tcid is None:
                raise missing_param(f"{path}.tool_call_id")
            if not isinstance(tcid, str):
                raise invalid_type(f"{path}.tool_call_id", "a string", tcid)

    _validate_pairing(messages)


def _validate_pairing(messages: list[JSONDict]) -> None:
    """Every assistant ``tool_calls`` must be answered by tool messages right after it."""
    pending: list[str] = []
    in_tool_block = False
    for i, msg in enumerate(messages):
        role = msg["role"]
        if role == "tool":
            tcid = msg["tool_call_id"]
            if not in_tool_block or tcid not in pending:
                raise Invalid(
                    "Invalid parameter: messages with role 'tool' must be a response to a "
                    "preceeding message with 'tool_calls'.",
                    param=f"messages.[{i}].role",
                )
            pending.remove(tcid)
            continue
        if pending:
            raise _pairing_error(pending, i)
        in_tool_block = False
        if role == "assistant" and msg.get("tool_calls"):
            pending = [tc["id"] for tc in msg["tool_calls"]]
            in_tool_block = True
    if pending:
        raise _pairing_error(pending, len(messages))


def _pairing_error(pending: list[str], index: int) -> Invalid:
    return Invalid(
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        + ", ".join(pending),
        param=f"messages.[{index}].role",
    )


def validate_chat(body: JSONDict) -> None:
    validate_keys_and_model(body, CHAT_ALLOWED_KEYS)
    if "messages" not in body:
        raise missing_param("messages")
    _validate_messages(body["messages"])

    check_number(body, "temperature", minimum=0, maximum=2)
    check_number(body, "top_p", minimum=0, maximum=1)
    check_number(body, "presence_penalty", minimum=-2, maximum=2)
    check_number(body, "frequency_penalty", minimum=-2, maximum=2)
    check_number(body, "max_tokens", integer=True, minimum=1)
    check_number(body, "max_completion_tokens", integer=True, minimum=1)
    check_number(body, "n", integer=True, minimum=1, maximum=128)
    check_number(body, "seed", integer=True)
    check_number(body, "top_logprobs", integer=True, minimum=0, maximum=20)
    for key in ("stream", "logprobs", "store", "parallel_tool_calls"):
        check_bool(body, key)
    for key in ("user", "service_tier", "reasoning_effort"):
        value = body.get(key)
        if value is not None and not isinstance(value, str):
            raise invalid_type(key, "a string", value)
    for key in ("metadata", "logit_bias"):
        value = body.get(key)
        if value is not None and not isinstance(value, dict):
            raise invalid_type(key, "an object", value)

    stop = body.get("stop")
    if stop is not None and not isinstance(stop, str):
        if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
            raise invalid_type("stop", "one of a string or array of strings", stop)
        if len(stop) > 4:
            raise Invalid(
                f"Invalid 'stop': array too long. Expected an array with maximum length 4, "
                f"but got an array with length {len(stop)} instead.",
                param="stop",
                code="array_above_max_length",
            )

    stream_options = body.get("stream_options")
    if stream_options is not None:
        if not isinstance(stream_options, dict):
            raise invalid_type("stream_options", "an object", stream_options)
        check_keys(
            stream_options, frozenset({"include_usage", "include_obfuscation"}), "stream_options"
        )
        if body.get("stream") is not True:
            raise Invalid(
                "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                param="stream_options",
                code="invalid_value",
            )

    if body.get("top_logprobs") is not None and body.get("logprobs") is not True:
        raise Invalid(
            "Invalid value for 'logprobs': must be true when 'top_logprobs' is specified.",
            param="logprobs",
            code="invalid_value",
        )

    tools = body.get("tools")
    tool_names: list[str] = []
    if tools is not None:
        tool_names = validate_tools(tools)
    if body.get("parallel_tool_calls") is not None and tools is None:
        raise Invalid(
            "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed "
            "when 'tools' are specified.",
            param="parallel_tool_calls",
            code="invalid_value",
        )
    if body.get("tool_choice") is not None:
        if tools is None:
            raise Invalid(
                "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' "
                "are specified.",
                param="tool_choice",
                code="invalid_value",
            )
        validate_tool_choice(body["tool_choice"], tool_names)

    fmt = body.get("response_format")
    if fmt is not None:
        if not isinstance(fmt, dict):
            raise invalid_type("response_format", "an object", fmt)
        ftype = fmt.get("type", MISSING)
        if ftype is MISSING:
            raise missing_param("response_format.type")
        if ftype not in ("text", "json_object", "json_schema"):
            raise invalid_value(
                "response_format.type", ftype, ["text", "json_object", "json_schema"]
            )
        if ftype == "json_schema":
            schema = fmt.get("json_schema")
            if not isinstance(schema, dict):
                raise missing_param("response_format.json_schema")
            sname = schema.get("name")
            if not isinstance(sname, str):
                raise missing_param("response_format.json_schema.name")
        if ftype == "json_object":
            text = " ".join(content_text(m.get("content")) for m in body["messages"])
            if "json" not in text.lower():
                raise Invalid(
                    "'messages' must contain the word 'json' in some form, to use "
                    "'response_format' of type 'json_object'.",
                    param="messages",
                )
