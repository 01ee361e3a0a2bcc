"""Wines by what people call them: full-text search, a wine a text names, every wine's names."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Text, bindparam, case, cast, func, literal_column, select

from core.domain import WineFilters
from core.language.catalog_terms import CatalogEntry
from core.language.folding import fold, search_roots
from repositories.models import Wine
from repositories.wine_filters import ON_SALE, FilteredWines, check_limit, validate_filters

NAME_BATCH = 5_000
_TS_ROOT = re.compile(r"[a-zа-я0-9]{2,}")
_NAME_WORD = re.compile(r"[a-zа-я0-9]+")


class WineNames(FilteredWines):
    async def text_search(
        self,
        query: str,
        filters: WineFilters | Mapping[str, Any] | None = None,
        k: int = 10,
    ) -> list[Wine]:
        """Russian full-text search, better matches first.

        Wines matching every word are tried first; only when they are fewer than k does any
        word suffice (an OR of common words like «красное» would rank half the catalog).
        """
        check_limit(k, 0)
        roots = search_roots(query)
        if not roots:
            return []
        conds = await self._conditions(validate_filters(filters))
        if conds is None:
            return []
        # Each meaningful word becomes a prefix query on its Snowball root (the same algorithm
        # as the `russian` configuration's stems), so «ягодными» finds «ягоды» too. Roots are
        # letters and digits only, so no character of user text is parsed as tsquery syntax.
        parts = [
            func.to_tsquery(literal_column("'simple'::regconfig"), f"{root}:*")
            for root in roots[:12]
            if _TS_ROOT.fullmatch(root)
        ]
        if not parts:
            return []
        every_word, any_word = parts[0], parts[0]
        for part in parts[1:]:
            every_word = every_word.op("&&")(part)
            any_word = any_word.op("||")(part)
        found: list[Wine] = []
        for tsq in (every_word, any_word) if len(parts) > 1 else (any_word,):
            stmt = (
                select(Wine)
                .where(Wine.search_vector.op("@@")(tsq), ON_SALE, *conds)
                .order_by(func.ts_rank_cd(Wine.search_vector, tsq).desc(), Wine.slug)
                .limit(k)
            )
            found = list((await self.session.scalars(stmt)).all())
            if len(found) >= k:
                break
        return found

    async def find_by_name(self, name: str) -> Wine | None:
        """The wine on sale this text names: its name up to case, accents and punctuation, or a text
        holding one catalog name whole ("Catena Malbec 2021"). Never a guess: a made-up name
        that merely shares a word with a catalog wine finds nothing.
        """
        wanted = _name_key(name)
        if not wanted:
            return None
        stmt = select(Wine).where(ON_SALE, func.lower(Wine.name) == name.strip().lower()).limit(1)
        wine = await self.session.scalar(stmt)
        if wine is not None:
            return wine
        padded = f" {wanted} "
        fits: list[tuple[int, uuid.UUID]] = []
        for wine_id, wine_name in await self.session.execute(
            select(Wine.id, Wine.name).where(ON_SALE)
        ):
            key = _name_key(wine_name)
            if key and f" {key} " in padded:
                fits.append((len(key), wine_id))
        if not fits:
            return None
        fits.sort(key=lambda fit: fit[0], reverse=True)
        if len(fits) > 1 and fits[0][0] == fits[1][0]:
            return None  # two wines fit equally well: do not pick one at random
        return await self.session.get(Wine, fits[0][1])

    async def name_entries(self) -> list[CatalogEntry]:
        """Every wine's id with what names it (name, region, appellation, grapes) as one string,
        and its food pairings.
        Read in pages by id (no server-side cursor, so it needs no transaction), so a 100k-wine
        catalog is never held twice."""
        naming = func.concat_ws(
            " ",
            Wine.name,
            Wine.region,
            Wine.appellation,
            func.array_to_string(Wine.grape_varieties, " "),
        )
        after = bindparam("after", type_=Wine.__table__.c.id.type)
        dishes = func.array_to_string(Wine.food_pairings, "|")
        # type|sweetness|the grape of a single-grape wine|price: what «похожее на …, но
        # дешевле» keeps of it and measures against
        single_grape = case(
            (func.cardinality(Wine.grape_varieties) == 1, Wine.grape_varieties[1]), else_=""
        )
        style = func.concat_ws(
            "|", Wine.wine_type, Wine.sweetness, single_grape, cast(Wine.price_rub, Text)
        )
        page = (
            select(Wine.id, naming, dishes, style)
            .where(Wine.id > after)
            .order_by(Wine.id)
            .limit(NAME_BATCH)
        )
        entries: list[CatalogEntry] = []
        last = uuid.UUID(int=0)
        while True:
            rows = (await self.session.execute(page, {"after": last})).all()
            entries.extend(
                CatalogEntry(wine_id, words, foods or "", style or "")
                for wine_id, words, foods, style in rows
            )
            if len(rows) < NAME_BATCH:
                return entries
            last = rows[-1][0]


def _name_key(text: str) -> str:
    """A wine name compared loosely: folded, no punctuation, single spaces."""
    return " ".join(_NAME_WORD.findall(fold(text)))
