"""Getting messages to Telegram reliably, and turning a Recommendation into messages."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from aiogram import Bot
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import (
    AnswerCallbackQuery,
    EditMessageText,
    Response,
    SendMessage,
    SendPhoto,
    TelegramMethod,
)
from aiogram.methods.base import TelegramType
from aiogram.types import InlineKeyboardMarkup, MessageId

from bot.coordination import Delivery
from bot.delivery_plan import planned_answer
from bot.keyboards import alert_offer, wine_card_json
from bot.rendering import render_card
from bot.telegram_html import escape, html_to_plain, plan_card_messages, split_text
from core.failpoints import failpoint
from core.recommendation import Recommendation, RecommendedWine
from services.app.ops.metrics import TELEGRAM_ERRORS
from services.app.sending.limits import PermitRider, SendLimits, riding_with_permits
from services.app.texts import T

log = logging.getLogger(__name__)

MAX_RETRY_AFTER_SECONDS = 60.0


class SendAnswerPart(SendMessage):
    """sendMessage for a part of an answer (its text, a card), whose reply is read for the
    message's id alone: nothing uses the sent message, and reading Telegram's echo of it (the
    chat, the text's entities, the keyboard) into aiogram's models cost more CPU than the
    rest of the request (bench/runs/2026-11-28-turn-cost-cpu.md)."""

    __returning__ = MessageId  # type: ignore[assignment]


class SendCardPart(SendAnswerPart):
    """The message of a card that carries its keyboard, the keyboard already as the Bot API's
    JSON (`wine_card_json`): sent as it is (`JsonBodySession.json_body`), never built into
    aiogram's models to be dumped again."""

    reply_markup: dict[str, Any] | None = None  # type: ignore[assignment]
    plain_json: ClassVar[frozenset[str]] = frozenset({"reply_markup"})


def method_name(method: TelegramMethod[Any]) -> str:
    """The Bot API method's class name in aiogram (SendMessage for a SendAnswerPart too)."""
    return next(c.__name__ for c in type(method).__mro__ if c.__module__.startswith("aiogram."))


class ReliableRequests(BaseRequestMiddleware):
    """Retries what Telegram asks to retry and rescues messages whose HTML it rejects.

    429 → wait `retry_after` and retry; network errors and 5xx → retry with backoff;
    "can't parse entities" → resend once as plain text. 403 (blocked) is never retried.
    An expired callback query (its toast can no longer be shown) is not an error.
    """

    def __init__(self, attempts: int = 4, backoff: float = 0.5) -> None:
        self.attempts = attempts
        self.backoff = backoff

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        delay = self.backoff
        plain_tried = False
        for attempt in range(1, self.attempts + 1):
            try:
                return await _counted(make_request, bot, method)
            except TelegramRetryAfter as exc:
                if attempt == self.attempts or exc.retry_after > MAX_RETRY_AFTER_SECONDS:
                    raise
                log.warning(
                    "telegram 429 on %s: waiting %ss", type(method).__name__, exc.retry_after
                )
                await asyncio.sleep(exc.retry_after)
            except (TelegramNetworkError, TelegramServerError) as exc:
                if attempt == self.attempts or not _safe_to_repeat(method):
                    raise
                log.warning(
                    "telegram %s on %s: retry in %.1fs",
                    type(exc).__name__,
                    type(method).__name__,
                    delay,
                )
                await asyncio.sleep(delay)
                delay *= 2
            except TelegramBadRequest as exc:
                if isinstance(method, AnswerCallbackQuery) and _expired_query(exc):
                    # The button's toast can no longer be shown (the press is older than
                    # Telegram waits for, e.g. after an outage); the press itself is handled.
                    log.info("callback query expired before it was answered")
                    return True  # type: ignore[return-value]
                if plain_tried or "can't parse entities" not in exc.message:
                    raise
                if not _to_plain_text(method):
                    raise
                plain_tried = True
                log.warning(
                    "telegram rejected HTML of %s; resending as plain text", type(method).__name__
                )
        raise RuntimeError("unreachable")  # pragma: no cover


async def _counted(
    make_request: NextRequestMiddlewareType[TelegramType],
    bot: Bot,
    method: TelegramMethod[TelegramType],
) -> Response[TelegramType]:
    try:
        return await make_request(bot, method)
    except (TelegramAPIError, TelegramNetworkError):
        TELEGRAM_ERRORS.labels(method_name(method)).inc()  # /metrics
        raise


def _expired_query(exc: TelegramBadRequest) -> bool:
    return "query is too old" in exc.message or "query ID is invalid" in exc.message


def _safe_to_repeat(method: TelegramMethod[Any]) -> bool:
    # A timed-out send may have been delivered; repeating is still better than losing it,
    # except for long polling, which aiogram retries itself.
    return type(method).__name__ != "GetUpdates"


def _to_plain_text(method: TelegramMethod[Any]) -> bool:
    if isinstance(method, SendMessage | EditMessageText):
        method.text = html_to_plain(method.text)
    elif isinstance(method, SendPhoto) and method.caption:
        method.caption = html_to_plain(method.caption)
    else:
        return False
    method.parse_mode = None
    return True


async def send_html(bot: Bot, chat_id: int, html_text: str, **kwargs: Any) -> None:
    parts = split_text(html_text)
    for index, part in enumerate(parts):
        extra = kwargs if index == len(parts) - 1 else {}
        await bot(SendAnswerPart(chat_id=chat_id, text=part, **extra))


async def send_text(bot: Bot, chat_id: int, text: str, **kwargs: Any) -> None:
    if text.strip():
        await send_html(bot, chat_id, escape(text), **kwargs)


async def send_card(bot: Bot, chat_id: int, wine: RecommendedWine) -> None:
    card_html = render_card(wine)
    keyboard = wine_card_json(wine.id, url=wine.url)
    caption, rest = plan_card_messages(card_html, has_photo=bool(wine.image_url))
    if caption is not None and wine.image_url:
        try:
            await bot.send_photo(
                chat_id,
                wine.image_url,
                caption=caption,
                reply_markup=None if rest else InlineKeyboardMarkup.model_validate(keyboard),
            )
        except TelegramBadRequest as exc:
            # A dead image link must not lose the card: send it as text instead.
            log.warning("photo rejected (%s); sending the card as text", exc.message)
            rest = split_text(card_html)
    for index, part in enumerate(rest):
        last = index == len(rest) - 1
        await bot(SendCardPart(chat_id=chat_id, text=part, reply_markup=keyboard if last else None))


async def send_recommendation(
    bot: Bot, chat_id: int, rec: Recommendation, delivery: Delivery | None = None
) -> None:
    """Intro, one card per wine, closing — each part recorded in the update's ledger row as it
    goes out, so that a process taking over after a crash sends only the parts still missing.
    Where every message takes a permit, the next part's permit records the parts before it in
    its own statement; the last part is recorded alone."""
    if delivery is not None and delivery.plan is None:
        delivery = None  # nothing planned (stored) for this update: nothing to resume
    done = delivery.sent_parts if delivery is not None else 0
    last_card = len(rec.wines) + 1
    riding = _permits_taken(bot)
    with riding_with_permits() as rider:
        for number, send in enumerate(_parts(bot, chat_id, rec), start=1):
            if number <= done:
                continue
            await send()
            if number == 2:
                failpoint("card_sent_unrecorded")  # Telegram has the first card, the ledger not
            then = "after_intro" if number == 1 else "after_cards" if number == last_card else None
            if delivery is None:
                if then is not None:
                    failpoint(then)
                continue
            # A part that sent nothing (an empty text) took no permit: the next one records both.
            rider.parts_sent, rider.failpoint = delivery.sent(number), then or rider.failpoint
            if not riding:
                await _record(rider, delivery)
        if delivery is not None:
            await _record(rider, delivery)  # the last part: no permit after it


async def _record(rider: PermitRider, delivery: Delivery) -> None:
    """Record the parts sent that no permit recorded, then pass their failpoint."""
    parts_sent, then = rider.take()
    if parts_sent is not None:
        await delivery.mark_sent(parts_sent.parts)
    if then is not None:
        failpoint(then)


def _permits_taken(bot: Bot) -> bool:
    """Does every message this bot sends take a permit (`JsonBodySession` with its limits)?"""
    limits = getattr(getattr(bot, "session", None), "limits", None)
    return isinstance(limits, SendLimits) and limits.enabled


def _parts(bot: Bot, chat_id: int, rec: Recommendation) -> list[Callable[[], Awaitable[None]]]:
    parts: list[Callable[[], Awaitable[None]]] = [lambda: send_text(bot, chat_id, rec.intro)]
    parts += [functools.partial(send_card, bot, chat_id, wine) for wine in rec.wines]
    offer = alert_offer(rec, chat_id)  # under the closing, which then always has a text
    if offer is None:
        parts.append(lambda: send_text(bot, chat_id, rec.closing))
    else:
        closing = rec.closing if rec.closing.strip() else T.alert_offer
        parts.append(lambda: send_text(bot, chat_id, closing, reply_markup=offer))
    return parts


async def send_planned(bot: Bot, chat_id: int, delivery: Delivery) -> None:
    """The rest of an answer a process that died had planned (and stored with the turn)."""
    assert delivery.plan is not None
    await send_recommendation(bot, chat_id, planned_answer(delivery.plan), delivery)
