"""The OpenAI API's wire protocol as the fake speaks it: the error it answers (``Invalid``, the
real API's defaults per status) and the checks every request validation is built of, in the
real API's words."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

JSONDict = dict[str, Any]


class Invalid(Exception):
    def __init__(
        self,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        status: int = 400,
        type: str = "invalid_request_error",
    ) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.code = code
        self.status = status
        self.type = type


MISSING = object()

ERROR_DEFAULTS: dict[int, tuple[str, str | None, str]] = {
    400: ("invalid_request_error", None, "Bad request."),
    401: (
        "invalid_request_error",
        "invalid_api_key",
        "Incorrect API key provided. You can find your API key at "
        "https://platform.openai.com/account/api-keys.",
    ),
    403: (
        "invalid_request_error",
        "unsupported_country_region_territory",
        "Country, region, or territory not supported",
    ),
    404: (
        "invalid_request_error",
        "model_not_found",
        "The model does not exist or you do not have access to it.",
    ),
    408: ("timeout", None, "Request timed out."),
    409: ("invalid_request_error", None, "Conflict."),
    422: ("invalid_request_error", None, "Unprocessable entity."),
    429: (
        "requests",
        "rate_limit_exceeded",
        "Rate limit reached for requests. Please try again in 1s.",
    ),
    500: (
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    502: ("server_error", None, "Bad gateway."),
    503: (
        "server_error",
        "service_unavailable",
        "The engine is currently overloaded, please try again later.",
    ),
    504: ("server_error", None, "Gateway timeout."),
}


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "decimal"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def invalid_type(param: str, expected: str, value: Any) -> Invalid:
    got = _type_name(value)
    return Invalid(
        f"Invalid type for '{param}': expected {expected}, but got {_article(got)} {got} instead.",
        param=param,
        code="invalid_type",
    )


def missing_param(param: str) -> Invalid:
    return Invalid(
        f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter"
    )


def _unknown(param: str) -> Invalid:
    return Invalid(f"Unknown parameter: '{param}'.", param=param, code="unknown_parameter")


def _supported(values: Iterable[str]) -> str:
    quoted = [f"'{v}'" for v in values]
    if len(quoted) == 1:
        return quoted[0]
    if len(quoted) == 2:
        return f"{quoted[0]} and {quoted[1]}"
    return ", ".join(quoted[:-1]) + f", and {quoted[-1]}"


def invalid_value(param: str, value: Any, supported: Iterable[str]) -> Invalid:
    return Invalid(
        f"Invalid value: '{value}'. Supported values are: {_supported(supported)}.",
        param=param,
        code="invalid_value",
    )


def empty_array(param: str) -> Invalid:
    return Invalid(
        f"Invalid '{param}': empty array. Expected an array with minimum length 1, "
        "but got an empty array instead.",
        param=param,
        code="empty_array",
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fmt_num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def check_number(
    body: JSONDict,
    key: str,
    *,
    integer: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> None:
    value = body.get(key)
    if value is None:
        return
    kind = "integer" if integer else "decimal"
    if integer and not is_int(value):
        raise invalid_type(key, "an integer", value)
    if not integer and not _is_number(value):
        raise invalid_type(key, "a decimal", value)
    if maximum is not None and value > maximum:
        raise Invalid(
            f"Invalid '{key}': {kind} above maximum value. Expected a value <= "
            f"{fmt_num(maximum)}, but got {fmt_num(value)} instead.",
            param=key,
            code=f"{kind}_above_max_value",
        )
    if minimum is not None and value < minimum:
        raise Invalid(
            f"Invalid '{key}': {kind} below minimum value. Expected a value >= "
            f"{fmt_num(minimum)}, but got {fmt_num(value)} instead.",
            param=key,
            code=f"{kind}_below_min_value",
        )


def check_bool(body: JSONDict, key: str) -> None:
    value = body.get(key)
    if value is not None and not isinstance(value, bool):
        raise invalid_type(key, "a boolean", value)


def check_keys(obj: JSONDict, allowed: frozenset[str], prefix: str) -> None:
    for key in obj:
        if key not in allowed:
            raise _unknown(f"{prefix}.{key}")


def content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "") or ""
            for p in content
            if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def validate_keys_and_model(body: JSONDict, allowed: Collection[str]) -> None:
    for key in body:
        if key not in allowed:
            raise Invalid(f"Unrecognized request argument supplied: {key}")
    model = body.get("model")
    if model is None or model == "":
        raise Invalid("you must provide a model parameter")
    if not isinstance(model, str):
        raise invalid_type("model", "a string", model)


def may_call_tools(body: JSONDict) -> bool:
    """Whether a model may answer this request with tool calls: tools are offered and
    ``tool_choice`` is not ``"none"`` (under ``"none"`` the real API only answers in text)."""
    return bool(body.get("tools")) and body.get("tool_choice") != "none"
