"""«Похожие»: wines like one the person was shown, none of those already shown in the
conversation; the answer joins the conversation like any turn."""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator
from decimal import Decimal

from core.domain import WineFilters
from core.recommendation import Recommendation, RecommendedWine
from core.text import joined
from repositories.models import Wine
from repositories.turns import TurnStart
from repositories.users import ConversationRepository
from repositories.wines import WineRepository
from services.agent import AgentEvent, Final
from services.app.database import Database
from services.app.texts import T
from services.app.turns.turns import Turns, WithTurn, final_answer


class SimilarWines:
    def __init__(self, database: Database, turns: Turns) -> None:
        self._sessions = database.sessions
        self._turns = turns

    async def on_sale(self, wine_id: uuid.UUID) -> bool | None:
        """Whether the shop sells this wine now; None when it is not in the catalog."""
        async with self._sessions() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
        return found[0].available if found else None

    async def similar(
        self, user_id: int, wine_id: uuid.UUID, with_turn: WithTurn | None = None
    ) -> Recommendation | None:
        """Wines like this one, excluding those already shown in the conversation; None when
        the wine is not in the catalog."""
        async with self._sessions() as s:
            found = await WineRepository(s).get_by_ids([wine_id])
        if not found:
            return None
        answering = functools.partial(self._answer, found[0])
        return await final_answer(self._turns.turn(user_id, answering, with_turn=with_turn))

    async def _answer(self, base: Wine, start: TurnStart) -> AsyncIterator[AgentEvent]:
        picks = await self._similar_wines(base, start)
        if picks:
            intro = T.similar_intro.format(name=base.name)
            closing = T.similar_closing
        else:
            intro = T.similar_none_intro.format(name=base.name)
            closing = T.similar_none_closing
        rec = Recommendation(intro=intro, wines=picks, closing=closing, path="similar")
        if not base.available:
            rec.sold_out_id = base.id
        rec.new_messages = [
            {
                "role": "assistant",
                "content": f"{intro}\n" + "\n".join(f"- {w.name} ({w.id})" for w in picks),
            }
        ]
        yield Final.of(rec, uuid.uuid4().hex, total_steps=1)

    async def _similar_wines(self, base: Wine, start: TurnStart) -> list[RecommendedWine]:
        """Up to three, none of them shown in the conversation the turn goes on with."""
        async with self._sessions() as s:
            shown = {base.id}
            if start.conversation_id is not None:
                shown |= await ConversationRepository(s).shown_wine_ids(start.conversation_id)
            repo = WineRepository(s)
            candidates: list[Wine] = []
            vector = await repo.embedding_of(base.id)
            if vector is not None:
                candidates = [w for w, _ in await repo.nearest(vector, {}, k=len(shown) + 3)]
            if not candidates:
                filters = WineFilters(
                    wine_type=base.wine_type,
                    price_min=(base.price_rub * Decimal("0.5")).quantize(Decimal(1)),
                    price_max=(base.price_rub * Decimal("1.8")).quantize(Decimal(1)),
                )
                pool = await repo.search(filters, limit=50)
                grapes = set(base.grape_varieties)
                candidates = sorted(
                    pool,
                    key=lambda w: (
                        -len(grapes & set(w.grape_varieties)),
                        w.sweetness != base.sweetness,
                        w.country != base.country,
                        abs(w.price_rub - base.price_rub),
                        w.slug,
                    ),
                )
        picks = [w for w in candidates if w.id not in shown][:3]
        return [RecommendedWine.from_wine(w, _similar_reason(base, w)) for w in picks]


def _similar_reason(base: Wine, wine: Wine) -> str:
    shared = [g for g in wine.grape_varieties if g in base.grape_varieties]
    if shared:
        return f"Тот же сорт ({', '.join(shared)}), {wine.country}."
    return f"Близкий стиль: {joined([wine.country, *wine.grape_varieties])}."
