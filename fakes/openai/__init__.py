"""A strict, scriptable fake of the OpenAI HTTP API for tests.

``FakeOpenAIServer`` is a real HTTP server (aiohttp, bound to 127.0.0.1 on an
ephemeral port) that speaks the subset of the OpenAI REST API the bot uses:

* ``POST /v1/chat/completions`` (plain JSON and Server-Sent-Events streaming),
* ``POST /v1/embeddings`` (``float`` and ``base64`` encodings),
* ``GET /v1/models`` and ``GET /v1/models/{id}``,
* image content parts in user messages (``image_url`` with a ``data:image/...;base64,`` or
  ``https://`` URL; a model listed in ``server.non_vision_models`` answers 400 like the real
  API); the answer to a request with an image comes from ``server.script_vision(...)``,
* ``POST /v1/audio/transcriptions`` (multipart ``model`` + ``file``; the text is scripted
  with ``server.script_transcript(...)``).

Every chat/embedding request is validated as strictly as the real API does
(auth, unknown arguments, message shapes, assistant ``tool_calls`` / ``tool``
message pairing, tool schemas, parameter ranges ...).  Invalid requests get a
400 with an OpenAI-style error body and the message is appended to
``server.errors`` so a test can finish with ``assert server.errors == []``.

Chat answers are scripted with ``server.script(step, step, ...)``; the steps are
consumed in order (only by *valid* requests) and, once the queue is empty, a model named in
``server.model_responders`` answers as its responder does; any other model answers
with the plain text ``"ok"``.

Example::

    async with FakeOpenAIServer() as server:
        server.script(
            tool_calls(call("search_wines", {"query": "malbec"})),
            reply("Try the 2019 Catena Malbec."),
        )
        client = AsyncOpenAI(base_url=server.base_url, api_key="test-key", max_retries=0)
        ...
        assert server.errors == []

Where each concern lives: ``protocol.py`` (error answers and the checks requests are
validated with), ``validation.py`` + ``tools.py`` (a chat request), ``steps.py`` (the scripted
behaviours), ``chat.py`` (answering chat completions, JSON and SSE), ``embeddings.py``,
``media.py`` (image parts and audio transcriptions), ``base.py`` (state and HTTP helpers),
``server.py`` (FakeOpenAIServer: routes, lifecycle, scripting).
"""

from fakes.openai.embeddings import deterministic_embedding
from fakes.openai.protocol import JSONDict, may_call_tools
from fakes.openai.server import DEFAULT_MODEL_ID, FakeOpenAIServer
from fakes.openai.steps import (
    DropStep,
    ErrorStep,
    HangStep,
    PausedReplyStep,
    RawToolCallsStep,
    ReplyStep,
    ResponderStep,
    Step,
    StreamCutStep,
    ToolCall,
    ToolCallsStep,
    call,
    drop,
    error,
    hang,
    raw_tool_calls,
    reply,
    responder,
    stream_cut,
    stream_paused,
    tool_calls,
)

__all__ = [
    "DEFAULT_MODEL_ID",
    "DropStep",
    "ErrorStep",
    "FakeOpenAIServer",
    "HangStep",
    "JSONDict",
    "PausedReplyStep",
    "RawToolCallsStep",
    "ReplyStep",
    "ResponderStep",
    "Step",
    "StreamCutStep",
    "ToolCall",
    "ToolCallsStep",
    "call",
    "deterministic_embedding",
    "drop",
    "error",
    "hang",
    "may_call_tools",
    "raw_tool_calls",
    "reply",
    "responder",
    "stream_cut",
    "stream_paused",
    "tool_calls",
]
