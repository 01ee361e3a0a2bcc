"""Wiring: the service graph built from a Runtime."""

from __future__ import annotations

from dataclasses import dataclass

from services.embeddings import EmbeddingService
from services.llm_client import LLMClient
from services.sommelier import SommelierService
from sommelier.runtime import Runtime


@dataclass
class Services:
    llm: LLMClient
    embeddings: EmbeddingService
    sommelier: SommelierService

    async def close(self) -> None:
        await self.llm.close()
        await self.embeddings.close()


def build_services(rt: Runtime) -> Services:
    llm = LLMClient(rt.settings)
    embeddings = EmbeddingService(rt.settings)
    return Services(llm, embeddings, SommelierService(rt.settings, rt.sessions, llm, embeddings))
