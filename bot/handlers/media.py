"""Photos (a label, a dish, a wine list), voice messages and video notes as requests.

Files are downloaded into memory and dropped after reading: only the text derived from them
(what the photo shows, what was heard) is kept, in the conversation like any message.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from html import escape

from aiogram import Bot, F, Router
from aiogram.types import Message, PhotoSize

from bot.answering import ChatAnswer
from bot.coordination import Delivery, plan_with_turn
from bot.filters import InLoop
from bot.middlewares import ADMIT_FLAG
from core.errors import MediaUnreadableError
from core.settings import Settings
from services.agent import AgentEvent, MediaRead
from services.app.media.questions import MediaQuestions
from services.app.texts import T
from services.app.turns.admission import Admitted
from services.app.turns.turns import Turns

log = logging.getLogger(__name__)

MAX_PHOTO_SIDE = 1600  # enough to read a label; the original is never fetched
MAX_HEARD_CHARS = 200  # «Услышал» stays one short line

_PHOTO_REPLIES = {
    "off": T.photo_off,
    "unsupported": T.photo_unreadable,
    "failed": T.photo_unreadable,
    "nothing": T.photo_nothing,
}
_VOICE_REPLIES = {
    "off": T.voice_off,
    "unsupported": T.voice_unreadable,
    "failed": T.voice_unreadable,
    "nothing": T.voice_nothing,
}


def photo_size_to_send(sizes: Sequence[PhotoSize]) -> PhotoSize:
    """The largest size whose longer side is at most MAX_PHOTO_SIDE, else the smallest above."""
    fitting = [s for s in sizes if max(s.width, s.height) <= MAX_PHOTO_SIDE]
    if fitting:
        return max(fitting, key=lambda s: s.width * s.height)
    return min(sizes, key=lambda s: s.width * s.height)


async def _download(bot: Bot, file_id: str) -> bytes | None:
    try:
        data = await bot.download(file_id)
    except Exception as exc:  # a file Telegram will not give is a message to the person
        log.warning("could not download a file from Telegram: %s", type(exc).__name__)
        return None
    return data.read() if data is not None else None


async def _with_notes(
    message: Message, events: AsyncIterator[AgentEvent]
) -> AsyncIterator[AgentEvent]:
    """The answer's events, with what the photo or the recording was read as told first."""
    async for event in events:
        if isinstance(event, MediaRead):
            note = _note(event)
            if note:
                await message.answer(note)
            continue
        yield event


def _note(event: MediaRead) -> str | None:
    if event.source == "voice":
        heard = event.text
        if len(heard) > MAX_HEARD_CHARS:
            heard = heard[: MAX_HEARD_CHARS - 1].rstrip() + "…"
        return T.voice_heard.format(text=escape(heard))
    if event.kind == "dish":
        return T.photo_dish.format(dish=escape(event.text))
    return None


async def photo(
    message: Message,
    admitted: Admitted,
    turns: Turns,
    media: MediaQuestions,
    bot: Bot,
    delivery: Delivery | None = None,
) -> None:
    """The caption reaches here admitted (bot/middlewares.py, AdmissionMiddleware)."""
    if message.from_user is None or not message.photo:
        return
    user_id = message.from_user.id
    if not media.photos_enabled:
        turns.refused(user_id, "photo_off")
        await message.answer(T.photo_off)
        return
    image = await _download(bot, photo_size_to_send(message.photo).file_id)
    if image is None:
        turns.refused(user_id, "photo_download")
        await message.answer(T.photo_unreadable)
        return
    shown = ChatAnswer(message, bot, delivery)
    events = media.photo_stream(
        user_id,
        image,
        admitted.text,
        stream_answer=shown.private,
        with_turn=plan_with_turn(delivery),
    )
    try:
        await shown.show(_with_notes(message, events))
    except MediaUnreadableError as exc:
        log.info("photo not read (%s): %s", exc.reason, exc)
        turns.refused(user_id, f"photo_{exc.reason}")
        await message.answer(_PHOTO_REPLIES.get(exc.reason, T.photo_unreadable))


async def voice(
    message: Message,
    turns: Turns,
    media: MediaQuestions,
    bot: Bot,
    settings: Settings,
    delivery: Delivery | None = None,
) -> None:
    recording = message.voice or message.video_note
    if message.from_user is None or recording is None:
        return
    user_id = message.from_user.id
    if recording.duration > settings.max_voice_seconds:
        turns.refused(user_id, "voice_too_long")
        await message.answer(T.voice_too_long.format(limit=settings.max_voice_seconds))
        return
    if not media.voice_enabled:
        turns.refused(user_id, "voice_off")
        await message.answer(T.voice_off)
        return
    audio = await _download(bot, recording.file_id)
    if audio is None:
        turns.refused(user_id, "voice_download")
        await message.answer(T.voice_unreadable)
        return
    # The extension tells the transcription API the format: voice is OGG/Opus, a video note MP4.
    filename = "voice.ogg" if message.voice is not None else "video_note.mp4"
    shown = ChatAnswer(message, bot, delivery)
    events = media.voice_stream(
        user_id,
        audio,
        filename,
        stream_answer=shown.private,
        with_turn=plan_with_turn(delivery),
    )
    try:
        await shown.show(_with_notes(message, events))
    except MediaUnreadableError as exc:
        log.info("voice not read (%s): %s", exc.reason, exc)
        turns.refused(user_id, f"voice_{exc.reason}")
        await message.answer(_VOICE_REPLIES.get(exc.reason, T.voice_unreadable))


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="media")
    router.message.register(photo, InLoop(F.photo), flags={ADMIT_FLAG: "caption"})
    router.message.register(voice, InLoop(F.voice | F.video_note))
    return router
