"""Voice messages and video notes to text through an OpenAI-compatible /audio/transcriptions."""

from __future__ import annotations

import openai
from openai import AsyncOpenAI

from core.errors import MediaUnreadableError
from core.settings import Settings
from core.text import without_control

MAX_TRANSCRIPT_CHARS = 2000


class Transcriber:
    def __init__(self, settings: Settings, client: AsyncOpenAI | None = None) -> None:
        self.model = settings.transcription_model
        self.enabled = settings.llm_configured and self.model.strip().lower() != "none"
        self._client = client or (
            AsyncOpenAI(
                api_key=settings.llm_api_key,
                base_url=settings.transcription_base_url or None,
                timeout=settings.llm_timeout_seconds,
                max_retries=settings.llm_max_retries,
            )
            if self.enabled
            else None
        )

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def transcribe(self, audio: bytes, filename: str) -> str:
        """What the recording says; `filename`'s extension tells the API its format."""
        if self._client is None:
            raise MediaUnreadableError("off", "voice is off (no LLM or TRANSCRIPTION_MODEL=none)")
        try:
            result = await self._client.audio.transcriptions.create(
                model=self.model, file=(filename, audio)
            )
        except openai.APIStatusError as exc:
            reason = "unsupported" if exc.status_code in (400, 404, 415, 422) else "failed"
            raise MediaUnreadableError(
                reason, f"the transcription model answered HTTP {exc.status_code}"
            ) from exc
        except openai.APIError as exc:
            raise MediaUnreadableError("failed", f"transcription: {type(exc).__name__}") from exc
        return " ".join(without_control(result.text or "").split())[:MAX_TRANSCRIPT_CHARS]
