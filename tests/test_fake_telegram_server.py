"""Tests of the fake Telegram Bot API telegram, driven by a real aiogram Bot/Dispatcher."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot, Dispatcher, F, Router
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)

from fakes.telegram_server import (
    FakeTelegramServer,
    HtmlParseError,
    SentCall,
    UploadedFile,
    parse_telegram_html,
)

CHAT = 777


def make_bot(telegram: FakeTelegramServer, token: str | None = None) -> Bot:
    session = AiohttpSession(api=TelegramAPIServer.from_base(telegram.base_url))
    return Bot(
        token or telegram.token,
        session=session,
        default=DefaultBotProperties(parse_mode="HTML"),
    )


@pytest.fixture
async def telegram() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as fake:
        yield fake


@pytest.fixture
async def bot(telegram: FakeTelegramServer) -> AsyncIterator[Bot]:
    client = make_bot(telegram)
    yield client
    await client.session.close()


def keyboard(*buttons: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=[list(buttons)])


# ------------------------------------------------------------------------------ basics


async def test_get_me(telegram: FakeTelegramServer, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.id == 123456
    assert me.is_bot
    assert me.username == "sommelier_test_bot"
    assert telegram.base_url.startswith("http://127.0.0.1:")
    assert [call.method for call in telegram.sent()] == ["getMe"]


async def test_send_message_is_accepted_and_recorded(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    markup = keyboard(InlineKeyboardButton(text="Red", callback_data="color:red"))
    message = await bot.send_message(CHAT, "Hello, <b>wine</b> lover", reply_markup=markup)

    assert isinstance(message, Message)
    assert message.chat.id == CHAT
    assert message.chat.type == "private"
    assert message.from_user is not None and message.from_user.id == telegram.bot_user["id"]
    assert message.text == "Hello, wine lover"
    assert message.entities is not None and message.entities[0].type == "bold"
    assert message.reply_markup is not None
    assert message.reply_markup.model_dump() == markup.model_dump()

    (call,) = telegram.sent("sendMessage", chat_id=CHAT)
    assert isinstance(call, SentCall)
    assert call.ok and call.error is None
    assert call.message_id == message.message_id
    assert call.params["chat_id"] == CHAT
    assert call.params["text"] == "Hello, <b>wine</b> lover"
    assert call.params["parse_mode"] == "HTML"
    assert call.params["reply_markup"] == {
        "inline_keyboard": [[{"text": "Red", "callback_data": "color:red"}]]
    }
    assert call.visible_text == "Hello, wine lover"
    assert call.inline_buttons == [{"text": "Red", "callback_data": "color:red"}]
    assert telegram.sent(chat_id=CHAT + 1) == []

    second = await bot.send_message(-100123, "group hello")
    assert second.message_id == message.message_id + 1
    assert second.chat.type == "supergroup"
    assert telegram.chat_messages(CHAT)[0]["text"] == "Hello, wine lover"


async def test_numeric_looking_text_stays_a_string(telegram: FakeTelegramServer, bot: Bot) -> None:
    await bot.send_message(CHAT, "12345")
    await bot.send_message(CHAT, "[1, 2]")
    assert [call.params["text"] for call in telegram.sent("sendMessage")] == ["12345", "[1, 2]"]


async def test_message_length_limits(telegram: FakeTelegramServer, bot: Bot) -> None:
    await bot.send_message(CHAT, "x" * 4096)
    # Tags do not count towards the limit, escaped entities count as one character.
    await bot.send_message(CHAT, "<b>" + "x" * 4090 + "</b>&lt;&gt;&amp;&quot;&#127863;&#x1F377;")

    with pytest.raises(TelegramBadRequest, match="message is too long"):
        await bot.send_message(CHAT, "x" * 4097)
    with pytest.raises(TelegramBadRequest, match="message text is empty"):
        await bot.send_message(CHAT, "<b>  </b>")

    assert len(telegram.sent("sendMessage")) == 2
    assert [call.error for call in telegram.rejected] == [
        "Bad Request: message is too long",
        "Bad Request: message text is empty",
    ]
    assert telegram.calls[-1].ok is False


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("<div>x</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        (
            "<b><i>x</b></i>",
            'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"',
        ),
        ("fish & chips", 'Character "&" must be escaped as "&amp;" at byte offset 5'),
        ("&nbsp;", 'Character "&" must be escaped as "&amp;" at byte offset 0'),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("<a>x</a>", 'Tag "a" must have non-empty attribute "href" at byte offset 0'),
        ("<b", "Unclosed start tag at byte offset 0"),
        ("вино <div>", 'Unsupported start tag "div" at byte offset 9'),
    ],
)
async def test_invalid_html_is_rejected(
    telegram: FakeTelegramServer, bot: Bot, text: str, reason: str
) -> None:
    with pytest.raises(TelegramBadRequest) as excinfo:
        await bot.send_message(CHAT, text)
    expected = f"Bad Request: can't parse entities: {reason}"
    assert excinfo.value.message == expected
    assert telegram.rejected[-1].error == expected
    assert telegram.rejected[-1].status == 400
    assert telegram.sent("sendMessage") == []


async def test_valid_nested_html_is_accepted(telegram: FakeTelegramServer, bot: Bot) -> None:
    text = (
        "<b>Bold <i>italic <u>under</u></i></b> "
        '<a href="https://example.com/?a=1&amp;b=2">link</a> '
        "<s>old</s> <code>x</code>\n"
        '<pre><code class="language-python">print(1)</code></pre>'
        "<blockquote expandable>quote</blockquote>"
        '<tg-spoiler>s1</tg-spoiler> <span class="tg-spoiler">s2</span> '
        '<tg-emoji emoji-id="5368324170671202286">🍷</tg-emoji> &lt;3'
    )
    message = await bot.send_message(CHAT, text)
    assert message.text == ("Bold italic under link old x\nprint(1)quotes1 s2 🍷 <3")
    types = [entity.type for entity in message.entities or []]
    assert types == [
        "bold",
        "italic",
        "underline",
        "text_link",
        "strikethrough",
        "code",
        "pre",
        "expandable_blockquote",
        "spoiler",
        "spoiler",
        "custom_emoji",
    ]
    entities = {entity.type: entity for entity in message.entities or []}
    assert entities["text_link"].url == "https://example.com/?a=1&b=2"
    assert entities["pre"].language == "python"
    assert telegram.sent("sendMessage")[0].visible_text == message.text


def test_html_parser_offsets_are_utf16() -> None:
    visible, entities = parse_telegram_html("🍷 <b>Вино</b>")
    assert visible == "🍷 Вино"
    assert entities == [{"type": "bold", "offset": 3, "length": 4}]
    assert parse_telegram_html("a & b", strict_ampersand=False)[0] == "a & b"
    with pytest.raises(HtmlParseError):
        parse_telegram_html("<b>x</i>")


async def test_parse_mode_none_skips_html_validation(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    message = await bot.send_message(CHAT, "a < b & <div>", parse_mode=None)
    assert message.text == "a < b & <div>"
    with pytest.raises(TelegramBadRequest, match="unsupported parse_mode"):
        await bot.send_message(CHAT, "x", parse_mode="BBCode")


# ------------------------------------------------------------------------------ media


async def test_send_photo_url_and_upload(telegram: FakeTelegramServer, bot: Bot) -> None:
    by_url = await bot.send_photo(CHAT, "https://example.com/wine.jpg", caption="<i>Merlot</i>")
    assert by_url.photo and by_url.caption == "Merlot"

    upload = BufferedInputFile(b"\x89PNG fake image", filename="label.png")
    uploaded = await bot.send_photo(CHAT, upload, caption="label")
    assert uploaded.photo

    url_call, upload_call = telegram.sent("sendPhoto")
    assert url_call.params["photo"] == "https://example.com/wine.jpg"
    photo = upload_call.params["photo"]
    assert isinstance(photo, UploadedFile)
    assert photo.filename == "label.png"
    assert photo.data == b"\x89PNG fake image"
    assert upload_call.message_id == uploaded.message_id


async def test_caption_too_long_is_rejected(telegram: FakeTelegramServer, bot: Bot) -> None:
    await bot.send_photo(CHAT, "https://example.com/a.jpg", caption="c" * 1024)
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await bot.send_photo(CHAT, "https://example.com/a.jpg", caption="c" * 1025)
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_photo(CHAT, "https://example.com/a.jpg", caption="<b>x")
    assert len(telegram.sent("sendPhoto")) == 1
    assert len(telegram.rejected) == 2


# ------------------------------------------------------------------------------ keyboards


async def test_callback_data_limit_is_64_bytes(telegram: FakeTelegramServer, bot: Bot) -> None:
    ok = keyboard(InlineKeyboardButton(text="ok", callback_data="d" * 64))
    await bot.send_message(CHAT, "fits", reply_markup=ok)

    for data in ("d" * 65, "🍷" * 17):  # 65 bytes; 17 characters but 68 UTF-8 bytes
        markup = keyboard(InlineKeyboardButton(text="bad", callback_data=data))
        with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
            await bot.send_message(CHAT, "too much", reply_markup=markup)

    assert len(telegram.sent("sendMessage")) == 1
    assert [call.error for call in telegram.rejected] == ["Bad Request: BUTTON_DATA_INVALID"] * 2


async def test_inline_button_needs_exactly_one_action(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    no_action = keyboard(InlineKeyboardButton(text="plain"))
    with pytest.raises(TelegramBadRequest, match="Text buttons are unallowed"):
        await bot.send_message(CHAT, "x", reply_markup=no_action)
    both = keyboard(InlineKeyboardButton(text="t", callback_data="a", url="https://example.com"))
    with pytest.raises(TelegramBadRequest, match="exactly one"):
        await bot.send_message(CHAT, "x", reply_markup=both)
    bad_url = keyboard(InlineKeyboardButton(text="t", url="example.com"))
    with pytest.raises(TelegramBadRequest, match="BUTTON_URL_INVALID"):
        await bot.send_message(CHAT, "x", reply_markup=bad_url)
    link = keyboard(InlineKeyboardButton(text="shop", url="https://example.com/shop"))
    await bot.send_message(CHAT, "x", reply_markup=link)
    assert len(telegram.rejected) == 3


# ------------------------------------------------------------------------------ injected errors


async def test_fail_next_429_surfaces_as_retry_after(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    telegram.fail_next("sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7)
    with pytest.raises(TelegramRetryAfter) as excinfo:
        await bot.send_message(CHAT, "hi")
    assert excinfo.value.retry_after == 7
    assert telegram.rejected[-1].status == 429

    await bot.send_message(CHAT, "hi again")  # only the next call fails
    assert [call.params["text"] for call in telegram.sent("sendMessage")] == ["hi again"]


async def test_fail_next_forbidden_and_server_errors(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    telegram.fail_next("sendMessage", 403, "Forbidden: bot was blocked by the user", times=2)
    telegram.fail_next("sendmessage", 502, "Bad Gateway")
    for _ in range(2):
        with pytest.raises(TelegramForbiddenError, match="bot was blocked"):
            await bot.send_message(CHAT, "hi")
    with pytest.raises(TelegramServerError, match="Bad Gateway"):
        await bot.send_message(CHAT, "hi")
    await bot.send_message(CHAT, "finally")
    assert [call.status for call in telegram.calls] == [403, 403, 502, 200]


async def test_fail_next_when_meets_only_the_calls_it_accepts(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    """«can't parse entities» is Telegram's answer to a message with a parse_mode only: a plain
    message passes, and the fault waits for the next message that has one."""
    telegram.fail_next(
        "sendMessage",
        400,
        "Bad Request: can't parse entities: injected",
        when=lambda params: bool(params.get("parse_mode")),
    )
    await bot.send_message(CHAT, "plain", parse_mode=None)
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(CHAT, "<b>bold</b>", parse_mode="HTML")
    await bot.send_message(CHAT, "<b>again</b>", parse_mode="HTML")
    assert [(c.params["text"], c.status) for c in telegram.calls] == [
        ("plain", 200),
        ("<b>bold</b>", 400),
        ("<b>again</b>", 200),
    ]


async def test_delay_next_causes_client_timeout(telegram: FakeTelegramServer, bot: Bot) -> None:
    telegram.delay_next("sendMessage", 2.0)
    with pytest.raises(TelegramNetworkError):  # the client gave up before the server answered
        await bot.send_message(CHAT, "slow", request_timeout=1)
    # The server still processed the request, like Telegram would.
    await telegram.wait_for(lambda calls: any(c.method == "sendMessage" for c in calls), 5)
    await bot.send_message(CHAT, "fast")
    assert [call.params["text"] for call in telegram.sent("sendMessage")] == ["slow", "fast"]


async def test_wrong_token_and_unknown_method(telegram: FakeTelegramServer) -> None:
    other = make_bot(telegram, token="999:WRONG")
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await other.get_me()
    finally:
        await other.session.close()
    assert telegram.rejected[-1].error == "Unauthorized"

    async with aiohttp.ClientSession() as http:
        url = f"{telegram.base_url}/bot{telegram.token}/sendWine"
        async with http.post(url, data={"chat_id": "1"}) as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
        # JSON bodies are accepted as well; method names are case-insensitive.
        url = f"{telegram.base_url}/bot{telegram.token}/sendmessage"
        payload = {
            "chat_id": CHAT,
            "text": "<b>json</b>",
            "parse_mode": "HTML",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "b"}]]},
        }
        async with http.post(url, json=payload) as response:
            body = await response.json()
            assert response.status == 200 and body["ok"] is True
            assert body["result"]["text"] == "json"
    call = telegram.sent("sendMessage")[-1]
    assert call.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "b"


async def test_chat_action_validation(telegram: FakeTelegramServer, bot: Bot) -> None:
    assert await bot.send_chat_action(CHAT, "typing") is True
    with pytest.raises(TelegramBadRequest, match="wrong parameter action"):
        await bot.send_chat_action(CHAT, "dancing")
    assert [call.params["action"] for call in telegram.sent("sendChatAction")] == ["typing"]


# ------------------------------------------------------------------------------ getUpdates


async def test_get_updates_returns_pushed_updates_and_honours_offset(
    telegram: FakeTelegramServer, bot: Bot
) -> None:
    first = telegram.message_update(CHAT, "hello")
    telegram.push_update(first)
    telegram.push_update({"message": telegram.message_update(CHAT, "second")["message"]})

    updates = await bot.get_updates()
    assert [u.message.text for u in updates if u.message] == ["hello", "second"]
    assert updates[1].update_id > updates[0].update_id
    # Not confirmed yet: returned again.
    assert len(await bot.get_updates()) == 2

    rest = await bot.get_updates(offset=updates[0].update_id + 1)
    assert [u.update_id for u in rest] == [updates[1].update_id]
    assert await bot.get_updates(offset=updates[1].update_id + 1) == []
    assert telegram.pending_updates == []


async def test_get_updates_filters_allowed_updates(telegram: FakeTelegramServer, bot: Bot) -> None:
    telegram.push_update(telegram.message_update(CHAT, "msg"))
    telegram.push_update(telegram.callback_update(CHAT, "cb", message_id=1))
    updates = await bot.get_updates(allowed_updates=["callback_query"])
    assert [u.callback_query.data for u in updates if u.callback_query] == ["cb"]
    assert len(updates) == 1


async def test_long_poll_returns_early_on_push(telegram: FakeTelegramServer, bot: Bot) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=60, request_timeout=90))
    await asyncio.sleep(0.3)
    assert not poll.done()
    telegram.push_update(telegram.message_update(CHAT, "wake up"))
    updates = await asyncio.wait_for(poll, 30)  # long before the poll's own 60 s
    assert updates[0].message is not None and updates[0].message.text == "wake up"


async def test_long_poll_times_out_empty(telegram: FakeTelegramServer, bot: Bot) -> None:
    started = time.monotonic()
    assert await bot.get_updates(timeout=1) == []
    assert time.monotonic() - started >= 0.9  # it did wait for updates


async def test_concurrent_long_polls_conflict(telegram: FakeTelegramServer, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await asyncio.sleep(0.2)
    second = asyncio.create_task(bot.get_updates(timeout=5))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates"):
        await asyncio.wait_for(first, 3)
    telegram.push_update(telegram.message_update(CHAT, "for the survivor"))
    updates = await asyncio.wait_for(second, 3)
    assert [u.message.text for u in updates if u.message] == ["for the survivor"]


async def test_stop_does_not_wait_for_pending_long_poll() -> None:
    telegram = FakeTelegramServer()
    await telegram.start()
    client = make_bot(telegram)
    try:
        poll = asyncio.create_task(client.get_updates(timeout=30))
        await asyncio.sleep(0.2)
        await asyncio.wait_for(telegram.stop(), 15)  # not the poll's 30 s
        assert await asyncio.wait_for(poll, 15) == []
    finally:
        await client.session.close()


async def test_webhook_blocks_get_updates(telegram: FakeTelegramServer, bot: Bot) -> None:
    assert await bot.set_webhook("https://example.com/hook", secret_token="s3cret")
    assert telegram.webhook is not None and telegram.webhook["url"] == "https://example.com/hook"
    info = await bot.get_webhook_info()
    assert info.url == "https://example.com/hook"
    with pytest.raises(TelegramConflictError):
        await bot.get_updates()
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert telegram.webhook is None
    assert (await bot.get_webhook_info()).url == ""


# ------------------------------------------------------------------------------ edits & misc


async def test_edit_message_text(telegram: FakeTelegramServer, bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("new", chat_id=CHAT, message_id=4242)

    markup = keyboard(InlineKeyboardButton(text="More", callback_data="more"))
    sent = await bot.send_message(CHAT, "<b>Wine</b>", reply_markup=markup)
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "<strong>Wine</strong>", chat_id=CHAT, message_id=sent.message_id, reply_markup=markup
        )

    edited = await bot.edit_message_text(
        "Red <i>wine</i>", chat_id=CHAT, message_id=sent.message_id
    )
    assert isinstance(edited, Message)
    assert edited.text == "Red wine"
    assert edited.reply_markup is None  # omitted markup removes the keyboard
    assert edited.edit_date is not None
    (call,) = telegram.sent("editMessageText")
    assert call.message_id == sent.message_id

    new_markup = keyboard(InlineKeyboardButton(text="Less", callback_data="less"))
    await bot.edit_message_reply_markup(
        chat_id=CHAT, message_id=sent.message_id, reply_markup=new_markup
    )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=CHAT, message_id=sent.message_id, reply_markup=new_markup
        )
    assert telegram.chat_messages(CHAT)[-1]["reply_markup"] == new_markup.model_dump(
        exclude_none=True
    )

    with pytest.raises(TelegramBadRequest, match="no caption"):
        await bot.edit_message_caption(chat_id=CHAT, message_id=sent.message_id, caption="c")
    photo = await bot.send_photo(CHAT, "https://example.com/p.jpg", caption="before")
    edited_photo = await bot.edit_message_caption(
        chat_id=CHAT, message_id=photo.message_id, caption="after"
    )
    assert isinstance(edited_photo, Message) and edited_photo.caption == "after"

    assert await bot.delete_message(CHAT, sent.message_id)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(CHAT, sent.message_id)


async def test_send_message_draft_private_chat_only(telegram: FakeTelegramServer, bot: Bot) -> None:
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message_draft(chat_id=CHAT, draft_id=1, text="Thinking about <b>wine")
    assert await bot.send_message_draft(chat_id=CHAT, draft_id=1, text="Thinking about <b>wine</b>")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message_draft(chat_id=-100500, draft_id=1, text="group")
    drafts = telegram.sent("sendMessageDraft", chat_id=CHAT)
    assert [call.params["draft_id"] for call in drafts] == [1]
    assert telegram.drafts[(CHAT, 1)] == "Thinking about wine"
    assert [call.method for call in telegram.rejected] == ["sendMessageDraft"] * 2


async def test_commands_chat_and_callback_answers(telegram: FakeTelegramServer, bot: Bot) -> None:
    assert await bot.set_my_commands([BotCommand(command="start", description="Start")])
    assert telegram.commands == [{"command": "start", "description": "Start"}]
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Bad Command", description="x")])

    chat = await bot.get_chat(CHAT)
    assert chat.id == CHAT and chat.type == "private"

    update = telegram.callback_update(CHAT, "pick:1", message_id=99)
    telegram.push_update(update)
    query_id = update["callback_query"]["id"]
    assert await bot.answer_callback_query(query_id, text="Done")
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(query_id)
    assert await bot.close() is True
    assert await bot.log_out() is True


def test_update_builders_produce_valid_updates() -> None:
    telegram = FakeTelegramServer()
    message = Update.model_validate(telegram.message_update(5, "/start wine", first_name="Olga"))
    assert message.message is not None
    assert message.message.from_user is not None and message.message.from_user.id == 5
    assert message.message.entities is not None
    assert message.message.entities[0].type == "bot_command"

    group = Update.model_validate(
        telegram.message_update(-42, "hi", user_id=7, chat_type="group", reply_to_message=None)
    )
    assert group.message is not None and group.message.chat.type == "group"
    assert group.update_id == message.update_id + 1

    callback = Update.model_validate(telegram.callback_update(5, "x", message_id=1))
    assert callback.callback_query is not None and callback.callback_query.data == "x"

    for kind in ("photo", "sticker", "voice", "location", "document"):
        update = Update.model_validate(telegram.non_text_update(5, kind))
        assert update.message is not None
        assert getattr(update.message, kind) is not None
        assert update.message.text is None
    with pytest.raises(ValueError, match="kind"):
        telegram.non_text_update(5, "video")


async def test_wait_for_times_out_with_dump(telegram: FakeTelegramServer, bot: Bot) -> None:
    await bot.send_message(CHAT, "only message")
    with pytest.raises(AssertionError, match="only message"):
        await telegram.wait_for(lambda calls: len(calls) > 5, timeout=0.2)


# ------------------------------------------------------------------------------ dispatcher


async def test_dispatcher_polling_echo(telegram: FakeTelegramServer, bot: Bot) -> None:
    router = Router()

    @router.message(F.text)
    async def echo(message: Message) -> None:
        markup = keyboard(InlineKeyboardButton(text="Again", callback_data="again"))
        await message.answer(f"echo: <b>{message.text}</b>", reply_markup=markup)

    @router.callback_query(F.data == "again")
    async def again(query: CallbackQuery) -> None:
        await query.answer("ok")
        if isinstance(query.message, Message):
            await query.message.edit_text("edited")

    dp = Dispatcher()
    dp.include_router(router)
    polling = asyncio.create_task(dp.start_polling(bot, handle_signals=False))
    try:
        telegram.push_update(telegram.message_update(CHAT, "Pinot noir"))
        await telegram.wait_for(lambda calls: any(c.method == "sendMessage" for c in calls))
        (reply,) = telegram.sent("sendMessage", chat_id=CHAT)
        assert reply.visible_text == "echo: Pinot noir"
        assert reply.message_id is not None

        telegram.push_update(telegram.callback_update(CHAT, "again", message_id=reply.message_id))
        await telegram.wait_for(lambda calls: any(c.method == "editMessageText" for c in calls))
        assert telegram.sent("answerCallbackQuery")
        assert telegram.chat_messages(CHAT)[-1]["text"] == "edited"
        # allowed_updates were derived from the registered handlers.
        polls = telegram.sent("getUpdates")
        assert polls and set(polls[-1].params["allowed_updates"]) == {"message", "callback_query"}
    finally:
        await dp.stop_polling()
        await asyncio.wait_for(polling, 10)
    assert telegram.rejected == []
