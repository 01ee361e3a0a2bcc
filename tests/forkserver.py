"""Real `sommelier` processes for the tests without paying each one's library imports.

Starting `python -m sommelier.cli` costs 4-5 s of CPU on a small machine, nearly all of it
importing aiogram, openai, SQLAlchemy and alembic; the suite starts some fifty of them. A fork
server, one per test process, imports those third-party libraries once; every process a test
starts is forked from it and then runs exactly what `python -m MODULE ARGS` runs: every module
of the project imported fresh under the process's own environment, working directory, argv and
standard streams, `__main__` executed by runpy, atexit handlers and interpreter shutdown as
usual. Only the third-party libraries come pre-imported.

The test starts a tiny stand-in (`tests/forkserver_shim.py`, the standard library only) in
place of the process: it hands its streams, environment and working directory to the server,
forwards every signal it gets to the forked process, and exits the way that process exited
(the same code, or killed by the same signal). A stand-in killed outright takes its process
with it. `FRESH_PROCESSES=1` in the environment starts plain `python -m` processes instead.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import pkgutil
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SHIM = Path(__file__).with_name("forkserver_shim.py")
# The project's own packages: never imported by the server, always fresh in each process.
PROJECT = frozenset(
    {"core", "repositories", "services", "bot", "api", "web", "sommelier", "prompts", "seeds"}
    | {"bench", "fakes", "tests"}
)
# What the processes of the tests run: their imports are what the server preloads.
ENTRY_POINTS = ("sommelier.cli",)
PRELOAD_PACKAGES = ("sommelier", "bot", "api", "web", "services", "repositories", "core")
# Imported before the probe forks, so that the probe (which must import them too) does not pay
# for them a second time: the heavy libraries among the project's dependencies.
HEAVY = ("aiogram", "openai", "sqlalchemy", "alembic", "aiohttp", "asyncpg", "pydantic_settings")


# --- the server (python -m tests.forkserver SOCKET) -----------------------------------------


def _third_party_modules() -> list[str]:
    """The third-party modules the project's processes import: found in a forked probe that
    imports the whole product, so that the server itself never imports a project module."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the probe
        os.close(read_end)
        try:
            for name in ENTRY_POINTS:
                __import__(name)
            for package in PRELOAD_PACKAGES:
                module = __import__(package)
                for info in pkgutil.walk_packages(module.__path__, package + "."):
                    with contextlib.suppress(Exception):  # needs what is not installed
                        __import__(info.name)
            names = [n for n in sys.modules if n.split(".")[0] not in PROJECT]
            with os.fdopen(write_end, "w") as out:
                json.dump(names, out)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as incoming:
        text = incoming.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else []


def _preload() -> None:
    for name in HEAVY:
        with contextlib.suppress(ImportError):
            __import__(name)
    for name in _third_party_modules():
        if name == "__main__" or name in sys.modules:
            continue
        with contextlib.suppress(Exception):  # another platform's: imported when needed
            __import__(name)
    leaked = sorted(n for n in sys.modules if n.split(".")[0] in PROJECT - {"tests"})
    assert not leaked, f"the fork server imported project modules: {leaked[:5]}"
    assert threading.active_count() == 1, "a library started a thread: forks would lose it"
    # What is preloaded lives as long as any process: out of the collector's sight, or the
    # collection at each process's exit walks (and so copies) the whole inherited heap.
    gc.collect()
    gc.freeze()


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 20, 3)
    while not data.endswith(b"\n"):
        more = conn.recv(1 << 20)
        if not more:
            raise ConnectionError("the stand-in went away mid-request")
        data += more
    return json.loads(data), list(fds)


def _serve(listener: socket.socket) -> tuple[dict, list[int]]:
    """Fork a process per request; returns only in a forked process (with its request)."""
    children: dict[int, socket.socket] = {}
    while True:
        watched = [listener, sys.stdin, *children.values()]
        readable, _, _ = select.select(watched, [], [], 0.02)
        for ready in readable:
            if ready is sys.stdin:  # the test process is gone: so are we
                if not os.read(sys.stdin.fileno(), 1 << 16):
                    for pid in children:
                        _kill(pid)
                    sys.exit(0)
            elif ready is listener:
                conn, _ = listener.accept()
                try:
                    request, fds = _receive(conn)
                except (OSError, ValueError):
                    conn.close()
                    continue
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    conn.close()
                    for other in children.values():
                        other.close()
                    return request, fds
                for fd in fds:
                    os.close(fd)
                children[pid] = conn
                conn.sendall(f"{pid}\n".encode())
            else:  # a stand-in closed its end: it was killed, its process goes with it
                pid = next(p for p, c in children.items() if c is ready)
                if not ready.recv(1 << 16):
                    _kill(pid)
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            conn = children.pop(pid, None)
            if conn is not None:
                with contextlib.suppress(OSError):
                    conn.sendall(f"{status}\n".encode())
                conn.close()


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _become(request: dict, fds: list[int]) -> None:
    """In the forked process: take the stand-in's streams, place and environment."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [request["module"], *request["args"]]


def main() -> None:
    path = sys.argv[1]
    _preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    print("ready", flush=True)
    request, fds = _serve(listener)
    _become(request, fds)
    import runpy

    runpy.run_module(request["module"], run_name="__main__", alter_sys=True)


# --- in the test process ---------------------------------------------------------------------


class ForkServer:
    """One server per test process (started on first use, stopped at the end of the session)."""

    def __init__(self) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="sommelier-fork-"))
        self.socket = self.directory / "server.sock"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.forkserver", str(self.socket)],
            cwd=PROJECT_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if line.strip() != "ready":
            self.process.kill()
            raise RuntimeError(f"the fork server did not start: {line!r}")

    def command(self, module: str) -> list[str]:
        return [sys.executable, "-I", "-S", str(SHIM), str(self.socket), module]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()  # the server kills what is left and exits
        self.process.wait(30)
        self.socket.unlink(missing_ok=True)
        self.directory.rmdir()


_server: ForkServer | None = None


def python_m(module: str) -> list[str]:
    """The command that runs `python -m MODULE` (append its arguments)."""
    global _server
    if os.environ.get("FRESH_PROCESSES"):
        return [sys.executable, "-m", module]
    if _server is None:
        _server = ForkServer()
    return _server.command(module)


def stop() -> None:
    global _server
    if _server is not None:
        _server.close()
        _server = None


if __name__ == "__main__":
    main()
