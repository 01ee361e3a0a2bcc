"""Bot API requests sent as one JSON body.

aiogram's `AiohttpSession` sends every request as a form: each nested object (a keyboard, the
link-preview options) JSON-encoded on its own, then the whole form URL-encoded or split into
multipart parts. The Bot API takes `application/json` bodies as well, and one `json.dumps` of
the request costs a fraction of the form (py-spy found building and encoding the forms in every
answer's profile: nine calls per answer). Requests that upload a file still go out as
aiogram's form.

Every message also takes its permit here (`SendLimits`, shared by every replica through
PostgreSQL): answers first, alerts when answers leave room; a 429 holds every replica back
for its `retry_after`; a 403 marks the person who blocked the bot
(docs/telegram-limits.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any, cast

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramForbiddenError, TelegramNetworkError, TelegramRetryAfter
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InputFile, MessageId
from aiohttp import ClientError

from services.app.sending.limits import SendLimits

JSON_HEADERS = {"Content-Type": "application/json"}
#: Methods that make a message but do not start with "Send" (sendChatAction and
#: sendMessageDraft start with it and make none).
MESSAGE_METHODS = frozenset({"CopyMessage", "CopyMessages", "ForwardMessage", "ForwardMessages"})
NOT_MESSAGES = frozenset({"SendChatAction", "SendMessageDraft"})


def paced_chat(method: TelegramMethod[Any]) -> int | None:
    """The chat a method puts a new message into (what Telegram's limits count), or None."""
    name = type(method).__name__
    if name in NOT_MESSAGES or not (name.startswith("Send") or name in MESSAGE_METHODS):
        return None
    return _chat_of(method)


def _set_fields(method: TelegramMethod[Any]) -> Iterator[tuple[str, Any]]:
    """The method's fields that are set, then its extra ones, as `model_dump(exclude_none=True)`
    gives them to `prepare_value` — without pydantic's serializer walking every field of the
    model first (a nested model is dumped by `prepare_value` itself, None left out alike)."""
    for key, value in method.__dict__.items():
        if value is not None:
            yield key, value
    for key, value in (method.__pydantic_extra__ or {}).items():
        if value is not None:
            yield key, value


def _chat_of(method: TelegramMethod[Any]) -> int | None:
    chat_id = getattr(method, "chat_id", None)
    return chat_id if isinstance(chat_id, int) and not isinstance(chat_id, bool) else None


class JsonBodySession(AiohttpSession):
    #: Set once the process's services are built (bot.runner.create_worker).
    limits: SendLimits | None = None

    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """The request as JSON, or None when it uploads a file (those need a form)."""
        files: dict[str, InputFile] = {}
        body: dict[str, Any] = {}
        plain = getattr(method, "plain_json", ())  # fields given as the Bot API's JSON already
        # None is left out at every depth either way (`prepare_value`): dumped without it, a
        # keyboard's unused button fields are not walked at all.
        for key, value in _set_fields(method):
            if key in plain:
                body[key] = value
                continue
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            # The form leaves out the same empty values (aiogram's build_form_data).
            if prepared is None or prepared == "":
                continue
            body[key] = prepared
        return None if files else self.json_dumps(body)

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
    ) -> TelegramType:
        limits = self.limits
        if limits is None:
            return await self._request(bot, method, timeout)
        chat_id = paced_chat(method)
        if chat_id is not None:
            await limits.before_send(bot.id, chat_id)
        try:
            return await self._request(bot, method, timeout)
        except TelegramRetryAfter as exc:
            if type(method).__name__ != "GetUpdates":
                await limits.hold(bot.id, exc.retry_after)
            raise
        except TelegramForbiddenError:
            blocked = _chat_of(method)
            if blocked is not None:
                await limits.blocked(blocked)
            raise
        finally:
            if chat_id is not None:
                limits.answered(chat_id)

    async def _request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None
    ) -> TelegramType:
        body = self.json_body(bot, method)
        if body is None:
            return await super().make_request(bot, method, timeout)
        session = await self.create_session()
        url = self.api.api_url(token=bot.token, method=method.__api_method__)
        try:
            async with session.post(
                url,
                data=body.encode(),
                headers=JSON_HEADERS,
                timeout=self.timeout if timeout is None else timeout,
            ) as resp:
                raw_result = await resp.text()
        except TimeoutError as e:
            raise TelegramNetworkError(method=method, message="Request timeout error") from e
        except ClientError as e:
            raise TelegramNetworkError(method=method, message=f"{type(e).__name__}: {e}") from e
        if resp.status == HTTPStatus.OK and (quick := _plain_result(method, raw_result)):
            return cast(TelegramType, quick[0])
        response = self.check_response(
            bot=bot, method=method, status_code=resp.status, content=raw_result
        )
        return cast(TelegramType, response.result)


def _plain_result(method: TelegramMethod[Any], raw: str) -> tuple[Any] | None:
    """The result of a call that returns True or a message's id, read without aiogram's typed
    `Response` (a generic model validated per call: most of an answer's Bot API calls — its
    parts, the typing, the drafts — return nothing more); None for anything else, which
    `check_response` reads as always, errors included."""
    returning = method.__returning__
    if returning is not bool and returning is not MessageId:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("ok") is not True:
        return None
    result = data.get("result")
    if returning is bool:
        return (result,) if isinstance(result, bool) else None
    if isinstance(result, dict) and type(message_id := result.get("message_id")) is int:
        return (MessageId.model_construct(message_id=message_id),)
    return None
