"""Inline mode: `@bot белое к рыбе до 1500` in any chat → catalog wines as inline results.

Answers come from the structured catalog path (no LLM), so they meet Telegram's inline
deadline. A person who has not confirmed being 18+, a query over the rate limit or one
that matches nothing gets an empty list with a button into the private chat, never an error.
"""

from __future__ import annotations

import logging

from aiogram import Bot, Router
from aiogram.enums import ParseMode
from aiogram.types import (
    ChosenInlineResult,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    LinkPreviewOptions,
)

from bot.keyboards import shared_card
from bot.rendering import compact_title, compact_why, render_compact_card
from core.domain import format_price
from core.recommendation import RecommendedWine
from services.app.ops.rate_limits import RateLimits
from services.app.people.people import People
from services.app.picks.inline import QuickPage, QuickPicks, read_offset
from services.app.texts import T

log = logging.getLogger(__name__)

CACHE_SECONDS = 30
START_HINT = "inline"
START_AGE = "age"


def inline_result(wine: RecommendedWine, bot_username: str) -> InlineQueryResultArticle:
    """One wine as an inline result; what is sent is the compact card with its buttons."""
    why = compact_why(wine)
    return InlineQueryResultArticle(
        id=wine.id.hex,  # 32 bytes, unique per wine
        title=compact_title(wine),
        description=format_price(wine.price_rub) + (T.inline_why_separator + why if why else ""),
        input_message_content=InputTextMessageContent(
            message_text=render_compact_card(wine),
            parse_mode=ParseMode.HTML,
            link_preview_options=LinkPreviewOptions(is_disabled=True),
        ),
        reply_markup=shared_card(wine.id, bot_username, wine.url),
        thumbnail_url=wine.image_url or None,
    )


def _hint(text: str, start: str = START_HINT) -> InlineQueryResultsButton:
    return InlineQueryResultsButton(text=text, start_parameter=start)


async def answer_inline(
    query: InlineQuery,
    people: People,
    quick_picks: QuickPicks,
    rate_limits: RateLimits,
    bot: Bot,
) -> None:
    user_id = query.from_user.id
    state = await people.state(user_id)
    if state is None or not state.age_confirmed:
        await query.answer(
            [], cache_time=0, is_personal=True, button=_hint(T.inline_age_button, START_AGE)
        )
        return
    if not await rate_limits.allow(f"tg-inline:{user_id}"):
        await query.answer(
            [], cache_time=0, is_personal=True, button=_hint(T.inline_slow_down_button)
        )
        return
    page = await quick_picks.for_person(user_id, query.query, read_offset(query.offset))
    me = await bot.me()
    results = [inline_result(w, me.username or "") for w in page.wines]
    await query.answer(
        results,  # type: ignore[arg-type]
        # Picks from a taste profile change with the next 👍/👎: not cached.
        cache_time=0 if page.personal else CACHE_SECONDS,
        # Always personal: whether anything is shown depends on this person's 18+ check, and
        # Telegram would otherwise serve these results to anyone typing the same query.
        is_personal=True,
        next_offset=str(page.next_offset) if page.next_offset is not None else "",
        button=_button(page),
    )


def _button(page: QuickPage) -> InlineQueryResultsButton | None:
    if page.kind == "none":
        return _hint(T.inline_nothing_button)
    if page.kind == "picks":
        return _hint(T.inline_hint_button)
    return None


async def chosen(result: ChosenInlineResult) -> None:
    """Telegram reports which result was sent (when feedback collection is on): log only."""
    log.info("inline result chosen: %s", result.result_id)


def build_router() -> Router:
    """A fresh router per Dispatcher: an aiogram router can belong to one parent only."""
    router = Router(name="inline")
    router.inline_query.register(answer_inline)
    router.chosen_inline_result.register(chosen)
    return router
