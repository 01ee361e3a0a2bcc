"""FakeTelegramServer: the HTTP plumbing (routes, reading parameters, answering, errors),
the lifecycle, what a test inspects, and fault injection; the Bot API methods come from the
mixins (updates.py, messages.py, media.py, inline.py)."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from aiohttp import web

from fakes.telegram.inline import InlineMixin
from fakes.telegram.limits import TelegramLimits
from fakes.telegram.media import MediaMixin
from fakes.telegram.messages import MessagesMixin
from fakes.telegram.state import MethodHandler
from fakes.telegram.updates import UpdatesMixin
from fakes.telegram.wire import (
    STRING_FIELDS,
    ApiError,
    Injection,
    SentCall,
    UploadedFile,
    bad_request,
    decode_form_value,
)


class FakeTelegramServer(UpdatesMixin, MediaMixin, MessagesMixin, InlineMixin):
    """An in-process fake Telegram Bot API server.

    Usage::

        async with FakeTelegramServer() as server:
            session = AiohttpSession(api=TelegramAPIServer.from_base(server.base_url))
            bot = Bot(server.token, session=session)
            ...
            server.push_update(server.message_update(chat_id=42, text="/start"))
            await server.wait_for(lambda calls: any(c.method == "sendMessage" for c in calls))
    """

    #: Reject a bare "&" in HTML text (Telegram itself tolerates it; the docs forbid it).
    strict_ampersand: bool = True

    def __init__(self, token: str = "123456:TEST-token") -> None:
        self.token: str = token
        bot_id_part = token.partition(":")[0]
        bot_id = int(bot_id_part) if bot_id_part.isdigit() else 123456
        self.bot_user: dict[str, Any] = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Sommelier",
            "username": "sommelier_test_bot",
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }
        self.calls: list[SentCall] = []
        self.rejected: list[SentCall] = []
        self.webhook: dict[str, Any] | None = None
        #: Commands set by setMyCommands (default scope / last call).
        self.commands: list[dict[str, Any]] = []
        #: Latest visible text of each message draft, keyed by (chat_id, draft_id).
        self.drafts: dict[tuple[int, int], str] = {}
        self.base_url: str = ""
        #: Telegram's rate limits and the chats that blocked the bot (limits.py).
        self.limits = TelegramLimits()

        self._host = "127.0.0.1"
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self._update_event = asyncio.Event()
        self._updates: list[dict[str, Any]] = []
        self._allowed_updates: frozenset[str] | None = None
        self._poll_generation = 0
        self._next_update_id = 1
        self._next_message_id = 1
        self._next_file_id = 1
        self._messages: dict[int, dict[int, dict[str, Any]]] = {}
        self._chats: dict[int, dict[str, Any]] = {}
        self._open_callback_queries: set[str] = set()
        self._failures: dict[str, list[Injection]] = {}
        self._delays: dict[str, list[Injection]] = {}
        self._background: set[asyncio.Task[web.Response]] = set()
        self._methods: dict[str, tuple[str, MethodHandler]] = {}
        for name, handler in (
            ("getMe", self._get_me),
            ("getUpdates", self._get_updates),
            ("setWebhook", self._set_webhook),
            ("deleteWebhook", self._delete_webhook),
            ("getWebhookInfo", self._get_webhook_info),
            ("sendMessage", self._send_message),
            ("sendPhoto", self._send_photo),
            ("sendChatAction", self._send_chat_action),
            ("sendMessageDraft", self._send_message_draft),
            ("editMessageText", self._edit_message_text),
            ("editMessageReplyMarkup", self._edit_message_reply_markup),
            ("editMessageCaption", self._edit_message_caption),
            ("answerCallbackQuery", self._answer_callback_query),
            ("deleteMessage", self._delete_message),
            ("setMyCommands", self._set_my_commands),
            ("getMyCommands", self._get_my_commands),
            ("deleteMyCommands", self._delete_my_commands),
            ("getChat", self._get_chat),
            ("close", self._return_true),
            ("logOut", self._return_true),
        ):
            self._methods[name.lower()] = (name, handler)
        self._init_files()  # issue-13: getFile + file downloads (media.py)
        self._init_inline()  # issue-20: inline and guest queries (inline.py)

    # ---------------------------------------------------------------- lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Serve on `host`:`port` (a free port by default); tests keep to 127.0.0.1."""
        if self._runner is not None:
            return
        self._host = host
        self._closing = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download_file)  # issue-13
        runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, self._host, port)
        await site.start()
        port = runner.addresses[0][1]
        self._runner = runner
        self.base_url = f"http://{self._host}:{port}"

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is None:
            return
        self._closing.set()
        self._notify()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        await runner.cleanup()

    async def __aenter__(self) -> FakeTelegramServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # ---------------------------------------------------------------- inspection

    def sent(self, method: str | None = None, chat_id: int | None = None) -> list[SentCall]:
        """Accepted calls, optionally filtered by method name (case-insensitive) and chat."""
        wanted = method.lower() if method is not None else None
        return [
            call
            for call in self.calls
            if call.ok
            and (wanted is None or call.method.lower() == wanted)
            and (chat_id is None or call.chat_id == chat_id)
        ]

    def chat_messages(self, chat_id: int) -> list[dict[str, Any]]:
        """Current state (after edits/deletions) of every known message in a chat, by id."""
        messages = self._messages.get(chat_id, {})
        return [copy.deepcopy(messages[key]) for key in sorted(messages)]

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates queued for getUpdates and not yet confirmed by an offset."""
        return copy.deepcopy(self._updates)

    async def wait_for(
        self,
        predicate: Callable[[list[SentCall]], bool],
        timeout: float = 10.0,
    ) -> None:
        """Poll until ``predicate(accepted calls)`` is true; raise AssertionError on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if predicate(self.sent()):
                return
            if loop.time() >= deadline:
                raise AssertionError(
                    f"condition not met within {timeout}s; calls received:\n{self.dump_calls()}"
                )
            await asyncio.sleep(0.02)

    def dump_calls(self, *, include_get_updates: bool = False) -> str:
        lines = [
            f"  #{index} {call.describe()}"
            for index, call in enumerate(self.calls)
            if include_get_updates or call.method != "getUpdates"
        ]
        return "\n".join(lines) or "  (no calls)"

    # ---------------------------------------------------------------- fault injection

    def fail_next(
        self,
        method: str,
        status: int,
        description: str,
        retry_after: int | None = None,
        times: int = 1,
        after: int = 0,
        when: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with an error instead of handling them
        (the first ``after`` calls of it pass untouched). With ``when``, only calls whose
        parameters it accepts count: Telegram answers «can't parse entities» only to a message
        with a parse_mode, for instance."""
        if retry_after is None and status == 429:
            retry_after = 1
        self._failures.setdefault(method.lower(), []).append(
            Injection(
                remaining=times,
                skip=after,
                status=status,
                description=description,
                retry_after=retry_after,
                when=when,
            )
        )

    def block_bot(self, chat_id: int, blocked: bool = True) -> None:
        """The person of `chat_id` blocks the bot (or unblocks it): every call naming the
        chat gets 403, as from Telegram."""
        if blocked:
            self.limits.blocked.add(chat_id)
        else:
            self.limits.blocked.discard(chat_id)

    def delay_next(self, method: str, seconds: float, times: int = 1, after: int = 0) -> None:
        """Answer the next ``times`` calls of ``method`` only after ``seconds`` (the first
        ``after`` calls of it pass untouched).

        The call is still processed (and recorded) even when the client gives up waiting,
        like a real server that received a request whose client timed out.
        """
        self._delays.setdefault(method.lower(), []).append(
            Injection(remaining=times, skip=after, seconds=seconds)
        )

    @staticmethod
    def _take(queue: dict[str, list[Injection]], call: SentCall) -> Injection | None:
        pending = queue.get(call.method.lower())
        if not pending:
            return None
        injection = next((i for i in pending if i.when is None or i.when(call.params)), None)
        if injection is None:
            return None
        if injection.skip > 0:
            injection.skip -= 1
            return None
        injection.remaining -= 1
        if injection.remaining <= 0:
            pending[:] = [i for i in pending if i is not injection]
        return injection

    # ---------------------------------------------------------------- HTTP plumbing

    async def _handle(self, request: web.Request) -> web.Response:
        received_at = time.monotonic()
        raw_method = request.match_info["method"]
        entry = self._methods.get(raw_method.lower())
        method = entry[0] if entry else raw_method
        try:
            params = await self._read_params(request)
        except ApiError as exc:
            call = SentCall(method=method, params={}, ok=False, at=received_at)
            return self._reject(call, exc)
        call = SentCall(method=method, params=params, ok=False, at=received_at)
        if request.match_info["token"] != self.token:
            return self._reject(call, ApiError(401, "Unauthorized"))
        if entry is None:
            return self._reject(call, ApiError(404, "Not Found: method not found"))
        if method == "getUpdates":
            # A long poll abandoned by the client is simply dropped (nothing is consumed).
            return await self._process(call, entry[1])
        # Everything else is processed to the end even if the client disconnects meanwhile.
        task = asyncio.ensure_future(self._process(call, entry[1]))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return await asyncio.shield(task)

    async def _process(self, call: SentCall, handler: MethodHandler) -> web.Response:
        # Judged as it arrives, in the order calls arrive (as Telegram counts them): an injected
        # delay makes only the answer late. Judged after the delay, a slow call would be
        # counted behind calls that came after it, and refused for their pace, not its own.
        delay = self._take(self._delays, call)
        failure = self._take(self._failures, call)
        refusal = (
            None if failure is not None else self.limits.check(call.method, call.chat_id, call.at)
        )
        if delay is not None and delay.seconds > 0:
            await self._sleep(delay.seconds)
        if failure is not None:
            return self._reject(
                call, ApiError(failure.status, failure.description, failure.retry_after)
            )
        if refusal is not None:
            return self._reject(call, refusal)
        try:
            result = await handler(call.params, call)
        except ApiError as exc:
            return self._reject(call, exc)
        call.ok = True
        call.status = 200
        call.result = result
        self.calls.append(call)
        return web.json_response({"ok": True, "result": result})

    def _reject(self, call: SentCall, exc: ApiError) -> web.Response:
        call.ok = False
        call.status = exc.status
        call.error = exc.description
        call.message_id = None
        self.calls.append(call)
        self.rejected.append(call)
        return web.json_response(exc.payload(), status=exc.status)

    async def _read_params(self, request: web.Request) -> dict[str, Any]:
        params: dict[str, Any] = {}
        for key, value in request.query.items():
            params[key] = decode_form_value(key, value)
        if request.method not in ("POST", "PUT") or not request.can_read_body:
            return params
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                raise bad_request("can't parse JSON object") from exc
            if not isinstance(body, dict):
                raise bad_request("can't parse JSON object")
            for key, value in body.items():
                if isinstance(value, str) and key not in STRING_FIELDS:
                    params[key] = decode_form_value(key, value)
                else:
                    params[key] = value
            return params
        form = await request.post()
        files: dict[str, UploadedFile] = {}
        for key, value in form.items():
            if isinstance(value, web.FileField):
                files[key] = UploadedFile(
                    field_name=key,
                    filename=value.filename,
                    content_type=value.content_type,
                    data=value.file.read(),
                )
            else:
                text = value if isinstance(value, str) else bytes(value).decode("utf-8")
                params[key] = decode_form_value(key, text)
        for key, value in list(params.items()):
            if isinstance(value, str) and value.startswith("attach://"):
                attached = files.pop(value.removeprefix("attach://"), None)
                if attached is not None:
                    params[key] = attached
        params.update(files)
        return params
