"""One vector engine everywhere: the embedded server runs PostgreSQL 16 with pgvector 0.8, like
the Docker image."""

from __future__ import annotations

from sqlalchemy import text

from services.app.runtime import Runtime


def _major_minor(version: str) -> tuple[int, int]:
    major, minor, *_ = (int(p) for p in version.split("."))
    return major, minor


async def _vector_version(rt: Runtime) -> str:
    async with rt.engine.connect() as conn:
        return str(
            await conn.scalar(text("SELECT extversion FROM pg_extension WHERE extname = 'vector'"))
        )


async def test_the_embedded_server_runs_postgresql_16_with_pgvector_0_8(runtime: Runtime) -> None:
    async with runtime.engine.connect() as conn:
        server = int(await conn.scalar(text("SHOW server_version_num")) or 0)
    assert server // 10000 == 16
    assert _major_minor(await _vector_version(runtime)) >= (0, 8)
