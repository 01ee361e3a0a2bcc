"""Group chats: summoned by a mention where the bot is not a member (guest mode: a
`guest_message` answered once with `answerGuestQuery`), or mentioned / replied to where it is.

One compact answer with picks for the summoning message and the message it replies to; nothing
from the group is stored. A reply to the bot's own group answer («а подешевле») refines it.
A caller who has not confirmed being 18+ gets a button into the private chat instead. Group
messages not meant for the bot (it reads them all with privacy mode off, or as an admin) get
no answer and reach no other router.
"""

from __future__ import annotations

import logging
import re
import uuid

from aiogram import Bot, F, Router
from aiogram.enums import ParseMode
from aiogram.methods import AnswerGuestQuery
from aiogram.types import (
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    LinkPreviewOptions,
    Message,
    User,
)
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.answering import typing_indicator
from bot.filters import InLoop
from bot.keyboards import wine_deep_link
from bot.rendering import read_table_reply, render_table_reply
from services.app.ops.rate_limits import RateLimits
from services.app.people.people import People
from services.app.picks.group import EarlierAnswer, GroupTable
from services.app.texts import T

log = logging.getLogger(__name__)
GROUP_CHATS = {"group", "supergroup"}


def age_keyboard(bot_username: str) -> InlineKeyboardMarkup:
    kb = InlineKeyboardBuilder()
    kb.button(text=T.group_age_button, url=f"https://t.me/{bot_username}?start=age")
    return kb.as_markup()


def _request_text(message: Message, bot_username: str) -> str:
    mention = re.compile(rf"@{re.escape(bot_username)}\b", re.IGNORECASE)
    return " ".join(mention.sub(" ", message.text or message.caption or "").split())


def _earlier_answer(message: Message) -> EarlierAnswer | None:
    replied = message.reply_to_message
    if replied is None:
        return None
    urls = [e.url for e in replied.entities or [] if e.type == "text_link" and e.url]
    found = read_table_reply(replied.text, urls)
    if found is None:
        return None
    request, ids = found
    return EarlierAnswer(request, [uuid.UUID(hex=i) for i in ids])


def _context(message: Message) -> str:
    """The replied-to message's text, when it is someone's words rather than the bot's answer."""
    replied = message.reply_to_message
    if replied is None or _earlier_answer(message) is not None:
        return ""
    return replied.text or replied.caption or ""


async def table_answer(message: Message, group_table: GroupTable, bot_username: str) -> str:
    """The HTML of the group answer for this message."""
    text = _request_text(message, bot_username)
    earlier = _earlier_answer(message)
    context = _context(message)
    who = message.from_user.id if message.from_user else None
    picks = await group_table.picks(f"{context} {text}".strip(), earlier, user_id=who)
    if not picks.wines:
        return T.group_nothing
    header = T.group_header.format(request=picks.request) if picks.request else T.group_header_any
    return render_table_reply(
        header,
        picks.wines,
        lambda w: wine_deep_link(bot_username, w.id),  # type: ignore[attr-defined]
    )


async def _allowed(user: User | None, people: People, rate_limits: RateLimits) -> str | None:
    """None when the caller may be answered, else why not ("age" or "rate")."""
    if user is None:
        return "age"
    state = await people.state(user.id)
    if state is None or not state.age_confirmed:
        return "age"
    if not await rate_limits.allow(f"tg:{user.id}"):
        return "rate"
    return None


def _article(
    text: str, title: str, markup: InlineKeyboardMarkup | None
) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=uuid.uuid4().hex,
        title=title,
        input_message_content=InputTextMessageContent(
            message_text=text,
            parse_mode=ParseMode.HTML,
            link_preview_options=LinkPreviewOptions(is_disabled=True),
        ),
        reply_markup=markup,
    )


async def guest_message(
    message: Message,
    people: People,
    group_table: GroupTable,
    rate_limits: RateLimits,
    bot: Bot,
) -> None:
    if not message.guest_query_id:
        return
    me = await bot.me()
    username = me.username or ""
    refusal = await _allowed(message.from_user, people, rate_limits)
    if refusal == "age":
        result = _article(T.group_age_needed, T.group_age_title, age_keyboard(username))
    elif refusal == "rate":
        result = _article(T.rate_limited, T.group_result_title, None)
    else:
        html_text = await table_answer(message, group_table, username)
        result = _article(html_text, T.group_result_title, None)
    await bot(AnswerGuestQuery(guest_query_id=message.guest_query_id, result=result))


def _addressed(message: Message, bot_id: int, username: str) -> bool:
    """A reply to the bot, or a text or caption that mentions it."""
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.from_user.id == bot_id:
        return True
    text = message.text or message.caption or ""
    for entity in message.entities or message.caption_entities or []:
        if entity.type == "text_mention" and entity.user is not None:
            if entity.user.id == bot_id:
                return True
        elif entity.type == "mention":
            word = entity.extract_from(text)
            if word.lower() == f"@{username}".lower():
                return True
    return False


def for_this_bot(message: Message, bot_id: int, username: str) -> bool:
    """Whether a group message is meant for this bot: addressed to it, or a command that is
    bare (`/help`) or names it (`/help@this_bot`), not one that names another bot."""
    text = message.text or message.caption or ""
    if text.startswith("/"):
        target = text.split(maxsplit=1)[0].partition("@")[2]
        return not target or target.lower() == username.lower()
    return _addressed(message, bot_id, username)


async def group_message(
    message: Message,
    people: People,
    group_table: GroupTable,
    rate_limits: RateLimits,
    bot: Bot,
) -> None:
    """A group message addressed to the bot (a mention, a reply to it): the table answer."""
    me = await bot.me()
    username = me.username or ""
    refusal = await _allowed(message.from_user, people, rate_limits)
    if refusal == "age":
        await message.reply(T.group_age_needed, reply_markup=age_keyboard(username))
    elif refusal == "rate":
        await message.reply(T.rate_limited)
    else:
        async with typing_indicator(bot, message.chat.id):
            html_text = await table_answer(message, group_table, username)
        await message.reply(html_text)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="group")

    async def addressed(message: Message, bot: Bot) -> bool:
        me = await bot.me()
        return _addressed(message, me.id, me.username or "")

    async def not_for_us(message: Message, bot: Bot) -> bool:
        me = await bot.me()
        return not for_this_bot(message, me.id, me.username or "")

    router.guest_message.register(guest_message)
    # Commands (/help@bot) go on to their own routers.
    router.message.register(
        group_message,
        InLoop(F.chat.type.in_(GROUP_CHATS)),
        InLoop(~F.text.startswith("/")),
        addressed,
    )
    # Where the bot may read every group message (privacy mode off, or an admin), the others
    # end here: no answer, nothing stored, no one's private conversation or taste involved.
    router.message.register(ignored, InLoop(F.chat.type.in_(GROUP_CHATS)), not_for_us)
    return router


async def ignored(message: Message) -> None:
    log.debug("group message %s not addressed to the bot: ignored", message.message_id)
