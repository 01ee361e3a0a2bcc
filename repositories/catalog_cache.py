"""What this process remembers of each database's catalog: its vocabulary and its version."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from datetime import date
from typing import Any

VOCABULARY_TTL_SECONDS = 60.0


@dataclass(frozen=True)
class Vocabulary:
    grapes: frozenset[str]
    foods: frozenset[str]
    regions: frozenset[str]
    loaded_at: float


# Distinct array values per database, so tolerant matching can expand a term into exact values
# that the GIN indexes serve. Refreshed after a TTL and whenever this process writes the catalog.
vocabularies: dict[str, Vocabulary] = {}
# The catalog's version (count, last update) as last read per database, with when it was read:
# reading it scans the table, so it is rechecked after the same TTL, and at once after this
# process writes the catalog.
versions: dict[str, tuple[tuple[int, str], float]] = {}
# The shop's boost and bury rules in force (repositories/shop_picks.py), resolved against the
# catalog: (core.shop_picks.ShopPicks, the day they were resolved for, when).
shop_picks_cache: dict[str, tuple[Any, date, float]] = {}


_keys: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def database_key(bind: Any) -> str:
    """Which database a session's bind (an engine or a connection) reads: the caches' key.
    Remembered per bind: rendering its URL again for every lookup (several per answer) cost
    more than the lookups."""
    if bind is None:
        return "default"
    key = _keys.get(bind)
    if key is None:
        key = _keys[bind] = str(bind.url)
    return key


def forget_catalog_caches() -> None:
    """Drop every cached vocabulary and catalog version (the catalog was changed outside)."""
    vocabularies.clear()
    versions.clear()
    shop_picks_cache.clear()
