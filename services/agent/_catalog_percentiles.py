"""The catalog's price percentiles for price words («недорогое», «на подарок начальнику»),
cached per catalog version (core/language/price_bands.py says which percentiles a band is)."""

from __future__ import annotations

from decimal import Decimal

from core.language.price_bands import PERCENTILES
from repositories.catalog_cache import database_key
from repositories.prices import price_percentiles
from repositories.wines import WineRepository

_cache: dict[str, tuple[tuple[int, str], dict[float, Decimal]]] = {}


async def catalog_percentiles(repo: WineRepository) -> dict[float, Decimal]:
    key = database_key(repo.session.bind)
    version = await repo.catalog_version()
    cached = _cache.get(key)
    if cached is not None and cached[0] == version:
        return cached[1]
    values = await price_percentiles(repo.session, PERCENTILES)
    _cache[key] = (version, values)
    return values
