"""Application modules and the test kit stay small: one job each, readable in one sitting
(issue #32 drew the line at 400 lines for services/ and fakes/; every layer of the product
keeps it since)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400
#: Every layer of the product, its adapters and entry points, and the test kit. Benchmarks and
#: tests are scripts read top to bottom and are not held to it.
FOLDERS = (
    "core",
    "repositories",
    "seeds",
    "prompts",
    "services",
    "bot",
    "api",
    "web",
    "sommelier",
    "fakes",
)


def test_no_application_module_nor_fake_is_over_400_lines() -> None:
    checked = [path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in checked
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert len(checked) > 100  # the folders are where this test looks
    assert too_long == {}
