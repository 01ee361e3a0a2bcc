"""Backup and restore of the whole database with PostgreSQL's own tools (custom format).

`pg_dump`/`pg_restore` must be at least as new as the server's major version (an older one
cannot dump a newer server). The embedded server's wheel ships its own, used first with the
embedded server; with DATABASE_URL the tool on PATH comes first (the Docker image puts the
wheel's PostgreSQL 16 tools there), then the wheel's when it is installed. When none is new
enough, the message names the major version needed. A dump is one consistent snapshot, so the
bot keeps serving while it runs. A restore runs in one transaction (`--single-transaction`):
it lands whole or not at all; then the schema is migrated to head, so a backup of an older
version restores too.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

from core.errors import BackupError
from repositories.database import DatabaseLocation, embedded_bin_dir
from repositories.migrations import migrate
from repositories.ownership import table_counts, table_counts_on
from repositories.wines import forget_catalog_caches
from services.app.runtime import Runtime

BACKUP_SUFFIX = ".dump"
_VERSION = re.compile(r"(\d+)(?:\.(\d+))?")


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size_bytes: int
    counts: dict[str, int]
    seconds: float

    def lines(self) -> list[str]:
        rows = ", ".join(f"{t} {n}" for t, n in self.counts.items() if t != "alembic_version")
        return [f"{self.path} ({self.size_bytes / 2**20:.1f} MB, {self.seconds:.1f} s)", rows]


def default_backup_path(directory: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return directory / f"sommelier-{stamp}{BACKUP_SUFFIX}"


async def backup(rt: Runtime, path: Path) -> BackupReport:
    started = time.monotonic()
    _writable_directory(path.parent)
    partial = path.with_suffix(path.suffix + ".partial")
    tool = await _tool(rt, "pg_dump")
    # One snapshot for the dump and the row counts it reports, however busy the bot is.
    async with rt.maintenance.connect() as conn:
        await conn.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
        snapshot = str(await conn.scalar(text("SELECT pg_export_snapshot()")))
        counts = await table_counts_on(conn)
        await _run(
            tool,
            "--format=custom",
            f"--snapshot={snapshot}",
            f"--file={partial}",
            _dsn(rt.location),
        )
        await conn.rollback()
    partial.replace(path)  # a backup file is whole or absent
    return BackupReport(path, _size(path), counts, time.monotonic() - started)


async def restore(rt: Runtime, path: Path, *, force: bool = False) -> BackupReport:
    started = time.monotonic()
    if not _is_file(path):
        raise BackupError(f"no backup file at {path}")
    counts = await _counts(rt)
    stored = sum(n for t, n in counts.items() if t != "alembic_version")
    if stored and not force:
        raise BackupError(
            f"the database is not empty ({stored} rows); restore with --force to replace it"
        )
    tool = await _tool(rt, "pg_restore")
    await _run(
        tool,
        "--single-transaction",
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        f"--dbname={_dsn(rt.location)}",
        str(path),
    )
    await migrate(rt.maintenance, "head", rt.settings.embedding_dim)
    forget_catalog_caches()
    return BackupReport(path, _size(path), await _counts(rt), time.monotonic() - started)


def rotate(directory: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest backups in `directory`; returns what was deleted."""
    backups = sorted(directory.glob(f"sommelier-*{BACKUP_SUFFIX}"), reverse=True)
    for old in backups[keep:]:
        old.unlink(missing_ok=True)
    return backups[keep:]


def _size(path: Path) -> int:
    return path.stat().st_size


def _is_file(path: Path) -> bool:
    return path.is_file()


async def _counts(rt: Runtime) -> dict[str, int]:
    async with rt.maintenance_sessions() as session:
        return await table_counts(session)


def _dsn(location: DatabaseLocation) -> str:
    return location.url.set(drivername="postgresql").render_as_string(hide_password=False)


def _writable_directory(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".sommelier-write-test"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise BackupError(
            f"cannot write backups to {directory} ({exc.strerror or type(exc).__name__}): "
            "set BACKUP_DIR to a directory this user may write"
        ) from None


async def _tool(rt: Runtime, name: str) -> str:
    """A `pg_dump`/`pg_restore` at least as new as the server (see the module docstring)."""
    async with rt.maintenance.connect() as conn:
        server = int(await conn.scalar(text("SHOW server_version_num")) or 0) // 10000
    bundled = _bundled(name)
    on_path = shutil.which(name)
    order = [bundled, on_path] if rt.location.embedded else [on_path, bundled]
    return await pick_tool(name, server, [t for t in order if t is not None])


def _bundled(name: str) -> str | None:
    """The embedded server's own tool, when its wheel is installed."""
    try:
        tool = embedded_bin_dir() / name
    except ImportError:
        return None
    return str(tool) if tool.is_file() else None


async def pick_tool(name: str, server: int, candidates: list[str]) -> str:
    """The first of `candidates` whose major version is at least `server`'s."""
    found: list[str] = []
    for tool in dict.fromkeys(candidates):
        try:
            match = _VERSION.search(await _run(tool, "--version"))
        except (BackupError, OSError):
            match = None
        client = int(match.group(1)) if match else 0
        if client >= server:
            return tool
        found.append(f"{tool} is version {client or 'unknown'}")
    needed = f"{name} of PostgreSQL {server} or newer is needed (the server's major version)"
    if not found:
        raise BackupError(
            f"{name} is not installed: {needed}; install the PostgreSQL {server} client tools"
        )
    raise BackupError(f"{'; '.join(found)}: {needed}; install the PostgreSQL {server} client tools")


async def _run(*command: str) -> str:
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    if process.returncode != 0:
        message = err.decode(errors="replace").strip().splitlines()
        tool = Path(command[0]).name
        raise BackupError(f"{tool} failed: {message[-1] if message else process.returncode}")
    return out.decode(errors="replace")
