"""«Купить» through the bot's redirect: a genuine token is recorded as a click and leads to
the wine's own shop page, with the referral added (REFERRAL_PARAMS and the click's own token,
which an order carries back); anything else leads nowhere (the web layer answers 404)."""

from __future__ import annotations

import logging

from core.errors import DatabaseUnavailableError
from repositories.facts import record_click
from repositories.wines import WineRepository
from services.app.database import DATABASE_ERRORS, Database
from services.app.facts.buy_links import BuyLinks
from services.app.facts.referrals import Referrals
from services.app.ops.metrics import BUY_CLICKS

log = logging.getLogger(__name__)


class BuyClicks:
    def __init__(self, database: Database, links: BuyLinks, referrals: Referrals) -> None:
        self._sessions = database.sessions
        self.links = links
        self.referrals = referrals

    async def follow(self, token: str) -> str | None:
        """The shop page to send the person to, the click recorded; None for a bad token or
        a wine without a page."""
        read = self.links.read(token)
        if read is None:
            return None
        wine_id, fact_id = read
        async with self._sessions() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
            url = found[0].url if found else None
            if not url or not url.startswith(("https://", "http://")):
                return None
            token = self.referrals.new_token()
            try:
                await record_click(s, wine_id, fact_id, token)
                await s.commit()
            except (DatabaseUnavailableError, *DATABASE_ERRORS) as exc:
                # The person still gets to the shop; only the count misses one (and the URL
                # carries no token that would name a click never stored).
                log.warning("buy click not recorded: %s", type(exc).__name__)
                token = None
        BUY_CLICKS.inc()
        return self.referrals.tag(url, token)
