"""Reading a photo with an OpenAI-compatible vision model: a label, a dish or a wine list.

One chat completion with the image as a `data:` URL content part; the model answers JSON
(prompts/vision.md) that is read tolerantly — a field of the wrong type is dropped, not fatal.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

import openai
from openai import AsyncOpenAI

from core.domain import WineType
from core.errors import MediaUnreadableError
from core.settings import Settings
from core.text import without_control
from prompts import load_prompt

ImageKind = Literal["label", "dish", "wine_list", "other"]
KINDS: tuple[ImageKind, ...] = ("label", "dish", "wine_list", "other")
MAX_LISTED_WINES = 10
MAX_FIELD_CHARS = 120
_JSON_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


@dataclass(frozen=True)
class SeenWine:
    """A wine as the photo shows it (every field may be missing)."""

    producer: str | None = None
    name: str | None = None
    vintage: int | None = None
    region: str | None = None
    grapes: tuple[str, ...] = ()
    wine_type: WineType | None = None
    price_rub: int | None = None

    @property
    def title(self) -> str:
        """How to name it back to the person: «Catena Zapata Malbec 2021»."""
        parts = [self.producer or "", self.name or ""]
        if self.producer and self.name and _shares_a_word(self.producer, self.name):
            parts = [self.name]  # «Catena Malbec» by Catena Zapata already names its maker
        text = " ".join(p for p in parts if p)
        return f"{text} {self.vintage}" if text and self.vintage else text


@dataclass(frozen=True)
class ImageReading:
    kind: ImageKind
    wine: SeenWine = field(default_factory=SeenWine)
    dish: str | None = None
    wines: tuple[SeenWine, ...] = ()


def _shares_a_word(first: str, second: str) -> bool:
    words = {w for w in re.findall(r"\w+", first.lower()) if len(w) > 2}
    return bool(words & set(re.findall(r"\w+", second.lower())))


def image_data_url(image: bytes) -> str:
    """The photo as a base64 `data:` URL (Telegram sends photos as JPEG)."""
    mime = "image/png" if image.startswith(b"\x89PNG") else "image/jpeg"
    if image.startswith(b"RIFF") and image[8:12] == b"WEBP":
        mime = "image/webp"
    return f"data:{mime};base64,{base64.b64encode(image).decode('ascii')}"


class VisionClient:
    def __init__(self, settings: Settings, client: AsyncOpenAI | None = None) -> None:
        self.model = settings.vision_model
        self.enabled = settings.vision_enabled
        self._client = client or (
            AsyncOpenAI(
                api_key=settings.llm_api_key,
                base_url=settings.vision_base_url or None,
                timeout=settings.llm_timeout_seconds,
                max_retries=settings.llm_max_retries,
            )
            if self.enabled
            else None
        )

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def read(self, image: bytes, caption: str = "") -> ImageReading:
        if self._client is None:
            raise MediaUnreadableError("off", "photos are off (no LLM or VISION_MODEL=none)")
        user_text = f"Подпись к фото: {caption}" if caption else "Подписи нет."
        messages: list[Any] = [
            {"role": "system", "content": load_prompt("vision")},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": user_text},
                    {"type": "image_url", "image_url": {"url": image_data_url(image)}},
                ],
            },
        ]
        try:
            response = await self._client.chat.completions.create(
                model=self.model, messages=messages, temperature=0, max_tokens=800
            )
        except openai.APIStatusError as exc:
            reason = "unsupported" if exc.status_code in (400, 404, 415, 422) else "failed"
            raise MediaUnreadableError(
                reason, f"the vision model answered HTTP {exc.status_code}"
            ) from exc
        except openai.APIError as exc:
            raise MediaUnreadableError("failed", f"vision: {type(exc).__name__}") from exc
        content = response.choices[0].message.content if response.choices else None
        reading = parse_reading(content or "")
        if reading is None:
            raise MediaUnreadableError("failed", "the vision model's answer is not JSON")
        return reading


def parse_reading(text: str) -> ImageReading | None:
    """The model's JSON (possibly inside a ```json fence or with words around it)."""
    found = _JSON_OBJECT.search(text)
    if found is None:
        return None
    try:
        data = json.loads(found.group(0))
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    kind = data.get("kind")
    wines = data.get("wines")
    return ImageReading(
        kind=kind if kind in KINDS else "other",
        wine=_seen_wine(data),
        dish=_text(data.get("dish")),
        wines=tuple(
            _seen_wine(w) for w in (wines if isinstance(wines, list) else []) if isinstance(w, dict)
        )[:MAX_LISTED_WINES],
    )


def _seen_wine(data: dict[str, Any]) -> SeenWine:
    grapes = data.get("grapes")
    wine_type = data.get("wine_type")
    return SeenWine(
        producer=_text(data.get("producer")),
        name=_text(data.get("name")),
        vintage=_year(data.get("vintage")),
        region=_text(data.get("region")),
        grapes=tuple(
            g for g in (_text(x) for x in (grapes if isinstance(grapes, list) else [])) if g
        )[:5],
        wine_type=WineType(wine_type) if wine_type in WineType.__members__ else None,
        price_rub=_number(data.get("price_rub")),
    )


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    cleaned = " ".join(without_control(value).split())[:MAX_FIELD_CHARS]
    return cleaned or None


def _year(value: Any) -> int | None:
    number = _number(value)
    return number if number is not None and 1900 <= number <= 2100 else None


def _number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if value > 0 else None
    if isinstance(value, str):
        digits = re.sub(r"[^\d]", "", value)
        return int(digits) if digits and len(digits) <= 9 else None
    return None
