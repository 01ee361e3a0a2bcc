"""Validate a catalog seed file completely before anything is written."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.domain import WineRecord
from core.errors import CatalogFileError

DEFAULT_SEED_FILE = Path(__file__).resolve().parent / "wines.json"
MAX_SEED_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class RecordProblem:
    index: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"record #{self.index}: {self.field}: {self.message}"


def _read_json(path: Path) -> Any:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CatalogFileError(f"cannot read {path}: {exc.strerror}") from None
    if size > MAX_SEED_BYTES:
        raise CatalogFileError(
            f"{path} is {size / 2**20:.1f} MB; the limit is {MAX_SEED_BYTES // 2**20} MB"
        )
    try:
        raw = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CatalogFileError(f"{path} is not valid UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CatalogFileError(
            f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise CatalogFileError(f"{path} is nested too deeply to be a list of wines") from None


def parse_records(data: Any) -> list[WineRecord]:
    if not isinstance(data, list):
        raise CatalogFileError("the seed file must hold a JSON array of wine records")
    records: list[WineRecord] = []
    problems: list[RecordProblem] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            problems.append(RecordProblem(index, "(record)", "must be a JSON object"))
            continue
        try:
            record = WineRecord.model_validate(item)
        except ValidationError as exc:
            for err in exc.errors():
                field = ".".join(str(p) for p in err["loc"]) or "(record)"
                problems.append(RecordProblem(index, field, err["msg"]))
            continue
        if record.slug in seen:
            problems.append(
                RecordProblem(index, "slug", f"duplicate of record #{seen[record.slug]}")
            )
            continue
        seen[record.slug] = index
        records.append(record)
    if problems:
        bad = len({p.index for p in problems})
        raise CatalogFileError(
            f"{bad} of {len(data)} records are invalid; nothing was written", problems
        )
    if not records:
        raise CatalogFileError("the seed file holds no records; nothing was written")
    return records


def load_seed_file(path: Path = DEFAULT_SEED_FILE) -> list[WineRecord]:
    return parse_records(_read_json(path))
