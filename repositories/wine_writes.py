"""Catalog writes (loading a feed's wines) and the catalog's size and version."""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select, text, update

from core.domain import UpsertReport, WineRecord
from repositories.catalog_cache import VOCABULARY_TTL_SECONDS, versions
from repositories.models import Wine
from repositories.wine_filters import ON_SALE, FilteredWines

CATALOG_WRITE_LOCK_KEY = 72_6578_0003
# Changing any of these makes a stored embedding stale.
_EMBEDDED_FIELDS = frozenset(
    {
        "name",
        "producer",
        "country",
        "region",
        "grape_varieties",
        "wine_type",
        "sweetness",
        "description",
        "tasting_notes",
        "food_pairings",
    }
)


class CatalogWrites(FilteredWines):
    async def catalog_version(self) -> tuple[int, str]:
        """(count, last update): changes whenever the catalog does (seen by other processes
        within VOCABULARY_TTL_SECONDS)."""
        key = self._vocabulary_key()
        cached = versions.get(key)
        if cached is not None and time.monotonic() - cached[1] < VOCABULARY_TTL_SECONDS:
            return cached[0]
        row = (await self.session.execute(select(func.count(), func.max(Wine.updated_at)))).one()
        version = (int(row[0]), str(row[1]))
        versions[key] = (version, time.monotonic())
        return version

    async def count(self) -> int:
        return int(await self.session.scalar(select(func.count()).select_from(Wine)) or 0)

    async def upsert_many(
        self, records: Sequence[WineRecord], *, sync: bool = False
    ) -> UpsertReport:
        """Insert new wines, update changed ones, leave identical ones alone.

        A record's natural key is its external id (a feed's offer id / SKU) when it has one,
        else its slug. With `sync`, every wine on sale that the records do not name becomes
        unavailable (never deleted: feedback and history point at it).
        Concurrent loads take turns for the rest of the transaction, so two processes seeding
        at once cannot both insert the same wine.
        """
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(:k)"), {"k": CATALOG_WRITE_LOCK_KEY}
        )
        by_key = {(r.external_id or f"slug:{r.slug}"): r for r in records}
        ext_ids = [r.external_id for r in by_key.values() if r.external_id]
        slugs = [r.slug for r in by_key.values()]
        rows = await self.session.scalars(
            select(Wine).where(Wine.external_id.in_(ext_ids) | Wine.slug.in_(slugs))
        )
        by_ext: dict[str, Wine] = {}
        by_slug: dict[str, Wine] = {}
        for wine in rows:
            by_slug[wine.slug] = wine
            if wine.external_id:
                by_ext[wine.external_id] = wine
        inserted = updated = unchanged = 0
        for record in by_key.values():
            values = record.model_dump()
            current = by_ext.get(record.external_id) if record.external_id else None
            if current is not None:
                values.pop("slug")  # a wine keeps its slug when the feed renames it
            else:
                candidate = by_slug.get(record.slug)
                if candidate is not None and candidate.external_id in (None, record.external_id):
                    current = candidate
            if current is None:
                if record.slug in by_slug:
                    values["slug"] = f"{record.slug}-{uuid.uuid4().hex[:6]}"
                self.session.add(Wine(**values))
                inserted += 1
                continue
            # Where a row came from is bookkeeping: the same wine from another URL is unchanged.
            changed = {
                k: v
                for k, v in values.items()
                if k != "source" and _differs(getattr(current, k), v)
            }
            if not changed:
                unchanged += 1
                continue
            changed["source"] = values["source"]
            if _EMBEDDED_FIELDS & changed.keys():
                changed.update(embedding=None, embedding_model=None)
            await self.session.execute(update(Wine).where(Wine.id == current.id).values(**changed))
            updated += 1
        await self.session.flush()
        marked = 0
        if sync:
            result = await self.session.execute(
                update(Wine)
                .where(
                    ON_SALE,
                    func.coalesce(Wine.external_id, "").not_in(ext_ids or [""]),
                    Wine.slug.not_in(slugs or [""]),
                )
                .values(available=False)
            )
            marked = int(getattr(result, "rowcount", 0) or 0)
        self.forget_vocabulary()
        return UpsertReport(
            inserted=inserted, updated=updated, unchanged=unchanged, marked_unavailable=marked
        )


def _differs(current: Any, new: Any) -> bool:
    if current is None or new is None:
        return current is not new
    if isinstance(current, Decimal) or isinstance(new, Decimal):
        return Decimal(str(current)) != Decimal(str(new))
    return current != new
