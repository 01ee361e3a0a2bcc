"""The README is a short front page, and every other page is reachable from it.

The front page holds what it is, the two commands, configuration at a glance and links; the
rest lives in docs/, one page per reader. Every relative link and anchor in the pages must
lead somewhere, every `sommelier` command and `make` target must be named, and measured
figures stay in BENCHMARKS.md and bench/runs/.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from sommelier.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, ROOT / "BENCHMARKS.md", ROOT / "fakes" / "README.md", *DOCS]
README_LIMIT = 250
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#{1,6} (.+)$", re.MULTILINE)
_FIGURE = re.compile(r"\d(?:[\d.,]*\d)? ?(?:ms|MB|KB|GB|%)(?!\w)")


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_anchor(heading) for heading in _HEADING.findall(_read(path))}


def test_the_readme_is_a_short_front_page() -> None:
    lines = _read(README).count("\n")
    assert lines <= README_LIMIT, f"README.md has {lines} lines (at most {README_LIMIT})"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    readme = _read(README)
    assert DOCS, "docs/ holds the pages"
    assert [page.name for page in DOCS if f"](docs/{page.name}" not in readme] == []


def test_every_relative_link_and_anchor_leads_somewhere() -> None:
    broken = []
    for page in PAGES:
        for target in _LINK.findall(_read(page)):
            if re.match(r"^[a-z]+:", target):  # http(s), mailto
                continue
            path_part, _, anchor = target.partition("#")
            resolved = (page.parent / path_part).resolve() if path_part else page
            if not resolved.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_the_readme_names_every_command_and_make_target() -> None:
    readme = _read(README)
    parser = build_parser()
    commands = next(
        action.choices
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    )
    assert [name for name in commands if f"`sommelier {name}" not in readme] == []
    phony = re.search(r"^\.PHONY: (.+)$", _read(ROOT / "Makefile"), re.MULTILINE)
    assert phony is not None
    targets = phony.group(1).split()
    assert [t for t in targets if f"`{t}`" not in readme and f"make {t}" not in readme] == []


def test_measured_figures_stay_out_of_the_readme() -> None:
    """Figures of runs live in BENCHMARKS.md and bench/runs/; the README links them."""
    assert _FIGURE.findall(_read(README)) == []
