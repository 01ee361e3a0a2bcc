"""Admins import a catalog through the bot; cards get «Купить» and say when a wine sold out."""

from __future__ import annotations

from aiohttp import web
from sqlalchemy import select, update

from fakes.telegram_server import SentCall
from repositories.models import Wine
from services.app.runtime import Runtime
from services.app.texts import T
from tests.bot_harness import ADMIN_ID, BotHarness, running_bot
from tests.bot_helpers import adult, ask, buttons, callback_answer, cards, press, similar_data
from tests.catalog_feeds import csv_cp1251, yml_feed
from tests.serving import serving

USER = 929131


async def _external_ids(rt: Runtime) -> set[str]:
    async with rt.sessions() as s:
        return {i for i in await s.scalars(select(Wine.external_id)) if i}


async def _send_document(h: BotHarness, chat_id: int, content: bytes, name: str, caption: str):
    update = h.tg.document_update(chat_id, content, name, caption=caption, user_id=chat_id)
    h.tg.push_update(update)
    await h.idle()
    return update["message"]["message_id"]


def _final_report(h: BotHarness, chat_id: int) -> str:
    edits: list[SentCall] = [
        c for c in h.tg.sent(chat_id=chat_id) if c.method in ("editMessageText", "sendMessage")
    ]
    return edits[-1].visible_text or ""


async def test_an_admin_imports_an_uploaded_document_and_cards_link_to_the_shop(
    clean_db: Runtime,
) -> None:
    async with running_bot(clean_db) as h:
        # Not an admin: the document is not imported.
        await adult(h, USER)
        await _send_document(h, USER, csv_cp1251(), "export.csv", "/import")
        assert await _external_ids(clean_db) == set()

        # /import dry as a reply to an uploaded YML feed: checked, nothing written.
        feed_id = await _send_document(h, ADMIN_ID, yml_feed(), "feed.xml", "каталог")
        h.tg.push_update(
            h.tg.message_update(
                ADMIN_ID,
                "/import dry",
                user_id=ADMIN_ID,
                reply_to_message={**_stub(h, ADMIN_ID, feed_id)},
            )
        )
        await h.idle()
        report = _final_report(h, ADMIN_ID)
        assert "ничего не записано" in report and "Добавлено: 4" in report, report
        assert await _external_ids(clean_db) == set()

        await _send_document(h, ADMIN_ID, csv_cp1251(), "export.csv", "/import")
        report = _final_report(h, ADMIN_ID)
        assert "Каталог обновлен" in report and "Добавлено: 3" in report, report
        assert "1C-004" in report and "formula" in report
        assert await _external_ids(clean_db) == {"1C-001", "1C-002", "1C-003"}

        # A card for an imported wine has a «Купить» button with the shop's link.
        replies = await ask(h, USER, "мальбек из Аргентины")
        (card,) = [c for c in cards(replies) if "Мальбек" in (c.visible_text or "")]
        links = [b["url"] for b in buttons(card) if b.get("url")]
        assert links == ["https://shop.example/1c-001"]

        # The shop sells out: the card shown earlier says so when pressed.
        async with clean_db.sessions() as s:
            await s.execute(
                update(Wine).where(Wine.external_id == "1C-001").values(available=False)
            )
            wine_id = (await s.scalars(select(Wine.id).where(Wine.external_id == "1C-001"))).one()
            await s.commit()
        query = await press(h, USER, similar_data(wine_id), card.message_id or 0)
        assert await callback_answer(h, query) == T.out_of_stock_similar
        await h.idle()
        again = await ask(h, USER, "мальбек из Аргентины")
        assert not any("Мальбек" in (c.visible_text or "") for c in cards(again))


def _stub(h: BotHarness, chat_id: int, message_id: int) -> dict[str, object]:
    """The replied-to message as Telegram embeds it (the stored document message)."""
    return dict(h.tg._messages[chat_id][message_id])


async def test_an_admin_imports_a_feed_by_url_and_a_dead_link_is_named(clean_db: Runtime) -> None:
    feeds = {"feed.xml": yml_feed()}

    async def feed(request: web.Request) -> web.Response:
        body = feeds.get(request.match_info["name"])
        return (
            web.Response(body=body, content_type="text/xml") if body else web.Response(status=404)
        )

    app = web.Application()
    app.router.add_get("/{name}", feed)
    async with serving(app) as base, running_bot(clean_db) as h:
        replies = await ask(h, ADMIN_ID, f"/import {base}/feed.xml")
        assert replies
        report = _final_report(h, ADMIN_ID)
        assert "Каталог обновлен" in report and "Добавлено: 4" in report, report
        assert len(await _external_ids(clean_db)) == 4
        await ask(h, ADMIN_ID, f"/import {base}/gone.xml")
        report = _final_report(h, ADMIN_ID)
        assert "404" in report and "Каталог обновлен" not in report, report
        assert len(await _external_ids(clean_db)) == 4  # nothing changed
