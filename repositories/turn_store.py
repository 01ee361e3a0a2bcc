"""A turn stored in one statement: its messages, the answer's row, its request facts and the
plan of its delivery, standing or falling together (what it starts from is read by
repositories/turns.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from core.recommendation import Recommendation
from repositories.facts import FACT_COLUMNS, fact_insert, fact_params
from repositories.statements import Executor, driver_fetchrow
from repositories.turns import Thread

# The whole turn in one statement, written for the driver (no SQL construct to build and compile
# per turn): the answer's row ($1-$4), the plan of its delivery in the update's ledger row
# ($5-$7, when the caller has one), its request facts, and, when the turn is remembered, its
# messages with the conversation's own write: its new row (ending the person's open one) or its
# activity mark. The messages go in as arrays, in the turn's order (ids follow `ord`), each with
# the wines it shows (an array literal, or NULL): the answer's last message, and the page's wine
# on its look at the page. Nothing is written unless the plan is (`held`): an update taken
# over meanwhile is the other process's to answer.
_HELD = "(SELECT ok FROM held)"
_PLAN = (
    "planned AS (UPDATE telegram_updates SET plan = CAST($5 AS jsonb)"
    " WHERE update_id = $6 AND lease_owner = $7 RETURNING 1), "
    "held AS (SELECT CAST($6 AS bigint) IS NULL OR EXISTS (SELECT FROM planned) AS ok)"
)
_ANSWER = (
    "answer AS (INSERT INTO answers (user_id, path, llm_calls, duration_ms)"
    f" SELECT $1, $2, $3, $4 WHERE {_HELD})"
)
_FACT_FIRST = 8
_MESSAGES_FIRST = _FACT_FIRST + len(FACT_COLUMNS)
_FACT = f"fact AS ({fact_insert(_FACT_FIRST, _HELD)})"


def _messages(first: int) -> str:
    """The messages' INSERT into the CTE `conv`'s conversation; parameters `first` to
    `first + 4`."""
    role, content, calls, call_id, wines = (f"${first + n}" for n in range(5))
    return (
        "added AS (INSERT INTO messages"
        " (conversation_id, role, content, tool_calls, tool_call_id, wine_ids) "
        "SELECT conv.id, m.role, m.content, CAST(m.tool_calls AS jsonb), m.tool_call_id,"
        " CAST(m.wine_ids AS uuid[]) "
        f"FROM conv, unnest(CAST({role} AS text[]), CAST({content} AS text[]),"
        f" CAST({calls} AS text[]), CAST({call_id} AS text[]), CAST({wines} AS text[]))"
        " WITH ORDINALITY AS m(role, content, tool_calls, tool_call_id, wine_ids, ord) "
        f"WHERE {_HELD} ORDER BY m.ord)"
    )


def _turn(*conversation: str) -> str:
    return f"WITH {', '.join((_PLAN, *conversation, _ANSWER, _FACT))} SELECT ok FROM held"


_CONVERSATION = f"${_MESSAGES_FIRST + 5}"
_NOT_REMEMBERED = _turn()
_IN_NEW_CONVERSATION = _turn(
    "ended AS (UPDATE conversations SET ended_at = now()"
    f" WHERE user_id = $1 AND ended_at IS NULL AND {_HELD})",
    f"conv AS (INSERT INTO conversations (user_id) SELECT $1 WHERE {_HELD} RETURNING id)",
    _messages(_MESSAGES_FIRST),
)
_IN_CONVERSATION = _turn(
    "touched AS (UPDATE conversations SET last_activity_at = now()"
    f" WHERE id = {_CONVERSATION} AND {_HELD})",
    f"conv AS (SELECT CAST({_CONVERSATION} AS uuid) AS id)",
    _messages(_MESSAGES_FIRST),
)


@dataclass(frozen=True)
class Plan:
    """The plan of a turn's delivery, kept in the update's ledger row with the turn, while
    `owner` holds the update."""

    update_id: int
    owner: str
    plan: dict[str, Any]


async def store_turn(
    session: Executor,
    user_id: int | None,
    thread: Thread | None,
    rec: Recommendation,
    fact: dict[str, Any],
    plan: Plan | None = None,
) -> bool:
    """The whole turn in one statement: the answer's row (what /stats counts), its request
    facts (what the console reads), the plan of its delivery (`plan`) and, when the turn is
    remembered (`thread`), its messages in the conversation it went on with, or in a new one
    that ends the person's open one. False, and nothing written, when the plan's update is no
    longer its owner's."""
    args: list[Any] = [
        user_id,
        rec.path,
        rec.llm_calls,
        int(rec.timings_ms.get("total", 0)),
        None if plan is None else json.dumps(plan.plan, ensure_ascii=False),
        None if plan is None else plan.update_id,
        None if plan is None else plan.owner,
        *fact_params(fact),
    ]
    sql = _NOT_REMEMBERED
    if thread is not None and user_id is not None:
        messages = rec.new_messages
        shown: list[str | None] = [None] * len(messages)
        if messages and rec.wines:
            shown[-1] = _uuid_array(w.id for w in rec.wines)
        page = thread.page_wine
        if page is not None:
            messages = [*page.messages, *messages]
            shown = [None, _uuid_array([page.wine_id]), *shown]
        args += [
            [m["role"] for m in messages],
            [m.get("content") for m in messages],
            # As the JSONB column type wrote them: None is JSON null.
            [json.dumps(m.get("tool_calls")) for m in messages],
            [m.get("tool_call_id") for m in messages],
            shown,
        ]
        sql = _IN_NEW_CONVERSATION
        if thread.conversation_id is not None:
            sql = _IN_CONVERSATION
            args.append(thread.conversation_id)
    row = await driver_fetchrow(session, sql, *args)
    return row is not None and bool(row[0])


def _uuid_array(ids: Iterable[uuid.UUID]) -> str:
    """Wine ids as a PostgreSQL array literal (one element of the messages' `text[]`)."""
    return "{" + ",".join(str(i) for i in ids) + "}"
