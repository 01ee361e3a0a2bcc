"""The wheel ships the product and nothing else: the benchmarks (`bench/`) and the test kit
(`fakes/`) stay in the repository, and the commands backed by them say so from an installed
wheel instead of failing on an import.

The wheel is built for real (`pip wheel`, a few seconds) from a copy of the checkout, so that no
earlier build's leftovers in `build/` can hide or add a package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel in a subprocess

ROOT = Path(__file__).resolve().parent.parent
#: What a user installing the wheel gets: the layers of the product (README, "What the wheel
#: installs"), each a top-level package.
PRODUCT = {"core", "repositories", "seeds", "prompts", "services", "bot", "api", "web", "sommelier"}
_NOT_SOURCE = (".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "test-artefacts")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source") / "sommelier"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*_NOT_SOURCE, ".*_cache"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
        check=True,
        timeout=300,
    )
    return next(out.glob("sommelier-*.whl"))


def _top_level(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        names = {name.split("/")[0] for name in archive.namelist()}
    return {name for name in names if not name.endswith((".dist-info", ".data"))}


def test_the_wheel_holds_the_product_and_not_the_bench_nor_the_fakes(wheel: Path) -> None:
    top = _top_level(wheel)
    assert "bench" not in top and "fakes" not in top
    assert top == PRODUCT
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    # The product's own data comes along: prompts, the demo catalog, the web pages, the
    # knowledge base and the migrations.
    for expected in (
        "prompts/system.md",
        "seeds/wines.json",
        "web/static/chat/widget.js",
        "core/language/knowledge/basics.json",
    ):
        assert expected in names, expected
    assert any(name.endswith("/data/share/sommelier/alembic/env.py") for name in names)


def test_the_readme_names_what_the_wheel_installs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What the wheel installs", 1)[1].split("\n## ", 1)[0]
    assert [name for name in sorted(PRODUCT) if f"`{name}`" not in section] == []
    assert "`bench`" in section and "`fakes`" in section


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel unpacked, as an install would put it (once: its bytecode is then reused)."""
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def _from_the_wheel(
    installed: Path, tmp_path: Path, cwd: Path, *args: str
) -> subprocess.CompletedProcess[str]:
    """`sommelier ARGS` with the wheel as the only copy of the project (the libraries from this
    virtualenv; `-S` leaves out its .pth files, which put the checkout on the path)."""
    libraries = sysconfig.get_paths()["purelib"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DATA_DIR"))}
    env.update(PYTHONPATH=os.pathsep.join([str(installed), libraries]), DATA_DIR=str(tmp_path))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.run(
        [sys.executable, "-S", "-m", "sommelier.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_bench_from_the_wheel_says_it_needs_the_checkout(installed: Path, tmp_path: Path) -> None:
    """`sommelier bench` and `sommelier eval` share this path (`_exec_bench`); one process is
    enough to hold it. The whole command-line module (every layer of the product) imports from
    the wheel alone before the command is looked at, so the product stands on its own."""
    answer = _from_the_wheel(installed, tmp_path, tmp_path, "bench", "--quick")
    assert answer.returncode == 2, answer
    assert "`sommelier bench` needs the repository checkout" in answer.stderr
    assert "Traceback" not in answer.stderr
    assert answer.stdout == ""


def test_eval_from_a_checkout_directory_hands_over_to_it(installed: Path, tmp_path: Path) -> None:
    """Run inside the checkout, `python -m bench.eval` finds it there, as `python -m` would."""
    answer = _from_the_wheel(installed, tmp_path, ROOT, "eval", "--help")
    assert answer.returncode == 0, answer
    assert answer.stdout.startswith("usage: sommelier eval")
