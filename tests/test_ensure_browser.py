"""scripts/ensure-browser.sh, which `make test` and `.ci/run` call before the suite: nothing
when Chromium and chromedriver are there; otherwise Debian's packages through apt-get (as root,
or `sudo -n`); when it cannot, one line saying what to install. The script runs with a PATH of
stand-ins (apt-get, sudo, id and the browser are fakes that log what they are asked), so no
system package is touched."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "ensure-browser.sh"
WHAT_TO_INSTALL = "apt-get install chromium chromium-driver"
TOOLS = ("env", "mktemp", "rm")  # the real ones the script needs besides the stand-ins


@dataclass
class Run:
    code: int
    stderr: list[str]
    calls: list[str]  # what apt-get and sudo were asked, in order


class Machine:
    """A directory that is the script's whole PATH."""

    def __init__(self, tmp_path: Path, *, uid: int = 0) -> None:
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.calls = tmp_path / "calls"
        for tool in TOOLS:
            found = shutil.which(tool)
            assert found is not None, tool
            (self.bin / tool).symlink_to(found)
        self.script("id", f'echo "{uid}"')

    def script(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)

    def browser(self, *names: str) -> None:
        for name in names:
            self.script(name, "exit 0")

    def apt_get(self, *, works: bool = True) -> None:
        chmod = shutil.which("chmod")
        install = (
            f'for b in chromium chromedriver; do echo "exit 0" > "{self.bin}/$b"; done; '
            f'{chmod} +x "{self.bin}/chromium" "{self.bin}/chromedriver"'
            if works
            else 'echo "E: Unable to locate package chromium-driver" >&2; exit 100'
        )
        self.script(
            "apt-get",
            f'echo "apt-get $*" >> "{self.calls}"\n'
            f'[ "$DEBIAN_FRONTEND" = noninteractive ] || exit 99\n'
            f'case "$1" in install) {install};; esac',
        )

    def sudo(self, *, without_password: bool) -> None:
        asked = 0 if without_password else 1  # `sudo -n true`: 1 when it needs a password
        self.script(
            "sudo",
            f'[ "$1" = -n ] || exit 98\nshift\n[ "$1" = true ] && exit {asked}\n'
            f'echo "sudo $*" >> "{self.calls}"\nexec "$@"',
        )

    def run(self) -> Run:
        done = subprocess.run(
            ["/bin/bash", str(SCRIPT)],
            env={"PATH": str(self.bin), "TMPDIR": str(self.bin.parent)},
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        calls = self.calls.read_text().splitlines() if self.calls.exists() else []
        return Run(done.returncode, done.stderr.splitlines(), calls)


INSTALL = [
    "apt-get update -qq",
    "apt-get install -y -qq chromium chromium-driver",
]


@pytest.mark.parametrize("browser", ["chromium", "chromium-browser"])
def test_nothing_happens_when_the_browser_and_its_driver_are_there(
    tmp_path: Path, browser: str
) -> None:
    machine = Machine(tmp_path)
    machine.browser(browser, "chromedriver")
    machine.apt_get()
    run = machine.run()
    assert (run.code, run.stderr, run.calls) == (0, [], [])


@pytest.mark.parametrize("present", [(), ("chromium",), ("chromedriver",)])
def test_root_installs_what_is_missing_with_apt_get(
    tmp_path: Path, present: tuple[str, ...]
) -> None:
    machine = Machine(tmp_path)
    machine.browser(*present)
    machine.apt_get()
    run = machine.run()
    assert run.code == 0, run.stderr
    assert run.calls == INSTALL
    assert (machine.bin / "chromium").exists() and (machine.bin / "chromedriver").exists()
    again = machine.run()  # installed: nothing more is asked
    assert (again.code, again.stderr, again.calls) == (0, [], INSTALL)


def test_another_user_installs_through_sudo_without_a_password(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=1000)
    machine.apt_get()
    machine.sudo(without_password=True)
    run = machine.run()
    assert run.code == 0, run.stderr
    assert run.calls == [
        "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
        INSTALL[0],
        "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver",
        INSTALL[1],
    ]


def _one_line_naming_the_packages(run: Run) -> str:
    assert run.code == 1
    (line,) = run.stderr[-1:]
    assert WHAT_TO_INSTALL in line, line
    return line


def test_without_root_or_sudo_it_says_what_to_install(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=1000)
    machine.apt_get()
    machine.sudo(without_password=False)  # sudo would ask for a password: not used
    run = machine.run()
    assert len(run.stderr) == 1 and "not root" in _one_line_naming_the_packages(run)
    assert run.calls == []


def test_without_apt_get_it_says_what_to_install(tmp_path: Path) -> None:
    run = Machine(tmp_path).run()
    assert len(run.stderr) == 1 and "no apt-get" in _one_line_naming_the_packages(run)


def test_when_apt_get_fails_it_says_what_to_install(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    machine.apt_get(works=False)
    run = machine.run()
    line = _one_line_naming_the_packages(run)
    assert "apt-get failed" in line
    assert run.calls == INSTALL
    log = Path(line.split("its output: ", 1)[1].removesuffix(")"))
    assert "Unable to locate package" in log.read_text()


def test_make_test_and_ci_use_the_script() -> None:
    makefile = (ROOT / "Makefile").read_text()
    test_target = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert "scripts/ensure-browser.sh" in test_target.splitlines()[1]  # before ruff and pytest
    assert "scripts/ensure-browser.sh" in (ROOT / ".ci" / "run").read_text()
    assert os.access(SCRIPT, os.X_OK)
