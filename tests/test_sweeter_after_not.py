"""«Не кислое, ну сладенькое»: a «не» before a wish for sweeter wine does not turn it into
«drier» (issue 40)."""

from __future__ import annotations

import pytest

from core.language.followups import read_followup


@pytest.mark.parametrize("text", ["только не терпкое, ну послаще", "чтоб не горькое, а сладенькое"])
def test_a_wish_for_sweeter_stays_sweeter(text: str) -> None:
    step = read_followup(text)
    assert step.sweeter and not step.drier


def test_not_sweet_is_still_drier() -> None:
    step = read_followup("только не сладкое")
    assert step.drier and not step.sweeter
