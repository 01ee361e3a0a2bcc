"""The catalog's name index (core/language/catalog_terms.CatalogIndex), cached per version."""

from __future__ import annotations

from core.language.catalog_terms import CatalogEntry, CatalogIndex
from repositories.wines import WineRepository

_cache: dict[str, tuple[tuple[int, str], CatalogIndex]] = {}


async def catalog_index(repo: WineRepository) -> CatalogIndex:
    bind = repo.session.bind
    key = str(bind.url) if bind is not None else "default"
    version = await repo.catalog_version()
    cached = _cache.get(key)
    if cached is not None and cached[0] == version:
        return cached[1]
    index = CatalogIndex([CatalogEntry(*row) for row in await repo.name_entries()])
    _cache[key] = (version, index)
    return index
