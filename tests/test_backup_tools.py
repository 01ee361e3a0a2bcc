"""Which pg_dump/pg_restore a backup uses, and what it says when none will do."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import BackupError
from services.app.ops.backup import backup, pick_tool
from services.app.runtime import Runtime


def fake_tool(directory: Path, name: str, version: str) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    tool = directory / name
    tool.write_text(f"#!/bin/sh\necho '{name} (PostgreSQL) {version}'\n")
    tool.chmod(0o755)
    return str(tool)


async def test_a_tool_older_than_the_server_is_passed_over_for_a_new_enough_one(
    tmp_path: Path,
) -> None:
    debian = fake_tool(tmp_path / "debian", "pg_dump", "15.8 (Debian 15.8-0+deb12u1)")
    wheel = fake_tool(tmp_path / "wheel", "pg_dump", "16.14")
    newer = fake_tool(tmp_path / "newer", "pg_dump", "17.2")
    assert await pick_tool("pg_dump", 16, [debian, wheel]) == wheel
    assert await pick_tool("pg_dump", 16, [newer, wheel]) == newer


async def test_the_message_names_the_major_version_needed(tmp_path: Path) -> None:
    debian = fake_tool(tmp_path / "debian", "pg_restore", "15.8")
    with pytest.raises(BackupError) as older:
        await pick_tool("pg_restore", 16, [debian])
    assert f"{debian} is version 15" in str(older.value)
    assert "pg_restore of PostgreSQL 16 or newer is needed" in str(older.value)
    assert "install the PostgreSQL 16 client tools" in str(older.value)
    with pytest.raises(BackupError) as missing:
        await pick_tool("pg_dump", 16, [])
    assert "pg_dump is not installed: pg_dump of PostgreSQL 16 or newer is needed" in str(
        missing.value
    )


async def test_a_backup_directory_that_cannot_be_written_is_named(
    seeded: Runtime, tmp_path: Path
) -> None:
    """The Docker image's user has no home: a BACKUP_DIR under one fails with a message, and
    no file is left behind (a plain file stands in for the unwritable directory: the tests
    may run as root, who may write anywhere)."""
    blocker = tmp_path / "home"
    blocker.write_text("not a directory")
    with pytest.raises(BackupError, match=r"cannot write backups to .*home/backups.*BACKUP_DIR"):
        await backup(seeded, blocker / "backups" / "one.dump")
    written = tmp_path / "backups" / "one.dump"
    report = await backup(seeded, written)
    assert written.is_file() and report.counts["wines"] > 0
