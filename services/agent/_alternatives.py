"""Nothing fits: say so, say what was searched, offer the nearest real wines and why.

Used when the model, after searching, honestly answers that nothing matches (no cheaper
red exists): the answer keeps its sentence and adds the closest wines of the catalog —
the closest price in the same style, or the neighbouring style — never random ones.
"""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, format_price
from core.recommendation import RecommendedWine
from repositories.models import Wine
from repositories.wines import WineRepository
from services.agent._closing import closing_line
from services.agent._request_state import RequestState
from services.agent._selection import Selection, select_wines
from services.agent._strategies import Draft

_NOTHING = re.compile(
    r"\bнет\b|ничего|не наш|не нахож|не наход|не наш[её]л|отсутству|не наш[лл]ось"
    r"|nothing|no (?:\w+ ){0,3}(?:wines?|match|matches|results?)|couldn.t find|could not find"
    r"|none (?:of|match)|not find|there (?:is|are) no",
    re.IGNORECASE,
)


def says_nothing_fits(text: str) -> bool:
    """The model's answer says the catalog has nothing for the request (no wine named)."""
    return bool(_NOTHING.search(text or ""))


_RELAXED_RU = {
    "price_max": "ближайшая цена",
    "price_min": "ближайшая цена",
    "wine_type": "соседний стиль",
    "sweetness": "соседняя сладость",
    "food_pairing": "без точного совпадения по блюду",
    "country": "другая страна",
    "region": "соседний регион",
    "grape_variety": "другой сорт",
    "body_min": "другая тельность",
    "body_max": "другая тельность",
}


def _why(wine: Wine, selection: Selection) -> str:
    style = f"{WINE_TYPE_RU[wine.wine_type].capitalize()} {SWEETNESS_RU[wine.sweetness]}"
    reasons = [_RELAXED_RU[n] for n in selection.relaxed if n in _RELAXED_RU]
    reason = ", ".join(dict.fromkeys(reasons)) or "ближе всего к запросу"
    return f"{style}, {format_price(wine.price_rub)} — {reason}."


async def nearest_alternatives(
    sessions: async_sessionmaker[AsyncSession], state: RequestState, said: str
) -> Draft:
    """The model's «nothing fits», what was searched, and the nearest real wines."""
    async with sessions() as session:
        selection = await select_wines(WineRepository(session), state)
    searched = state.summary_ru(numbers=False)
    intro = said.strip() or "Точно под этот запрос в каталоге ничего нет."
    if searched:
        intro += f" Искал: {searched}."
    if not selection.wines:
        return Draft("agent", intro, [], closing_line(state))
    intro += " Ближайшие реальные варианты:"
    wines = [RecommendedWine.from_wine(w, _why(w, selection)) for w in selection.wines]
    return Draft("agent", intro, wines, closing_line(state))
