"""The fake OpenAI-compatible server (see fakes/openai/): this module keeps the import path
``fakes.openai_server`` that tests, the bench and fakes/inventing_model.py use, re-exporting
every public name of the package."""

from __future__ import annotations

from fakes.openai import (
    DEFAULT_MODEL_ID,
    DropStep,
    ErrorStep,
    FakeOpenAIServer,
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
    deterministic_embedding,
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
from fakes.openai import JSONDict as JSONDict
from fakes.openai.chat import STREAM_CHUNK_CHARS as STREAM_CHUNK_CHARS
from fakes.openai.embeddings import EMBEDDING_ALLOWED_KEYS as EMBEDDING_ALLOWED_KEYS
from fakes.openai.media import AUDIO_FORMATS as AUDIO_FORMATS
from fakes.openai.media import IMAGE_DETAILS as IMAGE_DETAILS
from fakes.openai.media import IMAGE_MIME_TYPES as IMAGE_MIME_TYPES
from fakes.openai.media import MAX_AUDIO_BYTES as MAX_AUDIO_BYTES
from fakes.openai.media import TRANSCRIPTION_ALLOWED_KEYS as TRANSCRIPTION_ALLOWED_KEYS
from fakes.openai.media import TRANSCRIPTION_FORMATS as TRANSCRIPTION_FORMATS
from fakes.openai.media import TRANSCRIPTION_MODELS as TRANSCRIPTION_MODELS
from fakes.openai.steps import ResponderFn as ResponderFn
from fakes.openai.steps import ResponderResult as ResponderResult
from fakes.openai.tools import JSON_SCHEMA_TYPES as JSON_SCHEMA_TYPES
from fakes.openai.tools import TOOL_NAME_RE as TOOL_NAME_RE
from fakes.openai.validation import CHAT_ALLOWED_KEYS as CHAT_ALLOWED_KEYS
from fakes.openai.validation import MESSAGE_KEYS as MESSAGE_KEYS
from fakes.openai.validation import PART_KEYS as PART_KEYS
from fakes.openai.validation import PART_TYPES as PART_TYPES
from fakes.openai.validation import ROLES as ROLES

__all__ = [
    "DEFAULT_MODEL_ID",
    "DropStep",
    "ErrorStep",
    "FakeOpenAIServer",
    "HangStep",
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
    "raw_tool_calls",
    "reply",
    "responder",
    "stream_cut",
    "stream_paused",
    "tool_calls",
]
