"""Embeddings: ``POST /v1/embeddings`` validated like the real API, answered with
``deterministic_embedding`` (or ``server.embedding_fn``) as floats or base64."""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import struct

from aiohttp import web

from fakes.openai.base import ServerBase
from fakes.openai.protocol import (
    ERROR_DEFAULTS,
    Invalid,
    JSONDict,
    invalid_type,
    invalid_value,
    is_int,
    missing_param,
    validate_keys_and_model,
)

EMBEDDING_ALLOWED_KEYS = frozenset({"model", "input", "encoding_format", "dimensions", "user"})


def deterministic_embedding(text: str, dim: int) -> list[float]:
    """Hash-seeded pseudo-random unit vector (what the server returns by default)."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
    rng = random.Random(seed)
    vec = [rng.gauss(0.0, 1.0) for _ in range(dim)]
    norm = math.sqrt(sum(x * x for x in vec)) or 1.0
    return [x / norm for x in vec]


def _validate_embeddings(body: JSONDict, max_dim: int) -> None:
    validate_keys_and_model(body, EMBEDDING_ALLOWED_KEYS)
    if "input" not in body:
        raise missing_param("input")
    inp = body["input"]
    bad_input = Invalid(
        "'$.input' is invalid. Please check the API reference: "
        "https://platform.openai.com/docs/api-reference.",
        param=None,
    )
    if isinstance(inp, str):
        if not inp:
            raise bad_input
    elif isinstance(inp, list):
        if not inp or len(inp) > 2048:
            raise bad_input
        if all(is_int(t) for t in inp):
            pass
        else:
            for item in inp:
                if isinstance(item, str):
                    if not item:
                        raise bad_input
                elif isinstance(item, list):
                    if not item or not all(is_int(t) for t in item):
                        raise bad_input
                else:
                    raise bad_input
    else:
        raise bad_input
    fmt = body.get("encoding_format")
    if fmt is not None and fmt not in ("float", "base64"):
        raise invalid_value("encoding_format", fmt, ["float", "base64"])
    dims = body.get("dimensions")
    if dims is not None:
        if not is_int(dims):
            raise invalid_type("dimensions", "an integer", dims)
        if dims < 1:
            raise Invalid(
                f"Invalid 'dimensions': integer below minimum value. Expected a value >= 1, "
                f"but got {dims} instead.",
                param="dimensions",
                code="integer_below_min_value",
            )
        if dims > max_dim:
            raise Invalid(
                f"This model's maximum dimensions is {max_dim}, but {dims} were requested.",
                param="dimensions",
            )
    user = body.get("user")
    if user is not None and not isinstance(user, str):
        raise invalid_type("user", "a string", user)


class EmbeddingsMixin(ServerBase):
    """The embeddings endpoint of FakeOpenAIServer."""

    async def _handle_embeddings(self, request: web.Request) -> web.Response:
        body = await self._read_json(request, self.embedding_requests)
        try:
            self._check_auth(request)
            if body is None:
                raise self._json_body_error()
            _validate_embeddings(body, self.embedding_dim)
        except Invalid as exc:
            return self._reject(exc)
        if self.embeddings_fail is not None:
            status = self.embeddings_fail
            etype, code, message = ERROR_DEFAULTS.get(
                status, ("server_error", None, f"HTTP {status}")
            )
            return self._error_response(status, message, type=etype, code=code)

        inp = body["input"]
        if isinstance(inp, str):
            texts = [inp]
        elif all(is_int(t) for t in inp):
            texts = [json.dumps(inp)]
        else:
            texts = [t if isinstance(t, str) else json.dumps(t) for t in inp]
        dims = body.get("dimensions")
        b64 = body.get("encoding_format") == "base64"
        data = []
        for i, text in enumerate(texts):
            vec = self._embed(text, dims)
            payload: list[float] | str
            if b64:
                packed = struct.pack(f"<{len(vec)}f", *vec)
                payload = base64.b64encode(packed).decode("ascii")
            else:
                payload = vec
            data.append({"object": "embedding", "index": i, "embedding": payload})
        tokens = sum(max(1, len(t) // 4) for t in texts)
        return web.json_response(
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
            headers=self._headers(),
        )

    def _embed(self, text: str, dims: int | None) -> list[float]:
        if self.embedding_fn is not None:
            vec = [float(x) for x in self.embedding_fn(text)]
        else:
            vec = deterministic_embedding(text, self.embedding_dim)
        if dims is not None and dims < len(vec):
            vec = vec[:dims]
            norm = math.sqrt(sum(x * x for x in vec)) or 1.0
            vec = [x / norm for x in vec]
        return vec
