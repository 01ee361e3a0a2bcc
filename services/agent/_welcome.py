"""The /start welcome: three proactive picks for today, written by the LLM when there is one."""

from __future__ import annotations

import logging
from typing import Any

from core.domain import WINE_TYPE_RU, WineFilters
from core.errors import LLMRequestError, LLMUnavailableError
from core.recommendation import MAX_WINES, Recommendation, RecommendedWine
from core.taste import price_ceiling, taste_score
from prompts import fill, load_prompt
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._answer_format import FORMAT_INSTRUCTIONS, first_sentence, parse_answer
from services.agent._catalog_slice import catalog_line
from services.agent._day_context import DayContext
from services.agent._selection import liked_style
from services.agent._service import SommelierService
from services.agent._wine_handles import id_for, with_handles

log = logging.getLogger(__name__)


class WelcomeWriter:
    def __init__(self, sommelier: SommelierService) -> None:
        self.sommelier = sommelier

    def day(self) -> DayContext:
        return self.sommelier.day()

    async def picks(self, day: DayContext, profile: dict[str, Any]) -> list[Wine]:
        """One wine per suggested type (the person's favourite type first), within their
        budget when known, the best fit for their taste among the candidates."""
        price_max = price_ceiling(profile)
        types = day.suggested_wine_types()
        style = liked_style(profile)
        if style is not None:
            types = [style[0], *[t for t in types if t != style[0]]]
        chosen: list[Wine] = []
        async with self.sommelier.sessions() as session:
            repo = WineRepository(session)
            for wine_type in [*types, *types]:
                if len(chosen) == MAX_WINES:
                    break
                pool = await repo.search(
                    WineFilters(wine_type=wine_type, price_max=price_max),
                    limit=40,
                    order="price_asc",
                )
                pool = pool or await repo.search(WineFilters(wine_type=wine_type), limit=40)
                fresh = [w for w in pool if w not in chosen]
                if fresh:
                    best = max(taste_score(w, profile) for w in fresh)
                    fitting = [w for w in fresh if taste_score(w, profile) == best]
                    # Deterministic per day, so the welcome does not change on every /start.
                    chosen.append(fitting[day.now.toordinal() % len(fitting)])
            if len(chosen) < MAX_WINES:
                for wine in await repo.search({}, limit=MAX_WINES * 3, order="price_asc"):
                    if wine not in chosen and len(chosen) < MAX_WINES:
                        chosen.append(wine)
        return chosen

    async def write(self, profile: dict[str, Any]) -> Recommendation:
        day = self.day()
        wines = await self.picks(day, profile)
        if self.sommelier.llm.configured and wines:
            try:
                return await self._with_llm(day, wines)
            except (LLMUnavailableError, LLMRequestError) as exc:
                log.info("welcome falls back to the template: %s", exc)
        return self._templated(day, wines)

    async def _with_llm(self, day: DayContext, wines: list[Wine]) -> Recommendation:
        system = fill(
            load_prompt("welcome"),
            answer_format=FORMAT_INSTRUCTIONS,
            context=day.to_prompt_block() + "\n" + "; ".join(day.occasion_hints()),
            catalog="\n".join(catalog_line(w) for w in wines),
        )
        messages = with_handles(
            [
                {"role": "system", "content": system},
                {"role": "user", "content": "Поприветствуй меня и предложи вина на сегодня."},
            ]
        )
        reply = await self.sommelier.llm.complete(messages, None)
        parsed = parse_answer(reply.content)
        by_id = {w.id: w for w in wines}
        picked = [
            RecommendedWine.from_wine(by_id[wine_id], p.why)
            for p in parsed.picks
            if (wine_id := id_for(p.ref, by_id)) in by_id
        ]
        if len(picked) < len(wines) or not parsed.intro:
            raise LLMRequestError("the welcome did not keep to the picked wines")
        rec = Recommendation(
            parsed.intro,
            picked[:MAX_WINES],
            parsed.closing,
            "welcome",
            llm_calls=1,
            usage=reply.usage,
            prompt_chars=reply.prompt_chars,
        )
        rec.new_messages = [{"role": "assistant", "content": reply.content or ""}]
        return rec

    def _templated(self, day: DayContext, wines: list[Wine]) -> Recommendation:
        hints = day.occasion_hints()
        occasion = hints[0] if hints else f"{day.weekday}, {day.season}"
        intro = (
            "Добро пожаловать! Я ваш персональный сомелье: подберу вино к блюду, поводу и "
            f"бюджету из каталога магазина. Сегодня {day.weekday} — вот три идеи "
            f"({occasion}):"
        )
        picked = [
            RecommendedWine.from_wine(
                w, f"{WINE_TYPE_RU[w.wine_type].capitalize()} — {first_sentence(w.description)}"
            )
            for w in wines
        ]
        closing = (
            "Спросите, например: «красное сухое к стейку до 2000 ₽» или «что взять на пикник?»"
        )
        rec = Recommendation(intro, picked, closing, "welcome")
        rec.new_messages = [{"role": "assistant", "content": intro}]
        return rec
