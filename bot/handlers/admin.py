"""Admin commands. For anyone not in ADMIN_IDS these handlers do not match at all, so the
message falls through to the unknown-command reply and reveals nothing."""

from __future__ import annotations

import contextlib
import logging
import time

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
from services.app.chat import ChatService
from services.app.coordination import Coordinator
from services.app.ops.housekeeping import Housekeeping

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
            await message.answer("Каталог не обновлен:\n<pre>" + escape(str(exc)[:3500]) + "</pre>")
            return
        await message.answer(
            f"Каталог обновлен: добавлено {report.inserted}, обновлено {report.updated}, "
            f"без изменений {report.unchanged}. Всего вин: {total}."
        )

    @router.message(Command("backup"))
    async def backup(message: Message, housekeeping: Housekeeping) -> None:
        try:
            report = await housekeeping.backup_now()
        except BackupError as exc:
            await message.answer("Резервная копия не сделана: " + escape(str(exc)))
            return
        path, counts = report.lines()
        await message.answer(f"Резервная копия готова: {escape(path)}\n{escape(counts)}")

    @router.message(Command("embed"))
    async def embed(message: Message, catalog_admin: CatalogAdmin, bot: Bot) -> None:
        if not catalog_admin.embeddings.available:
            await message.answer("Эмбеддинги не настроены: задайте EMBEDDING_API_KEY.")
            return
        status = await message.answer("Считаю эмбеддинги…")
        last_edit = 0.0

        async def progress(done: int, total: int) -> None:
            nonlocal last_edit
            if time.monotonic() - last_edit < EDIT_INTERVAL_SECONDS and done < total:
                return
            last_edit = time.monotonic()
            with contextlib.suppress(TelegramBadRequest):
                await bot.edit_message_text(
                    f"Эмбеддинги: {done}/{total}…",
                    chat_id=status.chat.id,
                    message_id=status.message_id,
                )

        try:
            report = await catalog_admin.embed(progress)
        except (EmbeddingUnavailableError, EmbeddingDimensionError) as exc:
            text = "Эмбеддинги не посчитаны: " + escape(str(exc))
        else:
            text = (
                f"Готово: посчитано {report.embedded}, без актуального вектора {report.remaining}."
            )
        await bot.edit_message_text(text, chat_id=status.chat.id, message_id=status.message_id)

    @router.message(Command("stats"))
    async def stats(message: Message, chat: ChatService, coordinator: Coordinator) -> None:
        s = await chat.stats()
        backlog = await coordinator.backlog()
        parked, latest = await coordinator.parked()
        paths = ", ".join(f"{k}: {v}" for k, v in sorted(s.answers_by_path.items())) or "—"
        median = f"{s.median_ms / 1000:.1f} с" if s.median_ms is not None else "—"
        p95 = f"{s.p95_ms / 1000:.1f} с" if s.p95_ms is not None else "—"
        await message.answer(
            "<b>Статистика</b>\n"
            f"Пользователей: {s.users}\n"
            f"Активных сегодня: {s.active_today}\n"
            f"Сообщений сегодня: {s.messages_today}\n"
            f"Ответы по путям: {escape(paths)}\n"
            f"Время ответа: медиана {median}, p95 {p95}\n"
            f"Обновлений в работе: {backlog}\n"
            f"Отложено после сбоев: {parked}"
            + "".join(f"\n• #{update_id}: {escape(error)}" for update_id, error in latest)
        )

    return router
