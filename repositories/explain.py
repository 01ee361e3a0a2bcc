"""The planner's row estimate for a query, without running it (EXPLAIN, values still bound)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Executable, Select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement


class _Explain(Executable, ClauseElement):
    inherit_cache = False  # compiled afresh each time: the wrapped statement varies

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement


@compiles(_Explain, "postgresql")
def _compile_explain(element: _Explain, compiler: SQLCompiler, **kw: Any) -> str:
    return "EXPLAIN (FORMAT JSON) " + compiler.process(element.statement, **kw)


async def estimated_rows(session: AsyncSession, statement: Select[Any]) -> float:
    """How many rows the planner expects `statement` to return (planning only)."""
    plan = (await session.execute(_Explain(statement))).scalar_one()
    if isinstance(plan, str):  # a connection without a json codec hands the text over
        plan = json.loads(plan)
    return float(plan[0]["Plan"]["Plan Rows"])
