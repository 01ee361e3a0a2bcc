"""The bundled catalog and the seed loader: validated whole before anything is written."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.domain import Sweetness, WineType
from core.errors import CatalogFileError
from core.settings import Settings
from repositories.wines import WineRepository
from seeds.loader import DEFAULT_SEED_FILE, MAX_SEED_BYTES, load_seed_file
from services.app.runtime import Runtime
from sommelier import cli
from tests.conftest import make_settings

RAW_CATALOG: list[dict[str, Any]] = json.loads(DEFAULT_SEED_FILE.read_text(encoding="utf-8"))


def test_the_bundled_catalog_is_valid_and_covers_the_range() -> None:
    records = load_seed_file(DEFAULT_SEED_FILE)
    assert len(records) == len(RAW_CATALOG) >= 60

    types = Counter(r.wine_type for r in records)
    assert types[WineType.red] >= 6
    assert types[WineType.white] >= 6
    assert types[WineType.rose] >= 4
    assert types[WineType.sparkling] >= 6
    assert types[WineType.dessert] + types[WineType.fortified] >= 3
    assert {r.sweetness for r in records} == set(Sweetness)

    prices = sorted(r.price_rub for r in records)
    assert 500 <= prices[0] <= 800, "an everyday bottle around 600 ₽"
    assert 15_000 <= prices[-1] <= 25_000, "a special bottle around 20 000 ₽"

    countries = {r.country for r in records}
    assert len(countries) >= 12
    assert "Россия" in countries


def test_the_bundled_catalog_is_usable_for_recommendations() -> None:
    records = load_seed_file(DEFAULT_SEED_FILE)
    # Names identify wines when a model writes a name instead of an id.
    assert len({r.name.lower() for r in records}) == len(records)
    for record in records:
        assert record.food_pairings, f"{record.slug} has no food pairings for the cards"
        assert record.description.split(". ")[0].strip(), record.slug


# ---- bad files ----------------------------------------------------------------------------------

VALID = RAW_CATALOG[0]
NEW = {**VALID, "slug": "brand-new-wine", "name": "Brand New Wine"}


def _without(record: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in names}


def _json(data: Any) -> Callable[[Path], None]:
    return lambda path: path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def _bytes(data: bytes) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(data)


def _oversized(path: Path) -> None:
    with path.open("wb") as file:  # sparse: no disk is spent on the size
        file.truncate(MAX_SEED_BYTES + 1)


def _fifty_megabytes(path: Path) -> None:
    """A real 50 MB catalog: valid records all the way (the size alone must stop it)."""
    record = json.dumps({**NEW, "description": "Описание. " * 300}, ensure_ascii=False)
    count = 50 * 2**20 // len(record.encode()) + 1
    with path.open("w", encoding="utf-8") as file:
        file.write("[" + ",".join([record] * count) + "]")


BAD_FILES = [
    pytest.param(
        _json([NEW, {**VALID, "slug": "second", "price_rub": "дорого", "body": 9}]),
        ["1 of 2 records", "record #1: price_rub", "record #1: body"],
        id="wrong-types",
    ),
    pytest.param(
        _json([NEW, {**NEW, "name": "Другое имя"}]),
        ["record #1: slug: duplicate of record #0"],
        id="duplicate-slug",
    ),
    pytest.param(
        _json([NEW, _without({**VALID, "slug": "x"}, "name", "wine_type")]),
        ["record #1: name: Field required", "record #1: wine_type: Field required"],
        id="missing-fields",
    ),
    pytest.param(
        _json([NEW, {**VALID, "slug": "y", "colour": "красный"}]),
        ["record #1: colour"],
        id="unknown-field",
    ),
    pytest.param(
        _json([NEW, "не объект"]), ["record #1: (record): must be a JSON object"], id="not-object"
    ),
    pytest.param(_json({"wines": [NEW]}), ["must hold a JSON array"], id="not-a-list"),
    pytest.param(_json([]), ["holds no records"], id="empty-list"),
    pytest.param(
        _bytes(b'[{"slug": "caf\xe9"}]'), ["not valid UTF-8", "byte 14"], id="invalid-utf8"
    ),
    pytest.param(
        _bytes(b'[\n  {"slug": "a",}\n]'), ["not valid JSON", "line 2"], id="invalid-json"
    ),
    pytest.param(_oversized, ["the limit is 20 MB"], id="over-the-size-limit"),
    pytest.param(_fifty_megabytes, ["50.0 MB", "the limit is 20 MB"], id="a-50-mb-file"),
    pytest.param(
        _bytes(b"[" * 100_000 + b"]" * 100_000), ["nested too deeply"], id="deeply-nested"
    ),
    pytest.param(
        _json([NEW, {**VALID, "slug": "z", "name": "Вино\u0000 с NUL"}]),
        ["record #1: name", "control characters"],
        id="control-characters",
    ),
]


def database_settings(runtime: Runtime) -> Settings:
    """Settings whose DATABASE_URL is the test database, for the real CLI handlers."""
    return make_settings(database_url=runtime.location.url.render_as_string(hide_password=False))


async def catalog_state(runtime: Runtime) -> tuple[int, set[str]]:
    async with runtime.sessions() as session:
        wines = await WineRepository(session).search(limit=1000)
    return len(wines), {f"{w.slug}:{w.price_rub}" for w in wines}


@pytest.mark.parametrize(("write", "reported"), BAD_FILES)
async def test_a_bad_seed_file_is_reported_and_nothing_is_written(
    seeded: Runtime,
    tmp_path: Path,
    write: Callable[[Path], None],
    reported: list[str],
) -> None:
    path = tmp_path / "wines.json"
    write(path)
    before = await catalog_state(seeded)

    with pytest.raises(CatalogFileError) as caught:
        await cli.cmd_seed(argparse.Namespace(file=str(path)), database_settings(seeded))

    message = str(caught.value)
    for fragment in reported:
        assert fragment in message, message
    assert await catalog_state(seeded) == before


async def test_seeding_twice_changes_nothing_the_second_time(
    clean_db: Runtime, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = database_settings(clean_db)
    total = len(RAW_CATALOG)
    seed = argparse.Namespace(file=str(DEFAULT_SEED_FILE))

    assert await cli.cmd_seed(seed, settings) == 0
    assert f"{total} inserted, 0 updated, 0 unchanged" in capsys.readouterr().out
    assert await cli.cmd_seed(seed, settings) == 0
    assert f"0 inserted, 0 updated, {total} unchanged" in capsys.readouterr().out

    # A price change in the file is an update of that one wine, not a new one.
    changed = [dict(r) for r in RAW_CATALOG]
    changed[3]["price_rub"] = changed[3]["price_rub"] + 100
    path = tmp_path / "changed.json"
    _json(changed)(path)
    assert await cli.cmd_seed(argparse.Namespace(file=str(path)), settings) == 0
    out = capsys.readouterr().out
    assert f"0 inserted, 1 updated, {total - 1} unchanged; catalog holds {total} wines" in out
    _, stored = await catalog_state(clean_db)
    assert f"{changed[3]['slug']}:{changed[3]['price_rub']:.2f}" in stored
