"""Alerts (issue 43): a person asks to be told when a wine the shop lacks appears (asked for by
name or from a label photo, or shown earlier and sold out since), or when a favourite's price
falls by ALERT_PRICE_DROP_PERCENT or more. Each bot replica runs `dispatch` every
ALERT_CHECK_SECONDS: it claims the subscriptions the catalog now answers and queues one
message each in the outbox, in one transaction — a second replica, or a process that died
half-way, cannot make the same alert twice."""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date
from decimal import Decimal

from sqlalchemy.ext.asyncio import AsyncSession

from core.errors import DatabaseUnavailableError
from core.language.catalog_terms import query_words
from core.language.folding import fold
from core.recommendation import RecommendedWine
from repositories import alerts as sql
from repositories import telegram_limits as outbox_sql
from repositories.catalog_cache import forget_catalog_caches
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent import catalog_index
from services.app.database import Database, commit
from services.app.facts.buy_links import BuyLinks
from services.app.sending.outbox import OutgoingMessage

log = logging.getLogger(__name__)

BATCH = 500  # subscriptions claimed per statement; a pass that fills it runs again at once
NAME_CANDIDATES = 10  # of the wines a name finds, the first this many are looked at


@dataclass(frozen=True)
class AlertItem:
    """One line of /alerts."""

    id: int
    kind: str  # 'name', 'wine', 'price'
    title: str
    price: Decimal | None
    until: date


@dataclass(frozen=True)
class DueAlert:
    """One alert to write: the adapter renders it (text and buttons) for the outbox."""

    id: uuid.UUID
    user_id: int
    kind: str
    wine: RecommendedWine  # its «Купить» through the tracked redirect, with a public URL
    asked_name: str | None = None
    before: Decimal | None = None  # a price drop's previous price


Render = Callable[[DueAlert], OutgoingMessage]


class Alerts:
    def __init__(
        self, database: Database, days: float, drop_percent: float, links: BuyLinks | None
    ) -> None:
        self._sessions = database.sessions
        self._statements = database.statements
        self.days = days
        self.drop = Decimal(str(drop_percent)) / 100
        self.drop_percent = drop_percent
        self._links = links
        self._version: tuple[int, str] | None = None
        self._names_seen = 0  # name subscriptions up to this id were matched at _version

    # ------------------------------------------------------------------ what a person asks

    async def offer_name(self, user_id: int, fact_id: uuid.UUID) -> str:
        """«Сообщить» under an answer that lacked a wine asked for by name: 'subscribed',
        'already', 'in_stock' (the name finds a wine on sale by now) or 'unknown'."""
        async with self._sessions() as s:
            name = await sql.asked_name(s, fact_id, user_id)
            if not name:
                return "unknown"
            if await names_on_sale(WineRepository(s), {0: name}):
                return "in_stock"
            new = await sql.subscribe(
                s, user_id, "name", self.days, asked_name=name, name_key=fold(name)
            )
            await s.commit()
        return "subscribed" if new else "already"

    async def offer_wine(self, user_id: int, wine_id: uuid.UUID) -> str:
        """«Сообщить» for a wine shown earlier: 'subscribed', 'already', 'in_stock' or
        'unknown' (not in the catalog)."""
        async with self._sessions() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
            if not found:
                return "unknown"
            if found[0].available:
                return "in_stock"
            new = await sql.subscribe(s, user_id, "wine", self.days, wine_id=wine_id)
            await s.commit()
        return "subscribed" if new else "already"

    async def watch_price(self, user_id: int, wine_id: uuid.UUID, on: bool) -> bool:
        """A favourite's price drops alert on (measured from today's price) or off; False when
        the wine is not in the catalog."""
        async with self._sessions() as s:
            if not on:
                await sql.cancel_price(s, user_id, wine_id)
                await s.commit()
                return True
            found = await WineRepository(s).get_by_ids([wine_id])
            if not found:
                return False
            await sql.subscribe(
                s, user_id, "price", self.days, wine_id=wine_id, ref_price=found[0].price_rub
            )
            await s.commit()
        return True

    async def price_watched(self, user_id: int) -> set[uuid.UUID]:
        async with self._statements() as s:
            return await sql.price_watched(s, user_id)

    async def list(self, user_id: int) -> list[AlertItem]:
        async with self._statements() as s:
            rows = await sql.of_person(s, user_id)
        return [
            AlertItem(
                r.id,
                r.kind,
                r.asked_name or r.wine_name or "",
                r.ref_price,
                r.expires_at.astimezone(UTC).date(),
            )
            for r in rows
        ]

    async def cancel(self, user_id: int, subscription_id: int) -> bool:
        async with self._statements() as s:
            done = await sql.cancel(s, user_id, subscription_id)
            await commit(s)
        return done

    async def forget_price(self, user_id: int, wine_id: uuid.UUID) -> None:
        """A favourite removed: its price is no longer watched."""
        async with self._statements() as s:
            await sql.cancel_price(s, user_id, wine_id)
            await commit(s)

    async def opened(self, user_id: int, wine_id: uuid.UUID) -> None:
        """A button pressed on a wine's card: an alert of that wine to this person, opened.
        Only a count: a database away loses it, never the press it came with."""
        try:
            async with self._statements() as s:
                await sql.opened_wine(s, user_id, wine_id)
                await commit(s)
        except DatabaseUnavailableError:
            log.warning("alert opening not recorded: the database is unavailable")

    # ------------------------------------------------------------------ the pass

    async def dispatch(self, render: Render) -> int:
        """Claim what the catalog now answers and queue the alerts; how many were queued."""
        found, names, version, last_name = await self._names_found()
        total = 0
        while True:
            async with self._sessions() as s:
                claimed = await sql.claim_names(s, found) if found else []
                claimed += await sql.claim_back_in_stock(s, BATCH)
                claimed += await sql.claim_price_drops(s, self.drop, BATCH)
                await sql.expire(s)
                await self._queue(s, claimed, names, render)
                await s.commit()
            total += len(claimed)
            found = {}
            if len(claimed) < BATCH:
                break
        self._version, self._names_seen = version, last_name
        return total

    async def _names_found(
        self,
    ) -> tuple[dict[int, uuid.UUID], dict[int, str], tuple[int, str], int]:
        """Name subscriptions the name index now finds a wine on sale for: all of them after
        a catalog change, else only those made since the last pass."""
        async with self._sessions() as s:
            version = await sql.catalog_version(s)
            if version != self._version:
                forget_catalog_caches()  # this process's answers see the new catalog too
            after = self._names_seen if version == self._version else 0
            wanted = await sql.names_wanted(s, after)
            on_sale = await names_on_sale(WineRepository(s), {w.id: w.asked_name for w in wanted})
            found = {key: wine.id for key, wine in on_sale.items()}
        last = max([w.id for w in wanted], default=self._names_seen if after else 0)
        return found, {w.id: w.asked_name for w in wanted}, version, last

    async def _queue(
        self,
        tx: AsyncSession,
        claimed: list[sql.Claimed],
        names: dict[int, str],
        render: Render,
    ) -> None:
        if not claimed:
            return
        repo = WineRepository(tx)
        wines = {w.id: w for w in await repo.get_by_ids({c.wine_id for c in claimed})}
        messages: list[OutgoingMessage] = []
        sent: list[tuple[uuid.UUID, int, str, uuid.UUID, Decimal]] = []
        for c in claimed:
            wine = wines.get(c.wine_id)
            if wine is None:
                continue
            alert_id = uuid.uuid4()
            card = RecommendedWine.from_wine(wine, "")
            if (
                self._links is not None
                and card.url
                and card.url.startswith(("https://", "http://"))
            ):
                card.url = self._links.link(wine.id, alert_id)
            asked = names.get(c.subscription_id) if c.kind == "name" else None
            messages.append(render(DueAlert(alert_id, c.user_id, c.kind, card, asked, c.before)))
            sent.append((alert_id, c.user_id, c.kind, wine.id, wine.price_rub))
        await outbox_sql.enqueue(tx, "alert", [(m.chat_id, m.html, m.keyboard) for m in messages])
        await sql.record_sent(tx, sent)
        log.info("alerts queued: %d", len(messages))


async def names_on_sale(repo: WineRepository, names: dict[int, str]) -> dict[int, Wine]:
    """Per name (by any key), the wine on sale it now names: one the catalog's name index
    finds by two thirds of the name's words or more (a one-word name: that word). A wine of
    the same region or grape alone does not answer «Château Pontet-Canet Pauillac». One
    query for the candidates of every name; none, and no index read or built, for no names
    (most passes: no name subscription new since the last and no catalog change)."""
    if not names:
        return {}
    index = await catalog_index(repo)
    plans: dict[int, tuple[list[str], set[str], int]] = {}
    for key, name in names.items():
        ids, used = index.match(name)
        needed = max(1, math.ceil(len(set(query_words(name))) * 2 / 3))
        if ids and len(set(used)) >= needed:
            plans[key] = ([str(i) for i in ids[:NAME_CANDIDATES]], set(used), needed)
    wanted = {i for ids, _, _ in plans.values() for i in ids}
    on_sale = {str(w.id): w for w in await repo.get_by_ids(wanted) if w.available}
    named_by: dict[str, set[str]] = {}  # word → the wines it names (each word matched once)

    def hits(wine_id: str, words: set[str]) -> int:
        for word in words - named_by.keys():
            named_by[word] = {str(i) for i in index.match(word)[0]}
        return sum(1 for word in words if wine_id in named_by[word])

    found: dict[int, Wine] = {}
    for key, (ids, used, needed) in plans.items():
        wine = next((on_sale[i] for i in ids if i in on_sale and hits(i, used) >= needed), None)
        if wine is not None:
            found[key] = wine
    return found
