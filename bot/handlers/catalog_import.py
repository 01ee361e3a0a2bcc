"""/import for admins: a document (CSV, XLSX, YML, JSON) with the caption /import, a reply
/import to such a document, or /import URL; `dry` checks without writing."""

from __future__ import annotations

import io
import logging

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import Document, Message

from bot.filters import InLoop
from bot.telegram_html import escape
from core.errors import CatalogFileError
from services.app.catalog.admin import CatalogAdmin
from services.app.catalog.importer import ImportReport
from services.app.texts import T

log = logging.getLogger(__name__)
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024  # what the Bot API lets a bot download
MAX_LISTED_PROBLEMS = 15


def report_text(report: ImportReport) -> str:
    skipped_rows = len({(p.row, p.id) for p in report.skipped})
    head = T.import_dry_done if report.dry_run else T.import_done
    lines = [
        head,
        T.import_format.format(format=report.format.upper(), rows=report.rows),
        T.import_counts.format(
            inserted=report.inserted, updated=report.updated, unchanged=report.unchanged
        ),
        T.import_dropped.format(unavailable=report.marked_unavailable, skipped=skipped_rows),
    ]
    problems = [escape(str(p)) for p in report.skipped[:MAX_LISTED_PROBLEMS]]
    if problems:
        more = len(report.skipped) - len(problems)
        listed = "\n".join(problems) + (T.import_more.format(more=more) if more > 0 else "")
        lines.append("<pre>" + listed + "</pre>")
    return "\n".join(lines)


def _error_text(exc: CatalogFileError) -> str:
    problems = [escape(str(p)) for p in exc.problems[:MAX_LISTED_PROBLEMS]]
    text = T.import_failed + "\n" + escape(exc.summary)
    if problems:
        text += "\n<pre>" + "\n".join(problems) + "</pre>"
    return text


async def _run(
    message: Message,
    bot: Bot,
    catalog_admin: CatalogAdmin,
    *,
    url: str | None,
    document: Document | None,
    dry_run: bool,
) -> None:
    status = await message.answer(T.import_started)
    try:
        if document is not None:
            if (document.file_size or 0) > MAX_DOCUMENT_BYTES:
                raise CatalogFileError(T.import_too_big)
            buffer = io.BytesIO()
            await bot.download(document, destination=buffer)
            report = await catalog_admin.import_catalog(
                document.file_name or "document",
                data=buffer.getvalue(),
                dry_run=dry_run,
                source_label=f"telegram:{document.file_name or document.file_unique_id}",
            )
        else:
            assert url is not None
            report = await catalog_admin.import_catalog(url, dry_run=dry_run)
        text = report_text(report)
    except CatalogFileError as exc:
        text = _error_text(exc)
    except TelegramBadRequest as exc:
        text = T.import_failed + "\n" + escape(exc.message)
    try:
        await bot.edit_message_text(
            text[:4000], chat_id=status.chat.id, message_id=status.message_id
        )
    except TelegramBadRequest:
        await message.answer(text[:4000])


def build_import_router(admin_ids: frozenset[int]) -> Router:
    router = Router(name="catalog_import")
    router.message.filter(InLoop(F.from_user.id.in_(admin_ids)))

    @router.message(InLoop(F.document), InLoop(F.caption.regexp(r"^/import(@\w+)?(\s|$)")))
    async def import_document(message: Message, bot: Bot, catalog_admin: CatalogAdmin) -> None:
        dry = "dry" in (message.caption or "").split()[1:]
        await _run(message, bot, catalog_admin, url=None, document=message.document, dry_run=dry)

    @router.message(Command("import"))
    async def import_command(
        message: Message, command: CommandObject, bot: Bot, catalog_admin: CatalogAdmin
    ) -> None:
        words = (command.args or "").split()
        dry = "dry" in words
        urls = [w for w in words if w.startswith(("http://", "https://"))]
        replied = message.reply_to_message
        if replied is not None and replied.document is not None:
            await _run(
                message, bot, catalog_admin, url=None, document=replied.document, dry_run=dry
            )
        elif urls:
            await _run(message, bot, catalog_admin, url=urls[0], document=None, dry_run=dry)
        else:
            await message.answer(T.import_usage)

    return router
