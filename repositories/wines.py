"""WineRepository: every query over the catalog. Values reach SQL only as bound parameters.

Each part lives in its own module: what filters mean in SQL (`wine_filters`), structured search
(`wine_search`), vectors and embeddings (`wine_vectors`), names and full text (`wine_names`),
and writes with the catalog's version (`wine_writes`).
"""

from __future__ import annotations

from repositories.catalog_cache import forget_catalog_caches
from repositories.wine_filters import ON_SALE, validate_filters
from repositories.wine_names import WineNames
from repositories.wine_search import WineSearch
from repositories.wine_vectors import WineVectors
from repositories.wine_writes import CatalogWrites

__all__ = ["ON_SALE", "WineRepository", "forget_catalog_caches", "validate_filters"]


class WineRepository(WineSearch, WineVectors, WineNames, CatalogWrites):
    """The one class callers use: all the parts over one session."""
