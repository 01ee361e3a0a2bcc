"""FakeOpenAIServer: the routes, the lifecycle, scripting and reset, the models endpoints; the
endpoints themselves come from the mixins (chat.py, embeddings.py, media.py)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from aiohttp import web

from fakes.openai.chat import ChatMixin
from fakes.openai.embeddings import EmbeddingsMixin
from fakes.openai.media import TRANSCRIPTION_MODELS, MediaMixin
from fakes.openai.protocol import Invalid, JSONDict
from fakes.openai.steps import ResponderFn, Step

DEFAULT_MODEL_ID = "gpt-4o-mini"


class FakeOpenAIServer(ChatMixin, EmbeddingsMixin, MediaMixin):
    """Strict, scriptable OpenAI-compatible HTTP server for tests (see fakes/openai/__init__.py)."""

    def __init__(self, *, api_key: str = "test-key", embedding_dim: int = 1536) -> None:
        self.api_key = api_key
        self.embedding_dim = embedding_dim
        self.requests: list[JSONDict] = []
        self.embedding_requests: list[JSONDict] = []
        self.errors: list[str] = []
        self.embedding_fn: Callable[[str], list[float]] | None = None
        self.embeddings_fail: int | None = None
        self.latency: float = 0.0
        #: Seconds between streamed pieces of a reply's text (a model writing at a fixed pace).
        self.chunk_delay: float = 0.0
        #: time.time() when each streamed reply's first piece of text was sent.
        self.first_content_at: list[float] = []
        self.model_id: str = DEFAULT_MODEL_ID
        #: Chat models that cannot see images: an image content part gets the real API's 400.
        self.non_vision_models: set[str] = set()
        #: Chat requests that carried an image (also recorded in ``requests``).
        self.vision_requests: list[JSONDict] = []
        #: Models /audio/transcriptions knows; any other model answers 404.
        self.transcription_models: set[str] = set(TRANSCRIPTION_MODELS)
        #: One record per valid transcription request: model, filename, size, other fields.
        self.transcription_requests: list[JSONDict] = []
        #: Model name -> how that model answers a chat request no scripted step answers (e.g.
        #: fakes/inventing_model.py); other models answer "ok".
        self.model_responders: dict[str, ResponderFn] = {}
        self._queue: deque[Step] = deque()
        self._vision_queue: deque[Step] = deque()
        self._transcripts: deque[str] = deque()
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._call_counter = 0
        self._closing = asyncio.Event()

    # -- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        if self._runner is not None:
            return
        self._closing = asyncio.Event()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        app.router.add_post("/v1/embeddings", self._handle_embeddings)
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_get("/v1/models/{model}", self._handle_model)
        app.router.add_post("/v1/audio/transcriptions", self._handle_transcription)
        app.router.add_route("*", "/{tail:.*}", self._handle_not_found)
        runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=0.5
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._port = int(runner.addresses[0][1])

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            self._closing.set()  # wake hang()/latency sleepers so shutdown is immediate
            await runner.cleanup()

    async def __aenter__(self) -> FakeOpenAIServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        if self._runner is None or self._port is None:
            raise RuntimeError("FakeOpenAIServer is not started")
        return f"http://127.0.0.1:{self._port}/v1"

    # -- scripting -------------------------------------------------------------------

    def script(self, *steps: Step) -> None:
        """Append ``steps`` to the chat-completion queue (consumed in order)."""
        for step in steps:
            if not isinstance(step, Step):
                raise TypeError(f"not a Step: {step!r}")
        self._queue.extend(steps)

    @property
    def pending_steps(self) -> int:
        """Number of scripted steps not consumed yet."""
        return len(self._queue)

    def reset(self) -> None:
        """Forget recorded requests/errors and the scripted queue; restore defaults."""
        self.requests.clear()
        self.embedding_requests.clear()
        self.errors.clear()
        self._queue.clear()
        self._vision_queue.clear()
        self._transcripts.clear()
        self.vision_requests.clear()
        self.transcription_requests.clear()
        self.non_vision_models.clear()
        self.model_responders.clear()
        self.transcription_models = set(TRANSCRIPTION_MODELS)
        self.embedding_fn = None
        self.embeddings_fail = None
        self.latency = 0.0
        self.chunk_delay = 0.0
        self.first_content_at = []

    # -- routes ----------------------------------------------------------------------

    async def _handle_not_found(self, request: web.Request) -> web.Response:
        return self._error_response(
            404, f"Invalid URL ({request.method} {request.path})", code=None
        )

    async def _handle_models(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
        except Invalid as exc:
            return self._reject(exc)
        return web.json_response(
            {"object": "list", "data": [self._model_obj(self.model_id)]}, headers=self._headers()
        )

    async def _handle_model(self, request: web.Request) -> web.Response:
        try:
            self._check_auth(request)
        except Invalid as exc:
            return self._reject(exc)
        model = request.match_info["model"]
        if model != self.model_id:
            return self._error_response(
                404,
                f"The model '{model}' does not exist",
                param="model",
                code="model_not_found",
            )
        return web.json_response(self._model_obj(model), headers=self._headers())

    @staticmethod
    def _model_obj(model: str) -> JSONDict:
        return {"id": model, "object": "model", "created": 1700000000, "owned_by": "system"}
