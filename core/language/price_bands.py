"""Price words without a number: «недорогое», «не очень дорогое», «что-нибудь приличное», «на
подарок начальнику». Each names a band of the catalog's own price distribution (the prices of
the wines on sale), so «недорогое» means the cheaper third of this shop, whatever its range:

- budget — «бюджетное», «недорогое», «дешевое», «подешевле» (nothing shown yet), «эконом»,
  cheap: up to the 33rd percentile;
- moderate — «не очень / не слишком дорогое», «не дорогое», «средней цены», not too
  expensive: up to the median;
- decent — «приличное», «достойное», «на подарок» (to whom not said), decent: from the 40th
  to the 80th percentile;
- gift — «на подарок начальнику / руководителю / боссу / партнерам / клиенту», «солидное»,
  «статусное», «впечатлить», premium: from the 75th percentile.

A number in the message («недорогое, до 1500») wins over the band.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from decimal import Decimal

from core.language.folding import fold


class PriceBand(enum.StrEnum):
    budget = "budget"
    moderate = "moderate"
    decent = "decent"
    gift = "gift"


# (lower percentile, upper percentile); None: open.
BAND_PERCENTILES: dict[PriceBand, tuple[float | None, float | None]] = {
    PriceBand.budget: (None, 0.33),
    PriceBand.moderate: (None, 0.5),
    PriceBand.decent: (0.4, 0.8),
    PriceBand.gift: (0.75, None),
}
PERCENTILES: tuple[float, ...] = (0.33, 0.4, 0.5, 0.75, 0.8)

_B = r"(?<![a-zа-я])"
_BANDS: tuple[tuple[PriceBand, re.Pattern[str]], ...] = (
    (
        PriceBand.moderate,
        re.compile(
            _B + r"(не (очень|слишком|сильно|особо|так уж|самое) дорог|не дорог|не дороже среднего"
            r"|средн\w* (цен|ценов|стоимост)|умеренн\w* (цен|стоимост)|разумн\w* (цен|деньг)"
            r"|not (too|very|overly) expensive|mid[- ]priced|reasonably priced|moderately priced)"
        ),
    ),
    (
        PriceBand.gift,
        re.compile(
            _B + r"((на |в )?подар\w* (\w+ )?(начальник|руководител|шеф|босс|директор|партнер"
            r"|клиент|коллег|тест|свекр)|солидн|статусн|впечатл|представительск|премиальн"
            r"|дорог\w* подар|gift for (my |the )?(boss|client|partner)|impressive|premium)"
        ),
    ),
    (
        PriceBand.budget,
        re.compile(
            _B + r"(?<!не )(бюджетн|недорог|дешев|подешевле|эконом|копеечн|по карману"
            r"|за небольш\w* деньг"
            r"|cheap|inexpensive|affordable|budget[- ](wine|red|white|rose|bottle|option|pick"
            r"|friendly)|on a budget)"
        ),
    ),
    (
        PriceBand.decent,
        re.compile(
            _B + r"(приличн|достойн|неплох\w* (вин|бутыл)|хорош\w* (вин|бутыл)\w* (на|в) подар"
            r"|на подарок|в подарок|подарить|decent|a gift|as a gift)"
        ),
    ),
)


# «слишком дёшево», «дешевковато»: the wines are too cheap, dearer ones are wished
# «дешёвка какая-то», «простовато», «не солидно», «не самое дешёвое»
_TOO_CHEAP = re.compile(
    _B + r"(слишком дешев|дешевковат|дешевк|too cheap|простоват|слишком прост|не солидн"
    r"|не (?:само\w* )?(?:дешев|бюджетн)\w* (?:хочу|надо|нужно|бы)|не (?:само\w* )?дешев\w*$"
    # «это всё какое-то бюджетное», «они дешёвые какие-то»: said of the wines shown
    r"|(?:это|все|они|эти)(?: \w+)? как\w+[- ]то (?:дешев|бюджетн|простеньк)"
    r"|(?:это|все|они|эти)(?: \w+)? (?:дешев|бюджетн|простеньк)\w* как\w+[- ]то)"
)
_CHEAPEST = re.compile(
    _B + r"(сам(?:ый|ое|ая|ую|ые|ого|ой|ых|ым|ыми|ом|ому) (дешев|бюджетн|недорог)|cheapest)"
)


def too_cheap(folded: str) -> bool:
    """A complaint that the price is too low («слишком дёшево»): a wish for dearer wine."""
    return _TOO_CHEAP.search(folded) is not None


def read_price_band(text: str) -> PriceBand | None:
    """The price band a message names in words, if any."""
    folded = fold(text)
    for band, pattern in _BANDS:
        if pattern.search(folded):
            if band is PriceBand.budget and _CHEAPEST.search(folded):
                return None  # «самое дешевое»: the cheapest, an order rather than a band
            if band is PriceBand.budget and too_cheap(folded):
                continue  # «слишком дёшево», «дешевковато»: a complaint, dearer is wished
            return band
    return None


_NOT_DEAR = re.compile(
    _B + r"не (очень|слишком|сильно|особо|так уж|самое) дорог[а-я]*|не дорог[а-я]*"
)


def without_price_words(text: str) -> str:
    """The text without «не очень дорогое» (whose «не» would rule out the next word), in its
    own letters: «NZ» stays New Zealand, as only the capitals say."""
    folded = fold(text)  # character by character: a match's positions are the text's own
    for match in reversed(list(_NOT_DEAR.finditer(folded))):
        text = text[: match.start()] + " " + text[match.end() :]
    return text


def percentile(sorted_prices: list[Decimal], fraction: float) -> Decimal:
    """Nearest-rank percentile of an ascending list (a real catalog price)."""
    if not sorted_prices:
        raise ValueError("no prices")
    rank = max(1, min(len(sorted_prices), round(fraction * len(sorted_prices) + 0.5)))
    return sorted_prices[rank - 1]


def band_bounds(
    band: PriceBand, quantiles: Mapping[float, Decimal]
) -> tuple[Decimal | None, Decimal | None]:
    """(price_min, price_max) of a band, from the catalog's percentiles (`PERCENTILES`)."""
    low, high = BAND_PERCENTILES[band]
    return (
        quantiles.get(low) if low is not None else None,
        quantiles.get(high) if high is not None else None,
    )
