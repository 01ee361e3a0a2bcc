"""Vision and audio: image content parts (what the real API accepts as an image URL, where a
request carries one, answers scripted with ``script_vision``) and ``POST
/v1/audio/transcriptions`` (multipart, validated like the real endpoint, the text scripted with
``script_transcript``)."""

from __future__ import annotations

import base64
import json
import re

from aiohttp import BodyPartReader, web

from fakes.openai.base import ServerBase
from fakes.openai.protocol import Invalid, JSONDict, invalid_type, invalid_value, missing_param
from fakes.openai.steps import ReplyStep, Step

IMAGE_DETAILS = ("auto", "low", "high")
IMAGE_MIME_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")
_DATA_URL_RE = re.compile(r"^data:([^;,]+);base64,(.*)$", re.DOTALL)


def validate_image_url(url: str, path: str) -> None:
    """What the real API accepts: an http(s) URL or a base64 data URL of a supported image."""
    if url.startswith(("https://", "http://")):
        return
    found = _DATA_URL_RE.match(url)
    if found is None:
        raise Invalid(
            f"Invalid image URL: '{path}'. Expected a valid URL or a base64-encoded data URL "
            "with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU=').",
            param=path,
            code="invalid_image_url",
        )
    mime, payload = found.group(1), found.group(2)
    if mime not in IMAGE_MIME_TYPES:
        raise Invalid(
            f"Invalid image URL: '{path}'. Expected a base64-encoded data URL with an image "
            f"MIME type ({', '.join(IMAGE_MIME_TYPES)}), but got unsupported MIME type "
            f"'{mime}'.",
            param=path,
            code="invalid_image_format",
        )
    try:
        decoded = base64.b64decode(payload, validate=True)
    except ValueError:
        decoded = b""
    if not decoded:
        raise Invalid(
            "You uploaded an unsupported image. Please make sure your image is valid.",
            param=path,
            code="invalid_image_format",
        )


def image_part_path(messages: list[JSONDict]) -> str | None:
    """Where the first image content part of a (valid) request is, if it has one."""
    for i, message in enumerate(messages):
        content = message.get("content")
        if isinstance(content, list):
            for j, part in enumerate(content):
                if part.get("type") == "image_url":
                    return f"messages.[{i}].content.[{j}].type"
    return None


TRANSCRIPTION_MODELS = frozenset({"whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"})
TRANSCRIPTION_ALLOWED_KEYS = frozenset(
    {
        "model",
        "file",
        "language",
        "prompt",
        "response_format",
        "temperature",
        "timestamp_granularities[]",
        "include[]",
        "chunking_strategy",
        "stream",
    }
)
AUDIO_FORMATS = ("flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm")
TRANSCRIPTION_FORMATS = ("json", "text", "srt", "verbose_json", "vtt")
MAX_AUDIO_BYTES = 25 * 1024 * 1024


def _validate_transcription(fields: dict[str, str | tuple[str, bytes]]) -> JSONDict:
    """The multipart fields of /audio/transcriptions, as strictly as the real endpoint."""
    for key in fields:
        if key not in TRANSCRIPTION_ALLOWED_KEYS:
            raise Invalid(f"Unrecognized request argument supplied: {key}")
    model = fields.get("model")
    if not isinstance(model, str) or not model:
        raise Invalid("you must provide a model parameter")
    upload = fields.get("file")
    if upload is None:
        raise missing_param("file")
    if not isinstance(upload, tuple):
        raise invalid_type("file", "a file", upload)
    filename, content = upload
    extension = filename.rpartition(".")[2].lower() if "." in filename else ""
    if extension not in AUDIO_FORMATS:
        raise Invalid(
            f"Invalid file format. Supported formats: {list(AUDIO_FORMATS)}", param="file"
        )
    if not content:
        raise Invalid("Audio file is too short. Minimum audio length is 0.1 seconds.")
    if len(content) > MAX_AUDIO_BYTES:
        raise Invalid(
            f"Maximum content size limit ({MAX_AUDIO_BYTES}) exceeded ({len(content)} bytes read)",
            status=413,
        )
    response_format = fields.get("response_format", "json")
    if response_format not in TRANSCRIPTION_FORMATS:
        raise invalid_value("response_format", response_format, TRANSCRIPTION_FORMATS)
    record: JSONDict = {"model": model, "filename": filename, "size": len(content)}
    for key, value in fields.items():
        if key not in ("model", "file"):
            record[key] = value
    return record


class MediaMixin(ServerBase):
    """Vision scripting and the transcription endpoint of FakeOpenAIServer."""

    def script_vision(self, *answers: Step | str | JSONDict) -> None:
        """Queue answers for chat requests that carry an image (a dict is sent as JSON text).

        With this queue empty, an image request takes the next step of ``script`` instead.
        """
        for answer in answers:
            if isinstance(answer, Step):
                self._vision_queue.append(answer)
            elif isinstance(answer, dict):
                self._vision_queue.append(ReplyStep(content=json.dumps(answer, ensure_ascii=False)))
            else:
                self._vision_queue.append(ReplyStep(content=answer))

    def script_transcript(self, *texts: str) -> None:
        """Queue what /audio/transcriptions hears, one text per request (then ``""``)."""
        self._transcripts.extend(texts)

    async def _handle_transcription(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
            fields = await self._read_multipart(request)
            record = _validate_transcription(fields)
            if record["model"] not in self.transcription_models:
                raise Invalid(
                    f"The model `{record['model']}` does not exist or you do not have access "
                    "to it.",
                    status=404,
                    code="model_not_found",
                )
        except Invalid as exc:
            return self._reject(exc)
        self.transcription_requests.append(record)
        text = self._transcripts.popleft() if self._transcripts else ""
        response_format = record.get("response_format", "json")
        if response_format in ("text", "srt", "vtt"):
            return web.Response(text=text, content_type="text/plain", headers=self._headers())
        body: JSONDict = {"text": text}
        if response_format == "verbose_json":
            body.update({"task": "transcribe", "language": record.get("language", "russian")})
            body.update({"duration": 1.0, "segments": []})
        return web.json_response(body, headers=self._headers())

    @staticmethod
    async def _read_multipart(request: web.Request) -> dict[str, str | tuple[str, bytes]]:
        if not request.content_type.startswith("multipart/form-data"):
            raise Invalid(
                "Invalid Content-Type header "
                f"({request.content_type}), expected multipart/form-data."
            )
        fields: dict[str, str | tuple[str, bytes]] = {}
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader) or part.name is None:
                continue
            data = await part.read()
            if part.filename is not None:
                fields[part.name] = (part.filename, bytes(data))
            else:
                fields[part.name] = bytes(data).decode("utf-8", "replace")
        return fields
