"""A colour claimed of a wine («белое», «рубиновое», «из красных сортов», «янтарное») against
its row: the row's type for a still wine; for a sparkling, sweet or fortified one, whose colour
the row does not keep, the colour its own words give (a port is red unless they say otherwise,
anything else white)."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.domain import WineType
from core.language.claim_hues import DARK, HUE_COLOURS, HUE_FITS
from core.language.vocabulary import STYLE_TYPES
from services.agent._verdict import Verdict

_KIN_STYLES = {frozenset({WineType.dessert, WineType.fortified})}
_PALE_BODY = 2  # a wine this light (of 5) is never dark in the glass
_PORT = re.compile(r"(?i)\bport\b|\bLBV\b|портвейн|(?<![а-яё])порто(?![а-яё])")


def colour_verdict(
    value: object,
    wine_type: WineType | None,
    body: int | None,
    own_colours: Callable[[], frozenset[object]],
    name_text: str,
) -> Verdict:
    """`own_colours` reads the wine's own words, asked only of a sparkling, sweet or
    fortified wine (a still wine's colour is its row's)."""
    if wine_type is None:
        return Verdict.UNCONFIRMED
    if value == wine_type or frozenset({value, wine_type}) in _KIN_STYLES:
        return Verdict.OK
    if isinstance(value, str) and value in HUE_FITS:  # «янтарное», «из белых сортов»
        if wine_type in STYLE_TYPES and value in HUE_COLOURS and (said := own_colours()):
            return Verdict.OK if HUE_COLOURS[value] & said else Verdict.FALSE
        if value == DARK and body is not None and body <= _PALE_BODY:
            return Verdict.FALSE  # «почти чернильное» of a light pinot
        if wine_type in HUE_FITS[value]:
            return Verdict.OK
        # a sparkling wine's colour only its own words tell
        return Verdict.UNCONFIRMED if wine_type == WineType.sparkling else Verdict.FALSE
    if wine_type in STYLE_TYPES and value not in STYLE_TYPES:
        if said := own_colours():  # «Brut Rosé», «красное игристое»
            return Verdict.OK if value in said else Verdict.FALSE
        if _PORT.search(name_text):
            return Verdict.OK if value == WineType.red else Verdict.FALSE
        return Verdict.OK if value == WineType.white else Verdict.UNCONFIRMED
    return Verdict.FALSE
