"""The `sommelier` console command, run for real in subprocesses on a private embedded database.

Each run is a process of its own (forked from tests/forkserver.py, which spares it the library
imports) and starts the embedded PostgreSQL when it needs the database, so steps are combined
and independent runs go in parallel.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from repositories.migrations import head_revision
from seeds.loader import DEFAULT_SEED_FILE
from tests.forkserver import python_m

pytestmark = pytest.mark.slow  # subprocesses / the bench harness: `pytest -m "not slow"` skips

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEED_COUNT = len(json.loads(DEFAULT_SEED_FILE.read_text(encoding="utf-8")))
_SCRUBBED = ("LLM_", "EMBEDDING_", "TELEGRAM_", "DATABASE_", "ADMIN_", "WEBHOOK_", "DATA_DIR")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"exit {self.code}\nstdout:\n{self.out}\nstderr:\n{self.err}"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One embedded database for the module, created by the command itself."""
    return tmp_path_factory.mktemp("cli-data")


async def sommelier(data_dir: Path, *args: str, **env: str) -> Run:
    """`python -m sommelier.cli ARGS` with only DATA_DIR (plus `env`) configured, no LLM key."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED)}
    environment.update(PYTHONPATH=str(PROJECT_ROOT), DATA_DIR=str(data_dir), **env)
    process = await asyncio.create_subprocess_exec(
        *python_m("sommelier.cli"),
        *args,
        cwd=data_dir,  # no developer .env can be picked up from here
        env=environment,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return Run(process.returncode, out.decode(), err.decode())


def _bad_seed_file(directory: Path) -> Path:
    """One good new wine, one changed wine and one broken record (index 2)."""
    records = json.loads(DEFAULT_SEED_FILE.read_text(encoding="utf-8"))
    good_new = {**records[0], "slug": "brand-new-wine", "name": "Brand New Wine"}
    changed = {**records[1], "price_rub": records[1]["price_rub"] + 1}
    broken = {**records[2], "slug": "broken-wine", "sweetness": "very", "acidity": "high"}
    path = directory / "bad.json"
    path.write_text(json.dumps([good_new, changed, broken]), encoding="utf-8")
    return path


def check_bad_seed(run: Run) -> None:
    assert run.code != 0, str(run)
    assert "record #2: sweetness" in run.err and "record #2: acidity" in run.err, str(run)
    assert "nothing was written" in run.err


def check_ask_json(run: Run) -> None:
    assert run.code == 0, str(run)
    answer = json.loads(run.out)  # exactly one JSON document on stdout
    assert isinstance(answer, dict) and len(run.out.strip().splitlines()) == 1
    assert answer["path"] == "offline"
    assert answer["llm_calls"] == 0 and answer["tools_called"] == []
    assert answer["intro"] and answer["closing"]
    assert len(answer["wines"]) == 3
    for wine in answer["wines"]:
        assert set(wine) >= {"id", "name", "price_rub", "wine_type", "sweetness", "why"}
        assert (wine["wine_type"], wine["sweetness"]) == ("red", "dry")
        assert wine["price_rub"] <= 2000 and wine["why"]
    assert len({wine["id"] for wine in answer["wines"]}) == 3


def check_db_url(run: Run) -> None:
    assert run.code == 0, str(run)
    assert "secret" not in run.out + run.err
    assert "u:***@localhost/x" in run.out


def check_bad_setting(run: Run) -> None:
    assert run.code != 0, str(run)
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and "EMBEDDING_DIM" in lines[0], str(run)
    assert run.out == ""


async def test_the_command_line_from_an_empty_data_dir(data_dir: Path, tmp_path: Path) -> None:
    head = head_revision()

    run = await sommelier(data_dir, "migrate")
    assert run.code == 0, str(run)
    assert f"database at revision {head}" in run.out

    run = await sommelier(data_dir, "seed")
    assert run.code == 0, str(run)
    assert f"{SEED_COUNT} inserted, 0 updated, 0 unchanged" in run.out

    # Independent of each other: run together.
    bad_seed, asked, db_url, bad_setting, damaged = await asyncio.gather(
        sommelier(data_dir, "seed", "--file", str(_bad_seed_file(tmp_path))),
        sommelier(data_dir, "ask", "--json", "красное сухое к стейку до 2000"),
        sommelier(data_dir, "db-url", DATABASE_URL="postgresql://u:secret@localhost/x"),
        sommelier(data_dir, "migrate", EMBEDDING_DIM="abc"),
        sommelier(_damaged_data_dir(tmp_path), "migrate"),
    )
    check_bad_seed(bad_seed)
    check_ask_json(asked)
    check_db_url(db_url)
    check_bad_setting(bad_setting)
    check_damaged_data_dir(damaged)

    # Nothing of the bad file was written: the bundled file is still entirely unchanged.
    run = await sommelier(data_dir, "seed")
    assert run.code == 0, str(run)
    assert (
        f"0 inserted, 0 updated, {SEED_COUNT} unchanged; catalog holds {SEED_COUNT} wines"
        in run.out
    )

    run = await sommelier(data_dir, "migrate", "--revision", "base")
    assert run.code == 0, str(run)
    assert "database at revision base" in run.out

    run = await sommelier(data_dir, "migrate")
    assert run.code == 0, str(run)
    assert f"database at revision {head}" in run.out


def _damaged_data_dir(tmp_path: Path) -> Path:
    """A data dir whose database lost its files (a half-copied volume): only PG_VERSION."""
    data_dir = tmp_path / "damaged"
    (data_dir / "pg").mkdir(parents=True, mode=0o700)
    (data_dir / "pg" / "PG_VERSION").write_text("16\n")
    return data_dir


def check_damaged_data_dir(run: Run) -> None:
    """The owner is told what PostgreSQL itself said and where its log is, not pg_ctl's exit
    status."""
    assert run.code != 0, str(run)
    last = run.err.strip().splitlines()[-1]
    assert last.startswith("sommelier: could not start the embedded PostgreSQL in"), str(run)
    assert "postgresql.conf" in last and "the server's log:" in last, str(run)
    assert "returned non-zero exit status" not in last, str(run)


def _postgres_running_on(pgdata: Path) -> bool:
    import psutil

    for proc in psutil.process_iter(attrs=["name", "cmdline"]):
        cmdline = proc.info.get("cmdline") or []
        if proc.info.get("name") == "postgres" and str(pgdata) in " ".join(cmdline):
            return True
    return False


async def test_processes_on_one_data_dir_share_the_server_and_stop_it(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    runs = await asyncio.gather(*(sommelier(shared, "catalog") for _ in range(3)))
    for run in runs:
        assert run.code == 0, str(run)
        assert f"catalog holds {SEED_COUNT} wines" in run.out
    # Seeded exactly once between them, and the data directory is still healthy.
    run = await sommelier(shared, "seed")
    assert f"0 inserted, 0 updated, {SEED_COUNT} unchanged" in run.out, str(run)
    assert not _postgres_running_on((shared / "pg").resolve())


async def test_the_terminal_chat_shows_only_the_conversation(data_dir: Path) -> None:
    """`sommelier chat` (what `make run` starts without a token): the answer on the terminal,
    no log line between the question and the answer; the log in DATA_DIR/logs/chat.log."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED)}
    environment.update(PYTHONPATH=str(PROJECT_ROOT), DATA_DIR=str(data_dir))
    process = await asyncio.create_subprocess_exec(
        *python_m("sommelier.cli"),
        "chat",
        cwd=data_dir,
        env=environment,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(
        process.communicate("белое сухое к рыбе до 1500\n\n".encode()), timeout=120
    )
    text, errors = out.decode(), err.decode()
    assert process.returncode == 0, errors
    log_file = data_dir / "logs" / "chat.log"
    assert f"(журнал: {log_file})" in errors
    assert [line for line in errors.splitlines() if line.strip()] == [f"(журнал: {log_file})"]
    assert "Сомелье слушает" in text and "₽" in text and "До встречи" in text
    for marker in (" INFO ", " WARNING ", '"event": "answer"', "sommelier.answers"):
        assert marker not in text, text
    assert '"event": "answer"' in log_file.read_text(encoding="utf-8")


def _written_whole(dump: Path) -> bool:
    """The backup is there, not empty, and no `.partial` file is left beside it."""
    return dump.stat().st_size > 0 and not list(dump.parent.glob("*.partial"))


async def test_backup_restore_embed_and_serve_from_the_command_line(
    data_dir: Path, tmp_path: Path
) -> None:
    from aiohttp import ClientSession

    from fakes.openai_server import FakeOpenAIServer
    from tests.serving import free_port

    await sommelier(data_dir, "catalog")  # migrated and seeded, whatever ran before
    dump = tmp_path / "owner.dump"
    run = await sommelier(data_dir, "backup", str(dump))
    assert run.code == 0, str(run)
    assert str(dump) in run.out and "wines" in run.out, str(run)
    assert _written_whole(dump)

    run = await sommelier(data_dir, "restore", str(dump))  # the database holds rows
    assert run.code != 0 and "--force" in run.err, str(run)
    run = await sommelier(data_dir, "restore", str(dump), "--force")
    assert run.code == 0 and "restored" in run.out, str(run)
    assert f"wines {SEED_COUNT}" in run.out or f"wines: {SEED_COUNT}" in run.out, str(run)

    async with FakeOpenAIServer(api_key="cli-key", embedding_dim=1536) as llm:
        run = await sommelier(
            data_dir, "embed", EMBEDDING_API_KEY="cli-key", EMBEDDING_BASE_URL=llm.base_url
        )
        assert run.code == 0, str(run)
        assert f"embedded {SEED_COUNT} wines" in run.out and "0 without" in run.out, str(run)
        assert llm.embedding_requests

    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED)}
    environment.update(PYTHONPATH=str(PROJECT_ROOT), DATA_DIR=str(data_dir))
    server = await asyncio.create_subprocess_exec(
        *python_m("sommelier.cli"), "serve", "--host", "127.0.0.1",
        "--port", str(port), cwd=data_dir, env=environment,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        status = 0
        async with ClientSession() as http:
            for _ in range(600):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as resp:
                        status = resp.status
                        break
                except OSError:
                    await asyncio.sleep(0.1)
        assert status == 200
    finally:
        server.terminate()
        code = await asyncio.wait_for(server.wait(), 60)
    assert code == 0
