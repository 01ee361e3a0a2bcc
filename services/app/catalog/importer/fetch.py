"""Read a catalog source (a path or an http(s) URL) into memory, never more than the cap."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from core.errors import CatalogFileError

MAX_SOURCE_BYTES = 50 * 1024 * 1024
FETCH_TIMEOUT_SECONDS = 60.0


async def read_source(source: str, limit: int = MAX_SOURCE_BYTES) -> bytes:
    if source.startswith(("http://", "https://")):
        return await _download(source, limit)
    try:
        data = await asyncio.to_thread(_read_file, Path(source), limit)
    except OSError as exc:
        raise CatalogFileError(f"cannot read {source}: {exc.strerror}") from None
    if len(data) > limit:
        raise CatalogFileError(f"{source} is larger than {limit // 2**20} MB; nothing was written")
    return data


def _read_file(path: Path, limit: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(limit + 1)


async def _download(url: str, limit: int) -> bytes:
    timeout = aiohttp.ClientTimeout(total=FETCH_TIMEOUT_SECONDS)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, allow_redirects=True, max_redirects=5) as response,
        ):
            if response.status != 200:
                raise CatalogFileError(f"the feed URL answered HTTP {response.status}")
            if (response.content_length or 0) > limit:
                raise CatalogFileError(f"the feed is larger than {limit // 2**20} MB")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.content.iter_chunked(64 * 1024):
                size += len(chunk)
                if size > limit:
                    raise CatalogFileError(f"the feed is larger than {limit // 2**20} MB")
                chunks.append(chunk)
            return b"".join(chunks)
    except (aiohttp.ClientError, TimeoutError) as exc:
        raise CatalogFileError(f"cannot download the feed: {type(exc).__name__}") from None
