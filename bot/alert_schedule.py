"""The alerts pass beside the bot: every ALERT_CHECK_SECONDS each replica claims the alerts a
catalog change made due and queues them in the outbox (services/app/alerts/service.py), which
the outbox sender then sends at the alert priority. Here: what an alert looks like in Telegram
(a line saying why, the wine's card and its buttons)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.keyboards import wine_card_json
from bot.rendering import render_card
from bot.telegram_html import escape, split_text
from core.domain import format_price
from core.errors import DatabaseUnavailableError
from services.app.alerts.service import Alerts, DueAlert
from services.app.sending.outbox import OutgoingMessage
from services.app.texts import T

log = logging.getLogger(__name__)


def render_alert(alert: DueAlert) -> OutgoingMessage:
    if alert.kind == "price" and alert.before is not None:
        head = T.alert_price_drop.format(
            before=format_price(alert.before), now=format_price(alert.wine.price_rub)
        )
    elif alert.kind == "name" and alert.asked_name:
        head = T.alert_name_back.format(name=escape(alert.asked_name))
    else:
        head = T.alert_back
    html = split_text(f"{head}\n\n{render_card(alert.wine)}")[0]  # one message, always
    keyboard = wine_card_json(alert.wine.id, url=alert.wine.url)
    return OutgoingMessage(alert.user_id, html, keyboard)


class AlertTask:
    """Started and stopped with the bot, like the outbox sender."""

    def __init__(self, alerts: Alerts, every_seconds: float) -> None:
        self.alerts = alerts
        self.every = every_seconds
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="alerts")

    async def _run(self) -> None:
        while not self._stop.is_set():
            try:
                await self.alerts.dispatch(render_alert)
            except DatabaseUnavailableError:
                log.warning("alerts: the database is unavailable; trying again later")
            except Exception:
                log.exception("alerts pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.every)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is None:
            return
        self._stop.set()
        try:
            await asyncio.wait_for(task, 10.0)
        except TimeoutError:
            task.cancel()  # the pass's transaction rolls back: nothing is claimed twice
            with contextlib.suppress(asyncio.CancelledError):
                await task
