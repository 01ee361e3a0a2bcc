"""Wiring: the service graph built from a Runtime."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from services.catalog_admin import CatalogAdmin
from services.chat_service import ChatService
from services.embeddings import EmbeddingService
from services.llm_client import LLMClient
from services.sommelier import SommelierService
from sommelier.runtime import Runtime


@dataclass
class Services:
    llm: LLMClient
    embeddings: EmbeddingService
    sommelier: SommelierService
    chat: ChatService
    catalog_admin: CatalogAdmin

    async def close(self) -> None:
        await self.llm.close()
        await self.embeddings.close()


def build_services(rt: Runtime) -> Services:
    llm = LLMClient(rt.settings)
    embeddings = EmbeddingService(rt.settings)
    sommelier = SommelierService(rt.settings, rt.sessions, llm, embeddings)
    chat = ChatService(
        rt.sessions,
        sommelier,
        embeddings,
        inactivity=timedelta(hours=rt.settings.conversation_inactivity_hours),
    )
    return Services(
        llm, embeddings, sommelier, chat, CatalogAdmin(rt.maintenance_sessions, embeddings)
    )
