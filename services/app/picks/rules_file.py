"""The shop's boost and bury rules as a file (docs/shop-picks.md): CSV with the header
`action,field,value,starts_on,ends_on,note`, or a JSON array of objects with those keys.

Reading checks every row and names each bad one (its line or index and why); one bad row
refuses the whole file, so a file half taken never replaces the rules in force."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any, Literal

from core.errors import PickRuleError
from core.shop_picks import PickRule, make_rule
from core.spreadsheet import FORMULA_START, csv_text

COLUMNS = ("action", "field", "value", "starts_on", "ends_on", "note")
Format = Literal["csv", "json"]
MAX_RULES = 1000
MAX_PROBLEMS = 20


def _unquoted(cell: str) -> str:
    """A cell our own CSV export made safe for a spreadsheet («'-5») reads as it was."""
    if cell.startswith("'") and cell[1:].lstrip().startswith(FORMULA_START):
        return cell[1:]
    return cell


def _rows_from_csv(text: str) -> list[tuple[str, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    missing = [c for c in ("action", "field", "value") if c not in header]
    if missing:
        raise PickRuleError(
            f"the rules file has no column {', '.join(missing)}; "
            f"its header must be: {','.join(COLUMNS)}"
        )
    reader.fieldnames = header
    rows = []
    for row in reader:
        cells = {k: _unquoted((v or "").strip()) for k, v in row.items() if k in COLUMNS}
        rows.append((f"line {reader.line_num}", cells))
    return rows


def _rows_from_json(text: str) -> list[tuple[str, dict[str, Any]]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PickRuleError(f"the rules file is not JSON: {exc.msg} (line {exc.lineno})") from None
    if not isinstance(data, list):
        raise PickRuleError("the rules file must be a JSON array of rule objects")
    rows = []
    for index, item in enumerate(data):
        if not isinstance(item, dict):
            raise PickRuleError(f"rule {index}: not an object")
        unknown = sorted(set(item) - set(COLUMNS))
        if unknown:
            raise PickRuleError(f"rule {index}: unknown keys {', '.join(unknown)}")
        rows.append((f"rule {index}", item))
    return rows


def parse_rules(text: str, fmt: Format) -> list[PickRule]:
    """Every rule of the file, or `PickRuleError` listing each bad row."""
    rows = _rows_from_json(text) if fmt == "json" else _rows_from_csv(text)
    if len(rows) > MAX_RULES:
        raise PickRuleError(f"the rules file holds {len(rows)} rules; at most {MAX_RULES}")
    rules: list[PickRule] = []
    problems: list[str] = []
    for where, cells in rows:
        try:
            rules.append(make_rule(*(cells.get(c) for c in COLUMNS)))
        except PickRuleError as exc:
            problems.append(f"{where}: {exc}")
    if problems:
        shown = problems[:MAX_PROBLEMS]
        more = len(problems) - len(shown)
        raise PickRuleError(
            f"{len(problems)} bad rule(s), nothing changed:\n  "
            + "\n  ".join(shown)
            + (f"\n  … and {more} more" if more else "")
        )
    return rules


def format_rules(rules: Sequence[PickRule], fmt: Format) -> str:
    """The rules as a file `parse_rules` reads back."""
    rows = [
        [
            r.action,
            r.field,
            r.value,
            r.starts_on.isoformat() if r.starts_on else None,
            r.ends_on.isoformat() if r.ends_on else None,
            r.note,
        ]
        for r in rules
    ]
    if fmt == "json":
        items = [{k: v for k, v in zip(COLUMNS, row, strict=True) if v is not None} for row in rows]
        return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
    return csv_text(COLUMNS, rows)
