"""What every reader produces: raw text per canonical field, and what a problem looks like."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RawRow:
    """One record as the source gave it: `row` is 1-based (a CSV/XLSX line or the offer's
    position), `id` the offer id / SKU when there is one."""

    row: int
    id: str | None
    fields: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    row: int | None
    id: str | None
    field: str
    problem: str

    def as_dict(self) -> dict[str, object]:
        return {"row": self.row, "id": self.id, "field": self.field, "problem": self.problem}

    def __str__(self) -> str:
        where = f"row {self.row}" if self.row is not None else "source"
        if self.id:
            where += f" (id {self.id})"
        return f"{where}: {self.field}: {self.problem}"
