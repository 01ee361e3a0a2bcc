"""Where a wine or its maker stands — the oldest, the best, the only, the first in the world,
in the top three, the best-selling — how it compares with others, and how long it was aged, are
claims of their own: each stands only when the wine's own words say the same word, in the world
when they say the world (issue 40). Words of taste («самое лёгкое», «нежнейший») and a
recommendation («лучший выбор на каждый день») are no standing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.domain import Sweetness, WineType
from services.agent._wine_facts import Facts, facts_of
from tests.claim_helpers import stands

OWN_WORDS = (
    "Одно из самых известных хозяйств долины и крупнейший производитель региона. Братья Оливьери "
    "первыми в стране посадили здесь неббиоло. Нежный, с ароматом вишни."
)


def _wine() -> Facts:
    return facts_of(
        "Oliveri Nebbiolo",
        "Fratelli Oliveri",
        "Италия",
        ("Пьемонт", "Langhe DOC"),
        ("неббиоло",),
        WineType.red,
        Sweetness.dry,
        OWN_WORDS,
        vintage=2020,
        price=Decimal(3100),
    )


CASES = [
    ("Fratelli Oliveri — крупнейший производитель региона.", True),
    ("Одно из самых известных хозяйств Пьемонта.", True),
    ("Братья Оливьери первыми в стране посадили неббиоло.", True),
    ("Fratelli Oliveri — старейший производитель Пьемонта.", False),
    ("Это лучшее неббиоло Италии.", False),
    ("Самое продаваемое неббиоло Пьемонта.", False),
    ("Единственное хозяйство долины, где растёт неббиоло.", False),
    ("Братья Оливьери первыми в мире посадили неббиоло.", False),
    ("Братья Оливьери последними в стране посадили неббиоло.", False),
    ("Хозяйство входит в тройку крупнейших в Пьемонте.", False),
    ("Fratelli Oliveri — второй по величине производитель региона.", False),
    ("Самое лёгкое из трёх, с ароматом вишни.", True),
    ("Пожалуй, лучший выбор к ризотто.", True),
    ("Нежнейшее неббиоло с ароматом вишни.", True),
    ("Дороже большинства пьемонтских вин.", False),
    ("Не уступает лучшим бароло.", False),
    ("Вино с долгой выдержкой в бочках.", False),
    ("Пить лучше в течение года.", False),
    ("Fratelli Oliveri — лидер Пьемонта.", False),
    ("Эталонное неббиоло Ланге.", False),
]


@pytest.mark.parametrize(("sentence", "true"), CASES, ids=[s for s, _ in CASES])
def test_a_standing_stands_only_in_the_wine_s_own_words(sentence: str, true: bool) -> None:
    assert stands(_wine(), sentence) is true
