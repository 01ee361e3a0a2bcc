"""The weekly digest: on Monday morning each admin gets one message — a chart of the week's
answers per day (the unmet part darker), the revenue the sommelier led and assisted, and the
week's top unmet demand. One replica sends
it: the week's mark is stored once (`console_links`, the same one-time table as the console's
links), so a second replica finds it taken and stays silent."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from core.domain import format_price
from repositories.facts import use_console_link
from services.app.console.png import bar_png
from services.app.console.reports import ConsoleService, window
from services.app.texts import T

log = logging.getLogger(__name__)

SEND_WEEKDAY = 0  # Monday
SEND_HOUR = 9
TOP_UNMET = 5
Send = Callable[[int, bytes, str], Awaitable[None]]


@dataclass(frozen=True)
class Digest:
    caption: str
    image: bytes


def next_send_time(now: datetime) -> datetime:
    """The next Monday 09:00 (UTC) strictly after `now`."""
    start = now.replace(hour=SEND_HOUR, minute=0, second=0, microsecond=0)
    days = (SEND_WEEKDAY - now.weekday()) % 7
    when = start + timedelta(days=days)
    return when if when > now else when + timedelta(days=7)


def _sales_line(sales: dict[str, Any]) -> str:
    """The week's revenue the sommelier led and assisted."""
    if not sales["sales"]:
        return T.digest_no_sales
    return T.digest_sales.format(
        led=format_price(Decimal(sales["led"])),
        assisted=format_price(Decimal(sales["assisted"])),
        sales=sales["sales"],
    )


class WeeklyDigest:
    """`send` (how a message reaches an admin: the bot's) is given at each run."""

    def __init__(self, console: ConsoleService, admins: frozenset[int]) -> None:
        self.console = console
        self.admins = admins

    async def compose(self, now: datetime | None = None) -> Digest:
        w = window(7, now=now)
        overview = await self.console.overview(w)
        unmet = (await self.console.unmet(w))["groups"][:TOP_UNMET]
        series = overview["series"]
        lines = [
            f"Сомелье за неделю: {overview['answers']} ответов, {overview['people']} человек, "
            f"👍 {overview['up']} / 👎 {overview['down']}, «Купить» {overview['clicks']}.",
            _sales_line(overview["sales"]),
        ]
        if unmet:
            lines.append("Чего не хватило в каталоге:")
            lines += [
                f"{i}. {g['request']} — {g['requests']}, {g['outcome']}"
                for i, g in enumerate(unmet, 1)
            ]
        else:
            lines.append("Все запросы недели каталог закрыл.")
        caption = "\n".join(lines)[:1000]
        image = bar_png([d["answers"] for d in series], [d["unmet"] for d in series])
        return Digest(caption, image)

    async def run_once(self, send: Send, now: datetime | None = None) -> bool:
        """Send this week's digest unless a replica already did; True when sent here."""
        now = now or datetime.now(UTC)
        year, week, _ = now.isocalendar()
        async with self.console.sessions() as s:
            first = await use_console_link(s, f"digest:{year}-W{week:02d}")
            await s.commit()
        if not first:
            log.info("weekly digest: another replica sent it")
            return False
        digest = await self.compose(now)
        for admin in sorted(self.admins):
            try:
                await send(admin, digest.image, digest.caption)
            except Exception as exc:  # one admin who blocked the bot does not stop the rest
                log.warning("weekly digest not delivered to %s: %s", admin, exc)
        return True

    async def run_forever(self, send: Send) -> None:
        while True:
            now = datetime.now(UTC)
            await asyncio.sleep((next_send_time(now) - now).total_seconds())
            try:
                await self.run_once(send)
            except Exception:  # logged; next week is tried again
                log.exception("weekly digest failed")
