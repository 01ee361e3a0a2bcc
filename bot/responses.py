"""Bot API reply models, built once.

aiogram validates every reply as `Response[<the method's result type>]`; pydantic keeps such
generic models only weakly, so after a garbage collection each reply builds the model again,
at a cost that shows in the bot's CPU per answer under load. Holding them here keeps them
built.
"""

from __future__ import annotations

from typing import Any

from aiogram import methods
from aiogram.methods.base import Response
from aiogram.types import MessageId

_USED = (
    methods.SendMessage,
    methods.SendMessageDraft,
    methods.SendChatAction,
    methods.SendPhoto,
    methods.EditMessageText,
    methods.EditMessageReplyMarkup,
    methods.AnswerCallbackQuery,
    methods.DeleteMessage,
    methods.GetUpdates,
    methods.GetMe,
    methods.GetFile,
    methods.SetMyCommands,
    methods.SetWebhook,
    methods.DeleteWebhook,
    methods.AnswerInlineQuery,
)

PINNED: tuple[Any, ...] = (
    *(Response[m.__returning__] for m in _USED),  # type: ignore[name-defined]
    Response[MessageId],  # an answer's parts (bot.delivery.SendAnswerPart)
)
