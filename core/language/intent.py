"""Does a message ask for wine picks (as opposed to smalltalk or a general question)?"""

from __future__ import annotations

import re

from core.domain import WineFilters

_RECOMMEND = re.compile(
    r"посовету|подбер|порекоменду|рекоменду|что взять|что выбрать|что купить|как(ое|ую) вин"
    r"|хочу вин|нужн\w* вин|ищу вин|recommend|suggest|what wine|which wine|pick a wine",
    re.IGNORECASE,
)


def asks_for_wine(text: str, f: WineFilters) -> bool:
    """`f`: the filters the message's words name."""
    concrete = (f.price_min, f.price_max, f.food_pairing, f.grape_variety)
    return bool(_RECOMMEND.search(text)) or any(value is not None for value in concrete)
