"""Wiring: every application service built once from a Runtime, shared by every adapter.

The adapters (bot, HTTP API, web pages, terminal) take their services from `Services` and
never build one themselves; a test counts the constructions (tests/test_container.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from core.settings import Settings
from services.agent import SommelierService, WelcomeWriter
from services.app.alerts.service import Alerts
from services.app.catalog.admin import CatalogAdmin
from services.app.catalog.sync import CatalogSync
from services.app.console.access import ConsoleAccess
from services.app.console.digest import WeeklyDigest
from services.app.console.reports import ConsoleService
from services.app.database import Database
from services.app.facts.buy_links import BuyLinks
from services.app.facts.clicks import BuyClicks
from services.app.facts.recorder import FactRecorder
from services.app.facts.referrals import Referrals
from services.app.media.questions import MediaQuestions
from services.app.ops.health import Health
from services.app.ops.housekeeping import Housekeeping
from services.app.ops.ledger import Ledger
from services.app.ops.rate_limits import RateLimits
from services.app.orders.service import Orders
from services.app.orders.sync import OrderSync
from services.app.people.people import People
from services.app.people.visitors import Visitors
from services.app.picks.group import GroupTable
from services.app.picks.inline import QuickPicks
from services.app.picks.rules import ShopRules
from services.app.picks.welcome import WelcomePicks
from services.app.runtime import Runtime
from services.app.sending.limits import SendLimits
from services.app.sending.outbox import Outbox
from services.app.signing import Signer, signing_key
from services.app.taste.favourites import Favourites
from services.app.taste.profiles import TasteProfiles
from services.app.taste.quiz import Quiz
from services.app.taste.similar import SimilarWines
from services.app.turns.admission import Admission
from services.app.turns.turns import Turns
from services.llm.client import LLMClient
from services.llm.embeddings import EmbeddingService
from services.llm.transcription import Transcriber
from services.llm.vision import VisionClient


@dataclass
class Services:
    settings: Settings
    # The outside models, and the agent over them.
    llm: LLMClient
    embeddings: EmbeddingService
    vision: VisionClient
    transcriber: Transcriber
    sommelier: SommelierService
    # What every service opens, signs with and records with.
    database: Database
    signer: Signer
    recorder: FactRecorder
    # People and their turns.
    people: People
    visitors: Visitors
    admission: Admission
    turns: Turns
    media: MediaQuestions
    # Taste.
    taste: TasteProfiles
    quiz: Quiz
    favourites: Favourites
    similar: SimilarWines
    # Picks without a turn of the person's own words.
    welcome: WelcomePicks
    quick_picks: QuickPicks
    group_table: GroupTable
    # The shop's console.
    console: ConsoleService
    console_access: ConsoleAccess
    clicks: BuyClicks
    digest: WeeklyDigest
    shop_rules: ShopRules
    # Operations.
    health: Health
    rate_limits: RateLimits
    ledger: Ledger
    catalog_admin: CatalogAdmin
    catalog_sync: CatalogSync | None  # with CATALOG_FEED_URL
    orders: Orders
    order_sync: OrderSync | None  # with ORDERS_URL
    housekeeping: Housekeeping
    # Sending within Telegram's limits; alerts queued to be sent.
    send_limits: SendLimits
    outbox: Outbox
    alerts: Alerts

    async def close(self) -> None:
        await self.llm.close()
        await self.embeddings.close()
        await self.vision.close()
        await self.transcriber.close()


def build_services(rt: Runtime) -> Services:
    settings = rt.settings
    inactivity = timedelta(hours=settings.conversation_inactivity_hours)
    llm = LLMClient(settings)
    embeddings = EmbeddingService(settings)
    vision = VisionClient(settings)
    transcriber = Transcriber(settings)
    sommelier = SommelierService(settings, rt.sessions, llm, embeddings)
    welcome_writer = WelcomeWriter(sommelier)

    database = Database(rt.sessions)
    key = signing_key(settings)
    signer = Signer(key)
    base = settings.public_base_url
    links = BuyLinks(key, base or "")
    recorder = FactRecorder(key, links if base else None)

    taste = TasteProfiles(database)
    turns = Turns(database, sommelier, recorder, inactivity)
    console = ConsoleService(database, settings)
    catalog_admin = CatalogAdmin(rt.maintenance_sessions, embeddings)
    sync = (
        CatalogSync(catalog_admin, settings.catalog_feed_url, settings.catalog_sync_hours)
        if settings.catalog_feed_url
        else None
    )
    referrals = Referrals(key, settings.referral_params, settings.referral_token_param)
    orders = Orders(
        rt.maintenance_sessions, referrals, settings.orders_timezone, settings.attribution_days
    )
    order_sync = (
        OrderSync(orders, settings.orders_url, settings.orders_sync_minutes)
        if settings.orders_url
        else None
    )
    return Services(
        settings=settings,
        llm=llm,
        embeddings=embeddings,
        vision=vision,
        transcriber=transcriber,
        sommelier=sommelier,
        database=database,
        signer=signer,
        recorder=recorder,
        people=People(database, inactivity),
        visitors=Visitors(database),
        admission=Admission(settings.max_message_chars),
        turns=turns,
        media=MediaQuestions(database, turns, vision, transcriber),
        taste=taste,
        quiz=Quiz(database),
        favourites=Favourites(database),
        similar=SimilarWines(database, turns),
        welcome=WelcomePicks(welcome_writer, turns),
        quick_picks=QuickPicks(database, welcome_writer, taste, recorder),
        group_table=GroupTable(database, recorder),
        console=console,
        console_access=ConsoleAccess(database, signer, base),
        clicks=BuyClicks(database, links, referrals),
        digest=WeeklyDigest(console, settings.admin_id_set),
        shop_rules=ShopRules(database, console),
        health=Health(database, turns),
        rate_limits=RateLimits(
            database, settings.rate_limit_per_minute, settings.web_rate_limit_per_address
        ),
        ledger=Ledger(database),
        catalog_admin=catalog_admin,
        catalog_sync=sync,
        orders=orders,
        order_sync=order_sync,
        housekeeping=Housekeeping(rt),
        send_limits=SendLimits(database, settings),
        outbox=Outbox(database),
        alerts=Alerts(
            database,
            settings.alert_days,
            settings.alert_price_drop_percent,
            links if base else None,
        ),
    )
