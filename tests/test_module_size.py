"""Application modules and the test kit stay small: one job each, readable in one sitting
(issue #32 drew the line at 400 lines for services/ and fakes/)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400


def test_no_module_of_the_services_or_the_fakes_is_over_400_lines() -> None:
    too_long = {
        str(path.relative_to(ROOT)): lines
        for folder in ("services", "fakes")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert too_long == {}
