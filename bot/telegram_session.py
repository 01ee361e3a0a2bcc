"""Bot API requests sent as one JSON body.

aiogram's `AiohttpSession` sends every request as a form: each nested object (a keyboard, the
link-preview options) JSON-encoded on its own, then the whole form URL-encoded or split into
multipart parts. The Bot API takes `application/json` bodies as well, and one `json.dumps` of
the request costs a fraction of the form (py-spy found building and encoding the forms in every
answer's profile: nine calls per answer). Requests that upload a file still go out as
aiogram's form.
"""

from __future__ import annotations

from typing import Any, cast

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.exceptions import TelegramNetworkError
from aiogram.methods import TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import InputFile
from aiohttp import ClientError

JSON_HEADERS = {"Content-Type": "application/json"}


class JsonBodySession(AiohttpSession):
    def json_body(self, bot: Bot, method: TelegramMethod[Any]) -> str | None:
        """The request as JSON, or None when it uploads a file (those need a form)."""
        files: dict[str, InputFile] = {}
        body: dict[str, Any] = {}
        for key, value in method.model_dump(warnings=False).items():
            prepared = self.prepare_value(value, bot=bot, files=files, _dumps_json=False)
            # The form leaves out the same empty values (aiogram's build_form_data).
            if prepared is None or prepared == "":
                continue
            body[key] = prepared
        return None if files else self.json_dumps(body)

    async def make_request(
        self, bot: Bot, method: TelegramMethod[TelegramType], timeout: int | None = None
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
        response = self.check_response(
            bot=bot, method=method, status_code=resp.status, content=raw_result
        )
        return cast(TelegramType, response.result)
