"""Wiring: the application services built once from a Runtime, shared by every adapter."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from core.settings import Settings
from repositories.database import core_connections
from services.agent.loop import SommelierService
from services.app.catalog.admin import CatalogAdmin
from services.app.chat import ChatService
from services.app.coordination import Coordinator
from services.app.database import GuardedSessions
from services.app.facts.buy_links import BuyLinks
from services.app.facts.recorder import FactRecorder
from services.app.ops.housekeeping import Housekeeping
from services.app.ops.rate_limits import RateLimiter
from services.app.runtime import Runtime
from services.app.signing import signing_key
from services.llm.client import LLMClient
from services.llm.embeddings import EmbeddingService
from services.llm.transcription import Transcriber
from services.llm.vision import VisionClient


@dataclass
class Services:
    settings: Settings
    llm: LLMClient
    embeddings: EmbeddingService
    sommelier: SommelierService
    chat: ChatService
    catalog_admin: CatalogAdmin
    coordinator: Coordinator
    rate_limiter: RateLimiter
    housekeeping: Housekeeping

    async def close(self) -> None:
        await self.llm.close()
        await self.embeddings.close()
        if self.chat.vision is not None:
            await self.chat.vision.close()
        if self.chat.transcriber is not None:
            await self.chat.transcriber.close()


def build_services(rt: Runtime) -> Services:
    settings = rt.settings
    llm = LLMClient(settings)
    embeddings = EmbeddingService(settings)
    sommelier = SommelierService(settings, rt.sessions, llm, embeddings)
    key = signing_key(settings)
    base = settings.public_base_url
    recorder = FactRecorder(key, BuyLinks(key, base) if base else None)
    chat = ChatService(
        rt.sessions,
        sommelier,
        embeddings,
        inactivity=timedelta(hours=settings.conversation_inactivity_hours),
        vision=VisionClient(settings),
        transcriber=Transcriber(settings),
        recorder=recorder,
    )
    # Each of the ledger's units is one statement: Core connections, no ORM session around it.
    connections = core_connections(rt.sessions, autocommit=True)
    coordinator = Coordinator(
        GuardedSessions(connections) if connections else GuardedSessions(rt.sessions),
        lease=timedelta(seconds=settings.update_lease_seconds),
        max_attempts=settings.update_max_attempts,
        process_timeout=timedelta(seconds=settings.process_timeout_seconds),
    )
    return Services(
        settings=settings,
        llm=llm,
        embeddings=embeddings,
        sommelier=sommelier,
        chat=chat,
        catalog_admin=CatalogAdmin(rt.maintenance_sessions, embeddings),
        coordinator=coordinator,
        rate_limiter=RateLimiter(coordinator, settings.rate_limit_per_minute),
        housekeeping=Housekeeping(rt),
    )
