"""Admin commands. For anyone not in ADMIN_IDS these handlers do not match at all, so the
message falls through to the unknown-command reply and reveals nothing."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command
from aiogram.types import Message

from bot.filters import InLoop
from bot.telegram_html import escape
from core.errors import (
    BackupError,
    CatalogFileError,
    EmbeddingDimensionError,
    EmbeddingUnavailableError,
)
from services.app.catalog.admin import CatalogAdmin
from services.app.ops.health import Health
from services.app.ops.housekeeping import Housekeeping
from services.app.ops.ledger import Ledger
from services.app.orders.service import Orders
from services.app.texts import T

log = logging.getLogger(__name__)
EDIT_INTERVAL_SECONDS = 1.0


def build_admin_router(admin_ids: frozenset[int]) -> Router:
    router = Router(name="admin")
    router.message.filter(InLoop(F.from_user.id.in_(admin_ids)))

    @router.message(Command("seed"))
    async def seed(message: Message, catalog_admin: CatalogAdmin) -> None:
        try:
            report, total = await catalog_admin.seed()
        except CatalogFileError as exc:
            await message.answer(T.seed_failed.format(error=escape(str(exc)[:3500])))
            return
        await message.answer(
            T.seed_done.format(
                inserted=report.inserted,
                updated=report.updated,
                unchanged=report.unchanged,
                total=total,
            )
        )

    @router.message(Command("backup"))
    async def backup(message: Message, housekeeping: Housekeeping) -> None:
        try:
            report = await housekeeping.backup_now()
        except BackupError as exc:
            await message.answer(T.backup_failed.format(error=escape(str(exc))))
            return
        path, counts = report.lines()
        await message.answer(T.backup_done.format(path=escape(path), counts=escape(counts)))

    @router.message(Command("embed"))
    async def embed(message: Message, catalog_admin: CatalogAdmin, bot: Bot) -> None:
        if not catalog_admin.embeddings.available:
            await message.answer(T.embed_off)
            return
        status = await message.answer(T.embed_started)
        last_edit = 0.0

        async def progress(done: int, total: int) -> None:
            nonlocal last_edit
            if time.monotonic() - last_edit < EDIT_INTERVAL_SECONDS and done < total:
                return
            last_edit = time.monotonic()
            with contextlib.suppress(TelegramBadRequest):
                await bot.edit_message_text(
                    T.embed_progress.format(done=done, total=total),
                    chat_id=status.chat.id,
                    message_id=status.message_id,
                )

        try:
            report = await catalog_admin.embed(progress)
        except (EmbeddingUnavailableError, EmbeddingDimensionError) as exc:
            text = T.embed_failed.format(error=escape(str(exc)))
        else:
            text = T.embed_done.format(embedded=report.embedded, remaining=report.remaining)
        await bot.edit_message_text(text, chat_id=status.chat.id, message_id=status.message_id)

    @router.message(Command("stats"))
    async def stats(message: Message, health: Health, ledger: Ledger, orders: Orders) -> None:
        s = await health.stats()
        backlog = await ledger.backlog()
        parked, latest = await ledger.parked()
        paths = ", ".join(f"{k}: {v}" for k, v in sorted(s.answers_by_path.items()))
        await message.answer(
            T.stats.format(
                users=s.users,
                active_today=s.active_today,
                messages_today=s.messages_today,
                paths=escape(paths or T.nothing),
                median=_seconds(s.median_ms),
                p95=_seconds(s.p95_ms),
                backlog=backlog,
                parked=parked,
            )
            + "".join(
                T.stats_parked.format(update_id=update_id, error=escape(error))
                for update_id, error in latest
            )
            + _last_order_import(await orders.recent_imports(1))
        )

    return router


def _last_order_import(imports: list[dict[str, Any]]) -> str:
    """The last import of the shop's orders, and why rows of it were skipped."""
    if not imports:
        return ""
    last = imports[0]
    when = last["created_at"].strftime("%Y-%m-%d %H:%M")
    source = escape(last["source"])
    if last["error"]:
        return T.stats_orders_failed.format(when=when, source=source, error=escape(last["error"]))
    reasons = [f"{r.get('row')}: {r.get('field')}: {r.get('problem')}" for r in last["reasons"]]
    return T.stats_orders.format(
        when=when,
        source=source,
        inserted=last["inserted"],
        updated=last["updated"],
        cancelled=last["cancelled"],
        skipped=last["skipped"],
    ) + "".join(T.stats_orders_reason.format(reason=escape(r)) for r in reasons[:5])


def _seconds(ms: float | None) -> str:
    return T.seconds.format(value=ms / 1000) if ms is not None else T.nothing
