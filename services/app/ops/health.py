"""How the service is doing: whether the database answers, the catalog's size, the answers'
figures for /stats and the HTTP API's status."""

from __future__ import annotations

from repositories.users import AnswerRepository, Stats
from repositories.wines import WineRepository
from services.app.database import Database
from services.app.turns.turns import Turns


class Health:
    def __init__(self, database: Database, turns: Turns) -> None:
        self._database = database
        self._turns = turns

    async def database_ok(self) -> bool:
        return await self._database.answers()

    async def catalog_counts(self, embedding_model: str) -> tuple[int, int]:
        """Wines in the catalog, and those with an embedding of this model."""
        async with self._database.sessions() as s:
            repo = WineRepository(s)
            return await repo.count(), await repo.count_embedded(embedding_model)

    async def stats(self) -> Stats:
        async with self._database.sessions() as s:
            return await AnswerRepository(s).stats()

    def answers_by_path(self) -> dict[str, int]:
        """Answers kept by this process since it started, by path."""
        return dict(self._turns.answers_by_path)
