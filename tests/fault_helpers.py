"""Helpers shared by the fault-injection, attack and soak suites.

- `good_agent(arguments, tool)`: a well-behaved fake model that a faulty one recovers into. It
  calls `tool` (search_wines by default) with `arguments` until a call with exactly those
  arguments has returned wines in this turn, then answers with three of them; on the
  catalog_prompt path (no tools offered, catalog lines in the system prompt) it answers with
  the first three lines.
- `history_problems(sessions)`: every stored conversation checked the way a strict API would
  read it, plus "no question without its answer".
- `shown_cards(...)`: the wine cards a chat received, looked up in the catalog.
- `PostgresControl`: stop and restart an embedded PostgreSQL under running engines.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.callbacks import VoteCallback
from repositories.models import Message, Wine
from repositories.wines import WineRepository
from tests.fakes.openai_server import Step, call, reply, tool_calls
from tests.fakes.telegram_server import SentCall

JSONDict = dict[str, Any]
_UUID_LINE = re.compile(r"^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b", re.M)
_PRICE = re.compile(r"💰\s*([\d\s\u00a0]+)")


# ---- a well-behaved model -------------------------------------------------------------------


def turn_messages(body: JSONDict) -> list[JSONDict]:
    """The messages of the current turn: from the last user message on."""
    messages: list[JSONDict] = body["messages"]
    start = max(i for i, m in enumerate(messages) if m["role"] == "user")
    return messages[start:]


def results_of_calls(body: JSONDict, name: str, arguments: JSONDict) -> list[JSONDict]:
    """Wines returned in this turn by calls of `name` with exactly `arguments`."""
    wanted: set[str] = set()
    wines: list[JSONDict] = []
    for message in turn_messages(body):
        for tool_call in message.get("tool_calls") or []:
            function = tool_call["function"]
            try:
                sent = json.loads(function["arguments"] or "{}")
            except json.JSONDecodeError:
                continue
            if function["name"] == name and sent == arguments:
                wanted.add(tool_call["id"])
        if message["role"] == "tool" and message.get("tool_call_id") in wanted:
            payload = json.loads(message["content"])
            wines.extend(payload.get("wines", []))
    return wines


def formatted(picks: Iterable[tuple[str, str]], intro: str, closing: str) -> str:
    parts = [f"[INTRO]\n{intro}"]
    parts += [f"[WINE:{ref}]\n{why}" for ref, why in picks]
    parts.append(f"[CLOSING]\n{closing}")
    return "\n".join(parts)


def why_for(wine_id: str) -> str:
    return f"Причина для {wine_id}: хороший выбор."


def good_answer(wines: list[JSONDict]) -> str:
    ids = [str(w["id"]) for w in wines[:3]]
    return formatted([(i, why_for(i)) for i in ids], "Вот что я нашел.", "Хорошего вечера!")


def catalog_ids(body: JSONDict) -> list[str]:
    return _UUID_LINE.findall(str(body["messages"][0].get("content") or ""))


def good_agent(arguments: JSONDict, tool: str = "search_wines") -> Callable[[JSONDict], Step]:
    def respond(body: JSONDict) -> Step:
        found = results_of_calls(body, tool, arguments)
        if found:
            return reply(good_answer(found))
        if "tools" in body:
            return tool_calls(call(tool, arguments))
        ids = catalog_ids(body)
        return reply(
            formatted(
                [(i, why_for(i)) for i in ids[:3]], "Из каталога магазина:", "Хорошего вечера!"
            )
        )

    return respond


# ---- the stored conversations ------------------------------------------------------------------


async def history_problems(sessions: async_sessionmaker[AsyncSession]) -> list[str]:
    """What a strict chat API would reject in the stored histories, and half-written turns."""
    async with sessions() as session:
        rows = (
            await session.execute(
                select(
                    Message.conversation_id,
                    Message.role,
                    Message.content,
                    Message.tool_calls,
                    Message.tool_call_id,
                ).order_by(Message.conversation_id, Message.id)
            )
        ).all()
    problems: list[str] = []
    by_conversation: dict[uuid.UUID, list[Any]] = {}
    for row in rows:
        by_conversation.setdefault(row.conversation_id, []).append(row)
    for conversation_id, messages in by_conversation.items():
        pending: list[str] = []
        awaiting_answer = False
        for index, m in enumerate(messages):
            where = f"conversation {conversation_id} message #{index} ({m.role})"
            if m.role == "tool":
                if m.tool_call_id not in pending:
                    problems.append(f"{where}: answers no pending tool call")
                else:
                    pending.remove(m.tool_call_id)
                continue
            if pending:
                problems.append(f"{where}: tool calls {pending} have no result")
                pending = []
            if m.role == "user":
                if awaiting_answer:
                    problems.append(f"{where}: the previous question has no answer")
                awaiting_answer = True
            elif m.role == "assistant" and m.tool_calls:
                ids = [c.get("id") for c in m.tool_calls]
                if len(set(ids)) != len(ids) or not all(ids):
                    problems.append(f"{where}: tool call ids {ids} are not unique and non-empty")
                pending = [i for i in ids if i]
            elif m.role == "assistant":
                if not (m.content or "").strip():
                    problems.append(f"{where}: an empty answer")
                awaiting_answer = False
        if pending:
            problems.append(f"conversation {conversation_id}: tool calls {pending} have no result")
        if awaiting_answer:
            problems.append(f"conversation {conversation_id}: the last question has no answer")
    return problems


# ---- what the user saw ---------------------------------------------------------------------------


@dataclass
class ShownCard:
    call: SentCall
    wine: Wine | None
    shown_price: int | None


def is_card(sent: SentCall) -> bool:
    return any(b.get("text", "").startswith("👍") for b in sent.inline_buttons)


def card_wine_id(sent: SentCall) -> uuid.UUID:
    return VoteCallback.unpack(sent.inline_buttons[0]["callback_data"]).wine_id


async def shown_cards(
    sessions: async_sessionmaker[AsyncSession], calls: Iterable[SentCall]
) -> list[ShownCard]:
    cards = [c for c in calls if is_card(c)]
    async with sessions() as session:
        found = await WineRepository(session).get_by_ids([card_wine_id(c) for c in cards])
    by_id = {w.id: w for w in found}
    result = []
    for card in cards:
        match = _PRICE.search(card.visible_text or "")
        price = int(re.sub(r"\D", "", match.group(1))) if match else None
        result.append(ShownCard(card, by_id.get(card_wine_id(card)), price))
    return result


def assert_real_cards(cards: list[ShownCard]) -> list[Wine]:
    """Every card is a catalog wine, named and priced as in the catalog."""
    wines = []
    for card in cards:
        text = card.call.visible_text or ""
        assert card.wine is not None, f"a card for a wine not in the catalog: {text[:200]}"
        assert card.wine.name in text, text[:200]
        assert card.shown_price == int(card.wine.price_rub), text[:200]
        wines.append(card.wine)
    return wines


async def catalog_fingerprint(sessions: async_sessionmaker[AsyncSession]) -> tuple[int, str]:
    """Number of wines and a checksum of every slug, name and price."""
    async with sessions() as session:
        rows = (
            await session.execute(select(Wine.slug, Wine.name, Wine.price_rub).order_by(Wine.slug))
        ).all()
    digest = "|".join(f"{slug}:{name}:{price}" for slug, name, price in rows)
    return len(rows), hashlib.sha256(digest.encode()).hexdigest()


# ---- an embedded PostgreSQL that can be stopped and started again ------------------------------


class PostgresControl:
    """Stops and restarts the embedded server of one DATA_DIR, keeping its socket (and so the
    URL every engine holds). pgserver runs it as the `pgserver` system user when we are root.
    """

    def __init__(self, data_dir: Path) -> None:
        import pgserver
        from pgserver.utils import PostmasterInfo

        self.pgdata = (data_dir / "pg").resolve()
        self._server = pgserver.get_server(self.pgdata)  # the running instance of this process
        self._info = PostmasterInfo
        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        assert info is not None and info.socket_dir is not None
        self.socket_dir = info.socket_dir

    def _pg_ctl(self, *args: str) -> None:
        from pgserver._commands import pg_ctl  # type: ignore[attr-defined]

        pg_ctl(list(args), pgdata=self.pgdata, user=self._server.system_user, timeout=60)

    def running(self) -> bool:
        info = self._info.read_from_pgdata(self.pgdata)
        return info is not None and info.is_running() and info.status == "ready"

    def stop(self) -> None:
        """Fast shutdown: sessions are cut off, as when the database host goes away."""
        self._pg_ctl("-w", "-m", "fast", "stop")

    def start(self) -> None:
        self._pg_ctl(
            "-w",
            "-o",
            '-h ""',
            "-o",
            f"-k {self.socket_dir}",
            "-l",
            str(self.pgdata / "log"),
            "start",
        )
        info = self._info.read_from_pgdata(self.pgdata)
        assert info is not None and info.socket_dir == self.socket_dir
        self._server._postmaster_info = info  # so that pgserver stops this one at exit

    def _processes(self) -> list[Any]:
        import psutil

        info = self._info.read_from_pgdata(self.pgdata)
        assert info is not None and info.pid is not None
        postmaster = psutil.Process(info.pid)
        return [postmaster, *postmaster.children(recursive=True)]

    def freeze(self) -> None:
        """The server hangs (SIGSTOP on every process) yet its socket still accepts: as when the
        database host stalls or the network to it drops packets."""
        for proc in self._processes():
            proc.suspend()

    def thaw(self) -> None:
        for proc in self._processes():
            proc.resume()

    def shutdown(self) -> None:
        """Stop the server for good (this process is its only user)."""
        if self.running():
            self._server._postmaster_info = self._info.read_from_pgdata(self.pgdata)
        self._server.cleanup()
