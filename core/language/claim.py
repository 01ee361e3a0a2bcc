"""One claim a sentence makes about a wine (read by `claims`, checked against the catalog by the
grounded-prose check)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Claim:
    kind: str
    value: object  # a year, a canonical grape/country/region, a name, WineType, Sweetness, Decimal
    exact: bool = False  # a grape said to be the only one («чистый пино нуар»)
    main: bool = False  # a grape said to lead a blend («с преобладанием мерло»)
    negated: bool = False  # said not to be so («в купаже нет мерло», «не из Франции»)
