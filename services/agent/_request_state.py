"""What the person is looking for now: the structured request each turn answered, and the wines
already shown — with the ways it is said (to the person, to the model, to the search tools).

Built by `services/agent/_conversation.py` from the stored thread.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.domain import SWEETNESS_RU, WINE_TYPE_RU, Sweetness, WineFilters, WineType
from core.language.vocabulary import STYLE_TYPES
from repositories.models import Wine

_STEPS = ("дешевле", "дороже", "легче", "плотнее")


@dataclass(frozen=True)
class ShownWine:
    id: uuid.UUID
    price: Decimal
    sweetness: Sweetness
    body: int
    wine_type: WineType
    grapes: tuple[str, ...] = ()

    @property
    def price_rub(self) -> Decimal:  # as a catalog row names it
        return self.price


@dataclass(frozen=True)
class RequestState:
    """What the person is looking for now, after every refinement so far."""

    filters: WineFilters = field(default_factory=WineFilters)
    countries: tuple[str, ...] = ()  # any of these (a group such as «Новый Свет»)
    named_ids: tuple[uuid.UUID, ...] = ()  # wines the request names (кьянти, просекко)
    named_words: tuple[str, ...] = ()
    named_now: bool = False  # this message names them (so a shown one may come again)
    excluded: tuple[tuple[str, str], ...] = ()  # (filter name, value) ruled out
    # The ceiling the person's own words set («до 1500»), which a step's bound below it
    # («подешевле» past the cheapest) gives back to before the budget itself is given up
    budget: Decimal | None = None
    mood: str = ""  # the words of a request nothing structured was read from
    shown: tuple[uuid.UUID, ...] = ()  # every wine shown in the conversation
    last_shown: tuple[ShownWine, ...] = ()
    listed: tuple[ShownWine, ...] = ()  # the last answer of several wines («а третье?» after one)
    refined: tuple[str, ...] = ()  # the changes this turn asked for (cheaper, drier, …)
    extreme: str = ""  # this turn asks for the "cheapest" or "dearest" that fits
    asked_now: tuple[str, ...] = ()  # filters this message set: the last to relax
    said_now: tuple[str, ...] = ()  # filters this message's own words state («under 1000»)
    turns: int = 0
    missing_name: str = ""  # a wine this message names that the catalog does not have
    dish_said: str = ""  # the dish in the person's own word («торту»), when a food is asked
    topic: str = (
        ""  # the knowledge entry last asked about («а у вас есть?» after «что такое амароне?»)
    )

    @property
    def keeps_still(self) -> bool:
        """A step of the price or the body alone («подешевле», «полегче») from still wines,
        no type asked: a still wine again, not a sparkling or a port made of the same grape to
        go further that way. (A sweeter one may be sparkling: «и сладенькое для девушек».)"""
        return (
            self.filters.wine_type is None
            and not self.said_now
            and bool(self.last_shown)
            and any(step in self.refined for step in _STEPS)
            and all(w.wine_type not in STYLE_TYPES for w in self.last_shown)
        )

    @property
    def structured(self) -> bool:
        # «белое или розовое», «сладкое» (semi-sweet or sweet) rule the rest out: a structure
        return not self.filters.is_empty() or bool(
            self.countries or self.named_ids or self.excluded
        )

    def admits(self, wine: Wine) -> bool:
        """True when the wine fits what is ruled in and out beyond the SQL filters."""
        if self.countries and wine.country not in self.countries:
            return False
        if wine.wine_type in STYLE_TYPES and self.keeps_still:
            return False
        for name, value in self.excluded:
            if name == "country" and wine.country == value:
                return False
            if name == "wine_type" and wine.wine_type.value == value:
                return False
            if name == "sweetness" and wine.sweetness.value == value:
                return False
            if name == "grape_variety" and value in wine.grape_varieties:
                return False
            if name == "region" and wine.region == value:
                return False
        return True

    def _price_ru(self, numbers: bool) -> list[str]:
        """The price bounds as said back: numbers, or what they are when numbers are not
        shown (a step's bound is «дешевле показанных», the person's own «в пределах бюджета»)."""
        low, high = self.filters.price_min, self.filters.price_max
        if numbers:
            bounds = [f"от {int(low)} ₽"] if low is not None else []
            return bounds + ([f"до {int(high)} ₽"] if high is not None else [])
        dearer, cheaper = "дороже" in self.refined, "дешевле" in self.refined
        if low is not None and high is not None and not (dearer or cheaper):
            return ["в пределах бюджета"]  # «около 5000»: the range the person set
        said = []
        if low is not None:
            said.append("дороже показанных" if dearer else "не дешевле заданной цены")
        if high is not None:
            said.append("дешевле показанных" if cheaper else "в пределах бюджета")
        return said

    def summary_ru(self, numbers: bool = True) -> str:
        """The request in force, in words (prompts and «what was searched»).

        Without `numbers` the prices are described, not quoted (an answer may only quote
        prices the person gave in this message or of the wines shown).
        """
        f = self.filters
        parts: list[str] = []
        if f.wine_type:
            parts.append(WINE_TYPE_RU[f.wine_type])
        if f.sweetness:
            parts.append(SWEETNESS_RU[f.sweetness])
        if self.named_words:
            parts.append("«" + ", ".join(self.named_words) + "»")
        if f.grape_variety:
            parts.append(f"сорт {f.grape_variety}")
        if f.country:
            parts.append(f"страна {f.country}")
        if self.countries:
            parts.append("страны: " + ", ".join(self.countries))
        if f.region:
            parts.append(f"регион {f.region}")
        if f.food_pairing:
            parts.append(f"к блюду «{f.food_pairing}»")
        parts += self._price_ru(numbers)
        if f.body_min is not None:
            parts.append(f"тельность от {f.body_min}")
        if f.body_max is not None:
            parts.append(f"тельность до {f.body_max}")
        for name, value in self.excluded:
            if name == "wine_type":
                value = WINE_TYPE_RU.get(WineType(value), value)
            elif name == "sweetness":
                value = SWEETNESS_RU.get(Sweetness(value), value)
            parts.append(f"не {value}")
        if self.mood and not parts:
            parts.append(f"«{self.mood}»")
        return ", ".join(parts)

    def tool_arguments(self) -> dict[str, Any]:
        """The state as search_wines arguments (a group of countries is not expressible)."""
        args: dict[str, Any] = self.filters.model_dump(mode="json", exclude_none=True)
        for key in ("price_min", "price_max"):
            if key in args:
                args[key] = float(args[key])
        if self.named_words:
            args["name"] = " ".join(self.named_words)
        if self.countries:
            args["countries"] = list(self.countries)
        excluded_countries = [v for k, v in self.excluded if k == "country"]
        if excluded_countries:
            args["exclude_countries"] = excluded_countries
        excluded_grapes = [v for k, v in self.excluded if k == "grape_variety"]
        if excluded_grapes:
            args["exclude_grapes"] = excluded_grapes
        return args

    def prompt_block(self) -> str:
        """For the model: the request in force and the wines already shown."""
        lines = ["Состояние беседы (запрос с учетом уточнений):"]
        lines.append(f"- ищем: {self.summary_ru() or 'без ограничений'}")
        lines.append("- фильтры поиска: " + json.dumps(self.tool_arguments(), ensure_ascii=False))
        if self.mood:
            lines.append(f"- настроение или описание (для semantic_search): «{self.mood}»")
        if self.refined:
            lines.append(f"- уточнение этого сообщения: {', '.join(self.refined)}")
        if self.missing_name:
            lines.append("- вина, названного в сообщении, в каталоге нет: скажи об этом прямо")
        if self.last_shown:
            prices = ", ".join(f"{int(w.price)} ₽" for w in self.last_shown)
            lines.append(f"- в прошлом ответе показаны вина по ценам: {prices}")
        if self.shown:
            # Their ids are in the answers above ([WINE:<id>]): not repeated on every call. What
            # to do about them is said once, in the instructions and the tools' schemas.
            lines.append(f"- уже показано вин: {len(self.shown)}")
        return "\n".join(lines)
