"""Our own JSON: an array of wine objects (the demo seed's schema, or any tolerant subset)."""

from __future__ import annotations

import json

from core.errors import CatalogFileError
from services.app.catalog.importer.mapping import FieldMapper
from services.app.catalog.importer.rows import RawRow


def read_json(data: bytes, mapper: FieldMapper) -> list[RawRow]:
    try:
        items = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise CatalogFileError(f"the JSON file is not valid UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise CatalogFileError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise CatalogFileError("the JSON is nested too deeply to be a list of wines") from None
    if not isinstance(items, list):
        raise CatalogFileError("the JSON file must hold an array of wine objects")
    rows: list[RawRow] = []
    for index, item in enumerate(items, start=1):
        row = RawRow(row=index, id=None)
        if not isinstance(item, dict):
            row.fields["__invalid__"] = "must be a JSON object"
            rows.append(row)
            continue
        for key, value in item.items():
            field = mapper.field(str(key))
            if field is None or value is None:
                continue
            if isinstance(value, list):
                row.fields[field] = "\n".join(str(v) for v in value)
            else:
                row.fields[field] = str(value)
        row.id = row.fields.get("external_id") or row.fields.get("slug")
        rows.append(row)
    return rows
